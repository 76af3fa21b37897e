// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Feature probes for attach types newer than Debian 12's libbpf 1.1 and its 6.1 UAPI headers
 * (API in kernel-features.h). The UAPI numbers are defined here; links are made with the raw
 * BPF_LINK_CREATE command because libbpf 1.1's bpf_link_create() copies only the union
 * members it knows (kprobe_multi, tracing cookie) and would drop tracing_multi's ids.
 *
 * A feature counts as present only if the program loads and its link attaches: an older
 * kernel may accept the load (an unknown TRACING attach type was verified as fentry) and
 * refuse only the attach.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "capture/kernel-features.h"

/* enum bpf_attach_type values of newer kernels (7.2.13's BTF, libbpf HEAD's bpf.h) */
#define ATTACH_KPROBE_SESSION	KFEAT_ATTACH_KPROBE_SESSION
#define ATTACH_TRACE_FSESSION	58
#define ATTACH_FENTRY_MULTI	59
#define ATTACH_FEXIT_MULTI	60
#define ATTACH_FSESSION_MULTI	61

/* the function every probe attaches to: noinline, traceable and called only by BPF tests */
#define PROBE_TARGET		"bpf_fentry_test1"

/*
 * BPF_LINK_CREATE's attribute as newer kernels lay it out: prog_fd, target_fd, attach_type,
 * flags, then a union. Sized past every kernel's link_create and zeroed, so the tail the
 * kernel checks is zero.
 */
union link_attr {
	struct {
		__u32 prog_fd;
		__u32 target_fd;
		__u32 attach_type;
		__u32 flags;
		union {
			struct {
				__u32 flags;
				__u32 cnt;
				__u64 syms;
				__u64 addrs;
				__u64 cookies;
			} kprobe_multi;		/* also kprobe.session */
			struct {
				__u64 ids;
				__u64 cookies;
				__u32 cnt;
			} tracing_multi;
		};
	};
	__u8 bytes[128];
};

struct feature_desc {
	const char *name;
	enum bpf_prog_type prog_type;
	__u32 attach_type;
	bool needs_btf_id;		/* the program names its target at load time */
	__u32 also[2];			/* attach types probed as well, the same way (0: none) */
	const char *kinds;		/* what a yes covers, when also[] is set */
};

static const struct feature_desc features[KFEAT__MAX] = {
	[KFEAT_KPROBE_SESSION] = { "kprobe.session", BPF_PROG_TYPE_KPROBE,
				   ATTACH_KPROBE_SESSION, false },
	[KFEAT_FSESSION] = { "fsession", BPF_PROG_TYPE_TRACING, ATTACH_TRACE_FSESSION, true },
	/* a multi program loads with attach_btf_id 0: its targets come with the link */
	[KFEAT_TRACING_MULTI] = { "tracing_multi", BPF_PROG_TYPE_TRACING, ATTACH_FENTRY_MULTI,
				  false, { ATTACH_FEXIT_MULTI, ATTACH_FSESSION_MULTI },
				  "fentry.multi, fexit.multi, fsession.multi" },
	/*
	 * The link itself, not a symbol of the kernel, says whether there are kprobe-multi
	 * links: 5.18-6.4 have them with fprobe but no fprobe events to look for.
	 */
	[KFEAT_KPROBE_MULTI] = { "kprobe_multi", BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI,
				 false },
};

const char *kernel_feature__name(enum kernel_feature f)
{
	return f < KFEAT__MAX ? features[f].name : "?";
}

static int target_btf_id(__u32 *id)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int ret;

	if (!btf)
		return -errno;
	ret = btf__find_by_name_kind(btf, PROBE_TARGET, BTF_KIND_FUNC);
	btf__free(btf);
	if (ret < 0)
		return -ENOENT;
	*id = ret;
	return 0;
}

static int link_create(const union link_attr *attr)
{
	int fd = syscall(__NR_bpf, BPF_LINK_CREATE, attr, sizeof(*attr));

	return fd < 0 ? -errno : fd;
}

static int probe_type(enum kernel_feature f, __u32 attach_type, char *why, size_t why_len)
{
	/* r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	const char *sym = PROBE_TARGET;
	const struct feature_desc *d;
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	union link_attr attr;
	__u32 btf_id = 0;
	int prog_fd = -1, link_fd = -1, ret;

	d = &features[f];
	if (d->prog_type == BPF_PROG_TYPE_TRACING) {
		ret = target_btf_id(&btf_id);
		if (ret) {
			snprintf(why, why_len, "no BTF for %s: %s", PROBE_TARGET, strerror(-ret));
			return ret;
		}
	}

	opts.expected_attach_type = attach_type;
	opts.attach_btf_id = d->needs_btf_id ? btf_id : 0;
	prog_fd = bpf_prog_load(d->prog_type, "lbrsnap_probe", "GPL", insns,
				sizeof(insns) / sizeof(insns[0]), &opts);
	if (prog_fd < 0) {
		ret = -errno;
		snprintf(why, why_len, "program load: %s", strerror(-ret));
		goto cleanup;
	}

	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = prog_fd;
	attr.attach_type = attach_type;
	switch (f) {
	case KFEAT_KPROBE_SESSION:
	case KFEAT_KPROBE_MULTI:
		attr.kprobe_multi.cnt = 1;
		attr.kprobe_multi.syms = (__u64)(unsigned long)&sym;
		break;
	case KFEAT_TRACING_MULTI:
		attr.tracing_multi.cnt = 1;
		attr.tracing_multi.ids = (__u64)(unsigned long)&btf_id;
		break;
	default:
		/* target_fd 0 and no target_btf_id: the program's own attach_btf_id */
		break;
	}
	link_fd = link_create(&attr);
	if (link_fd < 0) {
		ret = link_fd;
		snprintf(why, why_len, "attach to %s: %s", PROBE_TARGET, strerror(-ret));
		goto cleanup;
	}
	ret = 0;
	snprintf(why, why_len, "attached to %s", PROBE_TARGET);
cleanup:
	if (link_fd >= 0)
		close(link_fd);
	if (prog_fd >= 0)
		close(prog_fd);
	return ret;
}

int kernel_feature__session_link(int prog_fd, const char *const *syms, const __u64 *cookies,
				 __u32 cnt)
{
	union link_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = prog_fd;
	attr.attach_type = ATTACH_KPROBE_SESSION;
	attr.kprobe_multi.cnt = cnt;
	attr.kprobe_multi.syms = (__u64)(unsigned long)syms;
	attr.kprobe_multi.cookies = (__u64)(unsigned long)cookies;
	return link_create(&attr);
}

int kernel_feature__probe(enum kernel_feature f, char *why, size_t why_len)
{
	const struct feature_desc *d;
	int ret, i;

	if (f >= KFEAT__MAX)
		return -EINVAL;
	d = &features[f];
	ret = probe_type(f, d->attach_type, why, why_len);
	/* tracing_multi is three attach types: a kernel could take one and not another */
	for (i = 0; !ret && i < 2 && d->also[i]; i++)
		ret = probe_type(f, d->also[i], why, why_len);
	if (!ret && d->kinds)
		snprintf(why, why_len, "%s attached to %s", d->kinds, PROBE_TARGET);
	return ret;
}
