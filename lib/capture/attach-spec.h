/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Attach point specs: "fexit:FUNC", "kprobe:FUNC", "kretprobe:FUNC", "raw_tp:NAME",
 * "tp_btf:NAME", globs allowed in the name. Names are resolved against the running kernel's
 * BTF: functions are BTF FUNCs (fexit types their arguments and return values, a kprobe the
 * arguments, a kretprobe the return value; each function a glob matches is a target), raw
 * tracepoints are the "btf_trace_<name>" typedefs every tracepoint has (types from
 * btf-types.h; what each kind is and how it attaches, attach-kind.h). Hardware
 * watchpoints, "mem:...", are resolved by mem-spec.h; user functions and USDT probes,
 * "uprobe:", "uretprobe:" and "usdt:", by uprobe-spec.h against the file's ELF and DWARF.
 */
#ifndef LBRSNAP_ATTACH_SPEC_H
#define LBRSNAP_ATTACH_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include "capture/attach-target.h"

struct btf;

/*
 * Expands the user's specs into targets, with their arguments typed when with_args. On error
 * returns a negative errno and writes a message naming the bad spec (with the closest
 * existing names, or why a function cannot be attached) into err: -EBADMSG for a spec that
 * does not parse or names nothing that exists, -EOPNOTSUPP for what cannot be attached here.
 */
int attach_set__expand(struct attach_set *set, const char *const *specs, size_t nr_specs,
		       const struct btf *btf, bool with_args, char *err, size_t err_len);
void attach_set__free(struct attach_set *set);

/*
 * Parses "kind:name" (kinds in lbrfile/lbr-kind.h); returns 0, or -EINVAL for an unknown
 * kind or an empty name.
 */
int attach_spec__parse(const char *spec, enum lbrsnap_kind *kind, const char **name);

#endif /* LBRSNAP_ATTACH_SPEC_H */
