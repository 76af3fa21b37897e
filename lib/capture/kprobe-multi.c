// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * kprobe-multi links for kprobe:GLOB and kretprobe:GLOB (API in kprobe-multi.h).
 *
 * Functions are passed by name: the kernel resolves them in kallsyms and sorts them with
 * their cookies, so a cookie stays with its function whatever the order of the addresses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "attach-spec.h"
#include "kprobe-multi.h"

bool kprobe_multi__is_multi(unsigned int kind)
{
	return kind == LBRSNAP_KIND_KPROBE || kind == LBRSNAP_KIND_KRETPROBE;
}

void kprobe_multi__func(const struct attach_target *t, __u32 ap, __u32 args_size, __u32 nstrs,
			struct lbrsnap_func *fi)
{
	__u32 i;

	memset(fi, 0, sizeof(*fi));
	fi->ap = ap;
	fi->args_size = args_size;
	if (t->has_ret) {
		fi->ret_kind = t->ret_kind;
		fi->ret_shift = 64 - 8 * t->ret_size;
	}
	fi->nargs = t->nr_args;
	fi->nstrs = nstrs;
	for (i = 0; i < t->nr_args; i++) {
		fi->arg_kind[i] = t->args[i].kind;
		fi->arg_shift[i] = t->args[i].kind ? 64 - 8 * t->args[i].size : 0;
	}
}

/* Errors of the link itself: a kernel without fprobe (or kprobes) knows no such link. */
static bool kernel_lacks_multi(int err)
{
	/* 524: the kernel's internal ENOTSUPP, which some paths let out */
	return err == -EOPNOTSUPP || err == -524 || err == -ENOSYS;
}

int kprobe_multi__attach(struct bpf_program *prog, const char *spec,
			 const struct attach_target *t, size_t nr, __u32 first_func,
			 struct bpf_link **link, char *err, size_t err_len)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts);
	const char **syms;
	__u64 *cookies;
	size_t i;
	int ret = 0;

	*link = NULL;
	syms = calloc(nr, sizeof(*syms));
	cookies = calloc(nr, sizeof(*cookies));
	if (!syms || !cookies) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < nr; i++) {
		syms[i] = t[i].name;
		cookies[i] = first_func + i;
	}
	opts.syms = syms;
	opts.cookies = cookies;
	opts.cnt = nr;
	opts.retprobe = t[0].kind == LBRSNAP_KIND_KRETPROBE;
	*link = bpf_program__attach_kprobe_multi_opts(prog, NULL, &opts);
	if (*link)
		goto cleanup;
	ret = -errno;
	if (kernel_lacks_multi(ret)) {
		snprintf(err, err_len, "%s: this kernel has no kprobe-multi links (%s); "
			 "kprobe: and kretprobe: need Linux 5.18+ with CONFIG_FPROBE and kprobes",
			 spec, strerror(-ret));
		ret = -EBADMSG;
	} else {
		snprintf(err, err_len, "cannot attach %s (%zu function%s, one kprobe-multi link): "
			 "%s", spec, nr, nr == 1 ? "" : "s", strerror(-ret));
	}
cleanup:
	free(syms);
	free(cookies);
	return ret;
}
