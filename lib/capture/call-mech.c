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
#include "capture/tracing-multi.h"

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

/* Functions [first, first + nr): their names and, alongside, their ids as cookies */
static int names_cookies(const struct call_mech_ctx *m, size_t first, size_t nr,
			 const char ***syms, __u64 **cookies)
{
	size_t i;

	*syms = calloc(nr, sizeof(**syms));
	*cookies = calloc(nr, sizeof(**cookies));
	if (!*syms || !*cookies)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		(*syms)[i] = m->funcs->names[first + i];
		(*cookies)[i] = first + i;
	}
	return 0;
}

/* A link of nr functions (syms) refused: err names the function, or how many, and the link */
static int attach_failed(char *err, size_t err_len, const char **syms, size_t nr,
			 const char *link, int ret)
{
	snprintf(err, err_len, "cannot attach --calls %s (%zu function%s, a %s link): %s",
		 nr == 1 ? syms[0] : "functions", nr, nr == 1 ? "" : "s", link, strerror(-ret));
	return ret;
}

/* kprobe-multi: one entry link and one return link, cookies the function ids */
static int kmulti_probe(char *why, size_t why_len)
{
	return kernel_feature__probe(KFEAT_KPROBE_MULTI, why, why_len);
}

static int kmulti_attach(struct call_mech_ctx *m, size_t first, size_t nr, bool exits,
			 char *err, size_t err_len)
{
	const char **syms;
	__u64 *cookies;
	struct bpf_link *link;
	int ret, ex;

	ret = names_cookies(m, first, nr, &syms, &cookies);
	for (ex = exits; ex >= 0 && !ret; ex--) {
		LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .syms = syms, .cookies = cookies,
			    .cnt = nr, .retprobe = ex);

		link = bpf_program__attach_kprobe_multi_opts(ex ? m->exit : m->entry, NULL, &opts);
		if (!link) {
			ret = attach_failed(err, err_len, syms, nr, ex ? "kprobe-multi return" :
					    "kprobe-multi entry", -errno);
			break;
		}
		ret = ctx_add_link(m, link);
	}
	free(syms);
	free(cookies);
	return ret;
}

/*
 * kprobe.session (6.10+): the traced functions on one link of the session program, entry and
 * return on one fprobe (a kprobe-multi pair puts two on every function, and ftrace then walks
 * a list of callbacks per call); the scope's own entry on a kprobe-multi entry link.
 */
static int session_probe(char *why, size_t why_len)
{
	return kernel_feature__probe(KFEAT_KPROBE_SESSION, why, why_len);
}

