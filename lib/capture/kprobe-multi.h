/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * kprobe:GLOB and kretprobe:GLOB: one kprobe-multi program and link for all the functions of
 * a spec, each function an attach point of its own. The link hands each function a cookie,
 * the index of its struct lbrsnap_func in the object's funcs map, which names its attach
 * point and types its return value or arguments (capture.h).
 */
#ifndef LBRSNAP_KPROBE_MULTI_H
#define LBRSNAP_KPROBE_MULTI_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "capture.h"

struct bpf_link;
struct bpf_program;
struct attach_target;
struct btf;

/*
 * Whether kprobe: and kretprobe: attach one kprobe per function: the kernel has kprobes but
 * no kprobe-multi links (no CONFIG_FPROBE, as Debian's 6.1).
 */
bool kprobe_multi__single(const struct btf *btf);
/* Functions of globs that kprobes refused, one kprobe per function (their blacklist) */
struct kprobe_refused {
	size_t nr;
	char example[128];	/* "name: why" */
};

/*
 * The funcs entry of target t, attach point ap, whose records carry an argument block of
 * args_size bytes with nstrs string slots.
 */
void kprobe_multi__func(const struct attach_target *t, __u32 ap, __u32 args_size, __u32 nstrs,
			struct lbrsnap_func *fi);

/*
 * Before load: a program attached one function at a time is a plain kprobe program
 * (attach-kind.h declares it, and kprobe_multi__attach, for the table's rows).
 *
 * kprobe_multi__attach() attaches req->prog to the req->nr functions of targets req->t,
 * giving t[i] the cookie first_func + i: one kprobe-multi link in links[0], or with
 * kprobe_single one kprobe link per function in links[i] (NULL for a function of a glob
 * that kprobes refuse, counted in refused). Returns 0, or a negative errno with a message in
 * err; -EOPNOTSUPP when the kernel has no kprobe-multi links at all.
 */

#endif /* LBRSNAP_KPROBE_MULTI_H */
