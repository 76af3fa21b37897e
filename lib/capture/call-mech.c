// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The mechanisms that probe a --calls scope's kernel functions (API in call-mech.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "capture/call-funcs.h"
#include "capture/call-mech.h"
#include "capture/kernel-features.h"

static int ctx_add_link(struct call_mech_ctx *m, struct bpf_link *link)
{
	struct bpf_link **v;

	if (m->nr_links == m->cap_links) {
		m->cap_links = m->cap_links ? 2 * m->cap_links : 16;
		v = realloc(m->links, m->cap_links * sizeof(*v));
		if (!v) {
			bpf_link__destroy(link);
			return -ENOMEM;
		}
		m->links = v;
	}
	m->links[m->nr_links++] = link;
	return 0;
}

static int ctx_add_fd(struct call_mech_ctx *m, int fd)
{
	int *v;

	if (m->nr_fds == m->cap_fds) {
		m->cap_fds = m->cap_fds ? 2 * m->cap_fds : 32;
		v = realloc(m->fds, m->cap_fds * sizeof(*v));
		if (!v) {
			close(fd);
			return -ENOMEM;
		}
		m->fds = v;
	}
	m->fds[m->nr_fds++] = fd;
	return 0;
}

/* Links first, in reverse: the last attached (the scope's entry) goes first */
static void ctx_release(struct call_mech_ctx *m)
{
	while (m->nr_links)
		bpf_link__destroy(m->links[--m->nr_links]);
	while (m->nr_fds)
		close(m->fds[--m->nr_fds]);
	free(m->links);
	free(m->fds);
	m->links = NULL;
	m->fds = NULL;
	m->cap_links = m->cap_fds = 0;
}

/* kprobe-multi: one entry link and one return link, cookies the function ids */
static int kmulti_probe(char *why, size_t why_len)
{
	return kernel_feature__probe(KFEAT_KPROBE_MULTI, why, why_len);
}

static int kmulti_attach(struct call_mech_ctx *m, size_t first, size_t nr, bool exits,
			 char *err, size_t err_len)
{
	const char **syms = calloc(nr, sizeof(*syms));
	__u64 *cookies = calloc(nr, sizeof(*cookies));
	struct bpf_link *link;
	size_t i;
	int ret = 0, ex;

	if (!syms || !cookies) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		syms[i] = m->funcs->names[first + i];
		cookies[i] = first + i;
	}
	for (ex = exits; ex >= 0 && !ret; ex--) {
		LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .syms = syms, .cookies = cookies,
			    .cnt = nr, .retprobe = ex);

		link = bpf_program__attach_kprobe_multi_opts(ex ? m->exit : m->entry, NULL, &opts);
		if (!link) {
			ret = -errno;
			snprintf(err, err_len, "cannot attach --calls %s (%zu function%s, a "
				 "kprobe-multi %s link): %s", nr == 1 ? syms[0] : "functions", nr,
				 nr == 1 ? "" : "s", ex ? "return" : "entry", strerror(-ret));
			break;
		}
		ret = ctx_add_link(m, link);
	}
out:
	free(syms);
	free(cookies);
	return ret;
}

/*
 * fentry/fexit pairs: a trampoline program needs its target at load time, so each function
 * gets clones of the loaded skeleton programs (their final instructions, maps in place),
 * loaded against its BTF id and linked with its id as the cookie.
 */
static int pairs_probe(char *why, size_t why_len)
{
	snprintf(why, why_len, "BPF trampolines, as fexit: needs");
	return 0;
}

