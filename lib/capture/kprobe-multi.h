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
 * Whether kprobe: and kretprobe: attach one kprobe per function: a test kprobe-multi link
 * was refused (EOPNOTSUPP: no CONFIG_FPROBE, as Debian's 6.1; EINVAL: before 5.18). why says
 * what the test found, for -v.
 */
bool kprobe_multi__single(char *why, size_t why_len);
/*
 * Functions of globs left out: refused by kprobes, one kprobe per function (their
 * blacklist), or a name kallsyms holds twice (dup).
 */
struct kprobe_refused {
	size_t nr;
	char example[128];	/* "name: why" */
	size_t nr_dup;
	char dup_example[128];	/* "name (0xADDR, 0xADDR)" */
};

/*
 * Where the kernel's struct bpf_link_info holds a kprobe's `missed` counter (6.7+), from its
 * own BTF: libbpf 1.1's UAPI header predates the field. 0: the kernel has none.
 */
struct kprobe_missed_at {
	__u32 multi;		/* kprobe_multi.missed */
	__u32 perf;		/* perf_event.kprobe.missed */
	__u32 perf_type;	/* perf_event.type */
};

void kprobe_multi__missed_at(const struct btf *btf, struct kprobe_missed_at *at);
/*
 * The hits the kprobe or fprobe under link let pass without running its program: 0 with
 * *missed set, or -EOPNOTSUPP when the kernel does not say (before 6.7, or a kprobe attached
 * without a BPF link).
 */
int kprobe_multi__missed(const struct kprobe_missed_at *at, struct bpf_link *link,
			 __u64 *missed);

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
 * that kprobes refuse, counted in refused). A name kallsyms holds twice is refused (a glob's
 * is left out, counted in refused): the kernel would probe the instance it finds first,
 * which need not be the one BTF typed. Returns 0, or a negative errno with a message in
 * err; -EOPNOTSUPP when the kernel has no kprobe-multi links at all.
 */

#endif /* LBRSNAP_KPROBE_MULTI_H */