static int session_attach(struct call_mech_ctx *m, size_t first, size_t nr, bool exits,
			  char *err, size_t err_len)
{
	const char **syms;
	__u64 *cookies;
	int ret, fd;

	if (!exits)
		return kmulti_attach(m, first, nr, false, err, err_len);
	ret = names_cookies(m, first, nr, &syms, &cookies);
	if (!ret) {
		fd = kernel_feature__session_link(bpf_program__fd(m->exit), syms, cookies, nr);
		ret = fd < 0 ? attach_failed(err, err_len, syms, nr, "kprobe.session", fd) :
			       ctx_add_fd(m, fd);
	}
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

/* Whether name is one of spec's comma-separated items as written (not a glob's match) */
static bool named(const char *spec, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = spec; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}

/*
 * A trampoline the kernel refuses for a function a glob matched (6.1 answers EBUSY for some
 * may_* helpers) leaves that function out, its other half undone, named with -v; a function
 * SPEC names is an error.
 */
static int pairs_attach(struct call_mech_ctx *m, size_t first, size_t nr, bool exits,
			char *err, size_t err_len)
{
	size_t i, mark, len;
	int ret = 0;

	for (i = first; i < first + nr; i++) {
		mark = m->nr_fds;
		ret = exits ? pairs_one(m, i, true, err, err_len) : 0;
		if (!ret)
			ret = pairs_one(m, i, false, err, err_len);
		if (!ret)
			continue;
		if (ret == -ENOMEM || !i || !m->spec || named(m->spec, m->funcs->names[i]))
			return ret;
		while (m->nr_fds > mark)
			close(m->fds[--m->nr_fds]);
		len = strlen(m->refused);
		if (!m->nr_refused++ || len + 1 < sizeof(m->refused))
			snprintf(m->refused + len, sizeof(m->refused) - len, "%s%s", len ? "; " : "",
				 err);
		ret = 0;
	}
	return ret;
}

/*
 * tracing_multi (7.2): the loaded templates again as one fentry.multi and one fexit.multi
 * program, one link each for all the functions (tracing-multi.h), cookies the function ids.
 * A function the kernel still refuses is named with -v and left out of both links.
 */
static int tmulti_probe(char *why, size_t why_len)
{
	int ok = tracing_multi__supported();

	snprintf(why, why_len, "%s", tracing_multi__why());
	return ok ? 0 : -EOPNOTSUPP;
}

static int tmulti_load(struct call_mech_ctx *m, bool exit, char *err, size_t err_len)
{
	struct bpf_program *tmpl = exit ? m->exit : m->entry;
	int fd, ret;

	fd = tracing_multi__load(bpf_program__insns(tmpl), bpf_program__insn_cnt(tmpl),
				 exit ? TRACING_MULTI_FEXIT : TRACING_MULTI_FENTRY,
				 exit ? "lbrsnap_kcall_x" : "lbrsnap_kcall_e", NULL, 0);
	if (fd < 0) {
		snprintf(err, err_len, "cannot load the --calls %s program: %s",
			 exit ? "fexit.multi" : "fentry.multi", strerror(-fd));
		return fd;
	}
	ret = ctx_add_fd(m, fd);
	return ret ? ret : fd;
}

static int tmulti_attach(struct call_mech_ctx *m, size_t first, size_t nr, bool exits,
			 char *err, size_t err_len)
{
	__u32 *ids = calloc(nr, sizeof(*ids));
	__u64 *cookies = calloc(nr, sizeof(*cookies));
	int efd, xfd = -1, el = -1, xl = -1, ret;
	size_t i;

	if (!ids || !cookies) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		ids[i] = (__u32)m->funcs->addrs[first + i];
		cookies[i] = first + i;
	}
	ret = efd = tmulti_load(m, false, err, err_len);
	if (ret >= 0 && exits)
		ret = xfd = tmulti_load(m, true, err, err_len);
	if (ret < 0)
		goto out;
	ret = tracing_multi__attach(efd, xfd, ids, cookies, nr, &el, &xl, err, err_len);
	if (ret < 0)
		goto out;
	if ((size_t)ret < nr) {
		/* the layer's -v notes name each one */
		size_t len = strlen(m->refused);

		m->nr_refused += nr - ret;
		snprintf(m->refused + len, sizeof(m->refused) - len,
			 "%s%zu refused by the tracing_multi links (named above)", len ? "; " : "",
			 nr - ret);
	}
	ret = ctx_add_fd(m, el);
	if (!ret && xl >= 0)
		ret = ctx_add_fd(m, xl);
	else if (xl >= 0)
		close(xl);
out:
	free(ids);
	free(cookies);
	return ret;
}

static const struct call_mech kernel_mechs[] = {
	{
		.key = "tracing_multi", .name = "tracing_multi (fentry.multi+fexit.multi)",
		.needs = "tracing_multi links (7.2)",
		.probe = tmulti_probe, .attach = tmulti_attach, .detach = ctx_release,
		.progs = CALL_PROGS_FENTRY,
	},
	{
		.key = "kprobe.session", .name = "kprobe.session",
		.needs = "kprobe.session links (6.10+, CONFIG_FPROBE)",
		.probe = session_probe, .attach = session_attach, .detach = ctx_release,
		.progs = CALL_PROGS_SESSION,
	},
	{
		.key = "kprobe-multi", .name = "kprobe-multi",
		.needs = "kprobe-multi links (5.18+, CONFIG_FPROBE)",
		.probe = kmulti_probe, .attach = kmulti_attach, .detach = ctx_release,
		.progs = CALL_PROGS_KPROBE,
	},
	{
		.key = "fentry-fexit", .name = "fentry-fexit",
		.needs = "BPF trampolines: one fentry/fexit pair per function",
		.probe = pairs_probe, .attach = pairs_attach, .detach = ctx_release,
		.progs = CALL_PROGS_FENTRY,
	},
};

#define NR_MECHS (sizeof(kernel_mechs) / sizeof(kernel_mechs[0]))

const struct call_mech *call_mech__choose_kernel(const char *only, char *why, size_t why_len)
{
	size_t i, used = 0;
	char one[160];

	why[0] = 0;
	for (i = 0; i < NR_MECHS; i++) {
		if (only && strcmp(only, kernel_mechs[i].key))
			continue;
		one[0] = 0;
		if (!kernel_mechs[i].probe(one, sizeof(one)))
			return &kernel_mechs[i];
		if (used < why_len)
			used += snprintf(why + used, why_len - used, "%sno %s (%s)", used ? "; " : "",
					 kernel_mechs[i].name, one);
	}
	return NULL;
}

bool call_mech__known(const char *key)
{
	size_t i;

	for (i = 0; i < NR_MECHS; i++) {
		if (!strcmp(key, kernel_mechs[i].key))
			return true;
	}
	return false;
}

const char *call_mech__keys(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = 0;
	for (i = 0; i < NR_MECHS && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 kernel_mechs[i].key);
	return buf;
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
