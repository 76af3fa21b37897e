// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * raw_tp:NAME and tp_btf:NAME. A raw tracepoint program is attached by the tracepoint's
 * name and reads its arguments as u64s; a tp_btf program was loaded against the
 * btf_trace_<name> of its target (attach_kind__btf_target) and attaches to that.
 */
#include <bpf/libbpf.h>
#include "capture/attach-kind.h"
#include "capture/attach-spec.h"

int attach_tp__raw(const struct attach_req *req, char *err, size_t err_len)
{
	return attach_kind__link(req, bpf_program__attach_raw_tracepoint(req->prog, req->t->name),
				 err, err_len);
}

int attach_tp__btf(const struct attach_req *req, char *err, size_t err_len)
{
	return attach_kind__link(req, bpf_program__attach(req->prog), err, err_len);
}
