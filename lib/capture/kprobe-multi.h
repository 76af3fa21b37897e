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

/* Whether targets of kind share one program per spec (kprobe, kretprobe). */
bool kprobe_multi__is_multi(unsigned int kind);

/*
 * The funcs entry of target t, attach point ap, whose records carry an argument block of
 * args_size bytes with nstrs string slots.
 */
void kprobe_multi__func(const struct attach_target *t, __u32 ap, __u32 args_size, __u32 nstrs,
			struct lbrsnap_func *fi);

/*
 * Attaches prog to the nr functions of targets t[0..nr), the user's spec, giving t[i]
 * the cookie first_func + i. Returns 0 with *link set, or a negative errno with a message in err;
 * -EBADMSG when the kernel has no kprobe-multi links at all.
 */
int kprobe_multi__attach(struct bpf_program *prog, const char *spec,
			 const struct attach_target *t, size_t nr, __u32 first_func,
			 struct bpf_link **link, char *err, size_t err_len);

#endif /* LBRSNAP_KPROBE_MULTI_H */
