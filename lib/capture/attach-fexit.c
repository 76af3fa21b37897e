// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fexit:FUNC. The program was loaded against the function's BTF (attach_kind__btf_target),
 * so the kernel builds its trampoline from that: attaching takes no more than the program.
 * Which functions can take one is decided before, in attach-spec.c.
 */
#include <bpf/libbpf.h>
#include "capture/attach-kind.h"

int attach_fexit__attach(const struct attach_req *req, char *err, size_t err_len)
{
	return attach_kind__link(req, bpf_program__attach(req->prog), err, err_len);
}
