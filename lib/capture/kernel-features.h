/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * kernel-features: what the running kernel can attach beyond libbpf 1.1's vocabulary,
 * found by loading and attaching a trivial program, never by reading BTF or the version.
 */
#ifndef LBRSNAP_KERNEL_FEATURES_H
#define LBRSNAP_KERNEL_FEATURES_H

#include <stddef.h>
#include <linux/types.h>

enum kernel_feature {
	KFEAT_KPROBE_SESSION,		/* kprobe.session (v6.10) */
	KFEAT_FSESSION,			/* BPF_TRACE_FSESSION, one function (v7.0) */
	KFEAT_TRACING_MULTI,		/* fentry/fexit/fsession.multi: tracing_multi links (7.2) */
	KFEAT_KPROBE_MULTI,		/* kprobe-multi links (v5.18 with CONFIG_FPROBE) */
	KFEAT__MAX,
};

/*
 * The feature's name as printed: "kprobe.session", "fsession", "tracing_multi",
 * "kprobe_multi".
 */
const char *kernel_feature__name(enum kernel_feature f);

/*
 * Load a program of the feature's type and attach it to a harmless function (the kernel's
 * own bpf_fentry_test1, a target kept for such tests), then detach. Returns 0 if both
 * worked, else a negative errno with a description of the refusing step in why.
 */
int kernel_feature__probe(enum kernel_feature f, char *why, size_t why_len);

/* BPF_TRACE_KPROBE_SESSION, for a program loaded as kprobe.session (libbpf 1.1 has no name) */
#define KFEAT_ATTACH_KPROBE_SESSION	56

/*
 * A kprobe.session link of prog_fd (loaded with KFEAT_ATTACH_KPROBE_SESSION) on the cnt
 * functions named by syms, with cookies alongside: libbpf 1.1's bpf_link_create() takes
 * kprobe-multi options only for BPF_TRACE_KPROBE_MULTI. Returns the link fd or a negative
 * errno.
 */
int kernel_feature__session_link(int prog_fd, const char *const *syms, const __u64 *cookies,
				 __u32 cnt);

#endif