static int pairs_one(struct call_mech_ctx *m, size_t id, bool exit, char *err, size_t err_len)
{
	struct bpf_program *tmpl = exit ? m->exit : m->entry;
	enum bpf_attach_type type = exit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY;
	const char *name = m->funcs->names[id];
	LIBBPF_OPTS(bpf_prog_load_opts, po, .expected_attach_type = type,
		    .attach_btf_id = (__u32)m->funcs->addrs[id]);
	LIBBPF_OPTS(bpf_link_create_opts, lo, .tracing.cookie = id);
	int prog_fd, link_fd, ret;

	prog_fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, exit ? "lbrsnap_kcall_x" : "lbrsnap_kcall_e",
				"GPL", bpf_program__insns(tmpl), bpf_program__insn_cnt(tmpl), &po);
	if (prog_fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "cannot load the --calls %s program of %s: %s",
			 exit ? "fexit" : "fentry", name, strerror(-ret));
		return ret;
	}
	ret = ctx_add_fd(m, prog_fd);
	if (ret)
		return ret;
	link_fd = bpf_link_create(prog_fd, 0, type, &lo);
	if (link_fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "cannot attach --calls function %s (%s): %s", name,
			 exit ? "fexit" : "fentry", strerror(-ret));
		return ret;
	}
	return ctx_add_fd(m, link_fd);
}

static int pairs_attach(struct call_mech_ctx *m, size_t first, size_t nr, bool exits,
			char *err, size_t err_len)
{
	size_t i;
	int ret = 0;

	for (i = first; i < first + nr && !ret; i++) {
		if (exits)
			ret = pairs_one(m, i, true, err, err_len);
		if (!ret)
			ret = pairs_one(m, i, false, err, err_len);
	}
	return ret;
}

static const struct call_mech kernel_mechs[] = {
	/*
	 * SLOT (h-tmulti, 7.2): tracing_multi, one fentry.multi and one fexit.multi link for all
	 * the functions. Its row goes first, with lib/capture/tracing-multi.h:
	 *	{ .name = "tracing-multi", .needs = "fentry.multi/fexit.multi (tracing_multi)",
	 *	  .probe = tmulti_probe (tracing_multi__supported()), .attach = tmulti_attach,
	 *	  .detach = ctx_release, .progs = "fentry" },
	 * tmulti_attach reloads bpf_program__insns(m->entry/m->exit) as fentry.multi (59) and
	 * fexit.multi (60), keeps their fds with ctx_add_fd(), and calls tracing_multi__attach()
	 * with ids = (__u32)m->funcs->addrs[first..], cookies = first.., cnt = nr, keeping the
	 * two link fds with ctx_add_fd(); without exits it attaches the entry only.
	 */
	{
		.name = "kprobe-multi", .needs = "kprobe-multi links (5.18+, CONFIG_FPROBE)",
		.probe = kmulti_probe, .attach = kmulti_attach, .detach = ctx_release,
		.progs = "kprobe",
	},
	{
		.name = "fentry-fexit", .needs = "BPF trampolines: one fentry/fexit pair per function",
		.probe = pairs_probe, .attach = pairs_attach, .detach = ctx_release,
		.progs = "fentry",
	},
};

#define NR_MECHS (sizeof(kernel_mechs) / sizeof(kernel_mechs[0]))

const struct call_mech *call_mech__choose_kernel(char *why, size_t why_len)
{
	size_t i, used = 0;
	char one[160];

	why[0] = 0;
	for (i = 0; i < NR_MECHS; i++) {
		one[0] = 0;
		if (!kernel_mechs[i].probe(one, sizeof(one)))
			return &kernel_mechs[i];
		if (used < why_len)
			used += snprintf(why + used, why_len - used, "%sno %s (%s)", used ? "; " : "",
					 kernel_mechs[i].name, one);
	}
	return NULL;
}

int call_mech__attach(const struct call_mech *mech, struct call_mech_ctx *m, bool scope_entry,
		      char *err, size_t err_len)
{
	int ret = 0;

	if (m->funcs->nr > 1)
		ret = mech->attach(m, 1, m->funcs->nr - 1, true, err, err_len);
	if (!ret && scope_entry)
		ret = mech->attach(m, 0, 1, false, err, err_len);
	return ret;
}

void call_mech__detach(const struct call_mech *mech, struct call_mech_ctx *m)
{
	if (mech)
		mech->detach(m);
}
