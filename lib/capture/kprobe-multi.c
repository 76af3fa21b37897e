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
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "capture/attach-kind.h"
#include "capture/attach-spec.h"
#include "capture/kprobe-multi.h"

bool kprobe_multi__single(const struct btf *btf)
{
	/* fprobe, which kprobe-multi links are built on, exists only with CONFIG_FPROBE */
	return btf__find_by_name_kind(btf, "fprobe_register", BTF_KIND_FUNC) < 0 &&
	       btf__find_by_name_kind(btf, "register_kprobe", BTF_KIND_FUNC) >= 0;
}

int kprobe_multi__prepare(struct bpf_program *prog, const struct attach_target *t,
			  bool single, char *err, size_t err_len)
{
	/*
	 * Loaded as a plain kprobe program, it attaches to one function per perf link; the
	 * link's bpf_cookie then names the function as the multi link's cookie does.
	 */
	if (single)
		bpf_program__set_expected_attach_type(prog, 0);
	return 0;
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

/*
 * One perf kprobe link per function: kernels without kprobe-multi links (Debian's 6.1).
 * kprobes refuse some of what ftrace-based fprobes take (the kernel's NOKPROBE blacklist:
 * do_int3, EINVAL; a name kallsyms holds twice: EADDRNOTAVAIL): a function a glob matched
 * is then left out and counted in *refused, a named one is an error.
 */
static int attach_single(struct bpf_program *prog, const char *spec,
			 const struct attach_target *t, size_t nr, __u32 first_func,
			 struct bpf_link **links, struct kprobe_refused *refused,
			 char *err, size_t err_len)
{
	bool glob = strpbrk(spec, "*?[");
	size_t i;
	int ret;

	for (i = 0; i < nr; i++) {
		LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = first_func + i,
			    .retprobe = lbr_kind__is_return(t[i].kind));

		links[i] = bpf_program__attach_kprobe_opts(prog, t[i].name, &opts);
		if (!links[i] && glob) {
			if (!refused->nr++)
				snprintf(refused->example, sizeof(refused->example), "%s: %s",
					 t[i].name, strerror(errno));
			continue;
		}
		if (!links[i]) {
			ret = -errno;
			snprintf(err, err_len, "cannot attach %s: %s at %s (one kprobe per "
				 "function, this kernel having no kprobe-multi links): %s", spec,
				 lbr_kind__name(t[i].kind),
				 t[i].name, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int attach_multi(struct bpf_program *prog, const char *spec,
			const struct attach_target *t, size_t nr, __u32 first_func, bool single,
			struct bpf_link **links, struct kprobe_refused *refused,
			char *err, size_t err_len)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts);
	const char **syms = NULL;
	__u64 *cookies = NULL;
	size_t i;
	int ret = 0;

	memset(links, 0, nr * sizeof(*links));
	if (single)
		return attach_single(prog, spec, t, nr, first_func, links, refused, err,
				     err_len);
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
	opts.retprobe = lbr_kind__is_return(t[0].kind);
	links[0] = bpf_program__attach_kprobe_multi_opts(prog, NULL, &opts);
	if (links[0])
		goto cleanup;
	ret = -errno;
	if (kernel_lacks_multi(ret)) {
		snprintf(err, err_len, "%s: this kernel has no kprobe-multi links (%s); "
			 "kprobe: and kretprobe: need Linux 5.18+ with CONFIG_FPROBE, or kprobes",
			 spec, strerror(-ret));
		ret = -EOPNOTSUPP;
	} else {
		snprintf(err, err_len, "cannot attach %s (%zu function%s, one kprobe-multi link): "
			 "%s", spec, nr, nr == 1 ? "" : "s", strerror(-ret));
	}
cleanup:
	free(syms);
	free(cookies);
	return ret;
}

int kprobe_multi__attach(const struct attach_req *req, char *err, size_t err_len)
{
	return attach_multi(req->prog, req->spec, req->t, req->nr, req->first_func,
			    req->kprobe_single, req->links, req->refused, err, err_len);
}
