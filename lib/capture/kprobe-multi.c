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
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "capture/attach-kind.h"
#include "capture/attach-spec.h"
#include "capture/kernel-features.h"
#include "capture/kprobe-multi.h"
#include "symbols/ksyms.h"

/*
 * Whether the kernel has no kprobes to fall back on: neither the kprobe PMU libbpf attaches
 * through nor tracefs's kprobe_events, its legacy way (the development host has neither).
 */
static bool kprobes_missing(void)
{
	static const char *const paths[] = {
		"/sys/bus/event_source/devices/kprobe/type",
		"/sys/kernel/tracing/kprobe_events",
		"/sys/kernel/debug/tracing/kprobe_events",
	};
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (!access(paths[i], F_OK))
			return false;
	}
	return true;
}

bool kprobe_multi__single(char *why, size_t why_len)
{
	char how[128];
	int ret = kernel_feature__probe(KFEAT_KPROBE_MULTI, how, sizeof(how));

	/*
	 * Tried, not looked up: 5.18-6.4 have kprobe-multi links without the fprobe events
	 * whose symbols a lookup would find. A refusal of the link itself (524: the kernel's
	 * ENOTSUPP) means one kprobe per function; another failure is left to the real attach,
	 * whose error then names it.
	 */
	if (!ret) {
		snprintf(why, why_len, "kprobe-multi links: a test link %s", how);
		return false;
	}
	if ((ret == -EOPNOTSUPP || ret == -EINVAL || ret == -524) && !kprobes_missing()) {
		snprintf(why, why_len, "one kprobe per function: the kernel refused a test "
			 "kprobe-multi link (%s)", how);
		return true;
	}
	if (ret == -EOPNOTSUPP || ret == -EINVAL || ret == -524) {
		snprintf(why, why_len, "the kernel refused a test kprobe-multi link (%s) and has "
			 "no kprobes either", how);
		return false;
	}
	snprintf(why, why_len, "kprobe-multi links: a test link failed (%s), which is no "
		 "refusal of the link type", how);
	return false;
}

/*
 * Byte offset of member path[0].path[1]... in struct or union id, anonymous members searched
 * through as the compiler does; -1 if absent.
 */
static int member_off(const struct btf *btf, int id, const char *const *path)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int off;
	__u32 i;

	if (!t || !btf_is_composite(t))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		int sub = btf__resolve_type(btf, m->type);

		if (sub < 0)
			continue;
		if (name && *name) {
			if (strcmp(name, path[0]))
				continue;
			off = path[1] ? member_off(btf, sub, path + 1) : 0;
		} else {
			off = member_off(btf, sub, path);
		}
		if (off >= 0)
			return btf_member_bit_offset(t, i) / 8 + off;
	}
	return -1;
}

/* A counter's offset, 0 if absent: no counter lives at offset 0, the link's type does */
static __u32 counter_off(const struct btf *btf, int id, const char *const *path)
{
	int off = member_off(btf, id, path);

	return off > 0 ? off : 0;
}

void kprobe_multi__missed_at(const struct btf *btf, struct kprobe_missed_at *at)
{
	static const char *const multi[] = { "kprobe_multi", "missed", NULL };
	static const char *const perf[] = { "perf_event", "kprobe", "missed", NULL };
	static const char *const perf_type[] = { "perf_event", "type", NULL };
	int id = btf ? btf__find_by_name_kind(btf, "bpf_link_info", BTF_KIND_STRUCT) : -1;

	memset(at, 0, sizeof(*at));
	if (id < 0)
		return;
	at->multi = counter_off(btf, id, multi);
	at->perf = counter_off(btf, id, perf);
	at->perf_type = counter_off(btf, id, perf_type);
}

/* UAPI numbers, stable: enum bpf_link_type, enum bpf_perf_event_type */
#define LINK_TYPE_PERF_EVENT	7
#define LINK_TYPE_KPROBE_MULTI	8
#define PERF_EVENT_KPROBE	3
#define PERF_EVENT_KRETPROBE	4

int kprobe_multi__missed(const struct kprobe_missed_at *at, struct bpf_link *link,
			 __u64 *missed)
{
	/* zeroed past the kernel's struct: the tail it checks is zero, no name asked for */
	__u64 info[64] = {};
	__u32 len = sizeof(info), type, off, ptype;
	const __u8 *p = (const __u8 *)info;
	int fd = link ? bpf_link__fd(link) : -1;

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, info, &len) || len < 4)
		return -EOPNOTSUPP;
	memcpy(&type, p, sizeof(type));
	if (type == LINK_TYPE_KPROBE_MULTI) {
		off = at->multi;
	} else if (type == LINK_TYPE_PERF_EVENT && at->perf && at->perf_type + 4 <= len) {
		memcpy(&ptype, p + at->perf_type, sizeof(ptype));
		off = ptype == PERF_EVENT_KPROBE || ptype == PERF_EVENT_KRETPROBE ? at->perf : 0;
	} else {
		off = 0;
	}
	/* the size check: a kernel whose struct ends before the field did not fill it */
	if (!off || off + sizeof(*missed) > len)
		return -EOPNOTSUPP;
	memcpy(missed, p + off, sizeof(*missed));
	return 0;
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
 * do_int3, EINVAL): a function a glob matched is then left out and counted in *refused, a
 * named one is an error. skip: functions left out already (a name kallsyms holds twice).
 */
static int attach_single(struct bpf_program *prog, const char *spec,
			 const struct attach_target *t, size_t nr, __u32 first_func,
			 const bool *skip, struct bpf_link **links,
			 struct kprobe_refused *refused, char *err, size_t err_len)
{
	bool glob = strpbrk(spec, "*?[");
	size_t i;
	int ret;

	for (i = 0; i < nr; i++) {
		LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = first_func + i,
			    .retprobe = lbr_kind__is_return(t[i].kind));

		if (skip[i])
			continue;
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

/* A target's text symbols in kallsyms: n[0] of the kernel itself, n[1] of modules */
struct sym_count {
	const char *name;
	size_t idx;		/* in the targets */
	unsigned int n[2];
	unsigned long long addr[2][2];
};

static int sym_count__cmp(const void *a, const void *b)
{
	return strcmp(((const struct sym_count *)a)->name, ((const struct sym_count *)b)->name);
}

/*
 * The kernel resolves a name to the first instance it finds, the kernel's own before a
 * module's: a name is ambiguous when the kernel has two, or no module-free one and modules
 * have two. Returns the instances of each target in *out (sorted by name), or -errno.
 * kallsyms is start-up's one copy (ksyms__live_text), shared by every glob and spec.
 */
static int count_syms(const struct attach_target *t, size_t nr, struct sym_count **out)
{
	struct sym_count *sc, key = {}, *hit;
	const char *text, *line, *end, *next;
	char name[512];
	size_t i, len;
	int ret;

	ret = ksyms__live_text(&text, &len);
	if (ret)
		return ret;
	sc = calloc(nr, sizeof(*sc));
	if (!sc)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		sc[i].name = t[i].name;
		sc[i].idx = i;
	}
	qsort(sc, nr, sizeof(*sc), sym_count__cmp);
	end = text + len;
	for (line = text; line < end; line = next) {
		const char *eol = memchr(line, '\n', end - line) ?: end;
		unsigned long long addr;
		char *p;
		size_t n;
		int mod;

		next = eol + 1;
		/* "ADDR TYPE NAME[\t[MODULE]]": functions only */
		addr = strtoull(line, &p, 16);
		if (p + 3 > eol || p[0] != ' ' || (p[1] != 't' && p[1] != 'T') || p[2] != ' ')
			continue;
		p += 3;
		n = strcspn(p, "\t\n");
		if (p + n > eol || n >= sizeof(name))
			continue;
		mod = p[n] == '\t';
		memcpy(name, p, n);
		name[n] = 0;
		key.name = name;
		hit = bsearch(&key, sc, nr, sizeof(*sc), sym_count__cmp);
		if (!hit)
			continue;
		/* a target named twice in one spec: every entry of that name counts */
		while (hit > sc && !strcmp(hit[-1].name, name))
			hit--;
		for (; hit < sc + nr && !strcmp(hit->name, name); hit++) {
			/* an alias at the same address is the same function */
			if (hit->n[mod] && hit->addr[mod][0] == addr)
				continue;
			if (hit->n[mod] < 2)
				hit->addr[mod][hit->n[mod]] = addr;
			hit->n[mod]++;
		}
	}
	*out = sc;
	return 0;
}

static bool sym_count__ambiguous(const struct sym_count *sc, int *which)
{
	*which = sc->n[0] ? 0 : 1;
	return sc->n[*which] > 1;
}

/*
 * Leaves out (skip[i]) the targets whose name kallsyms holds twice: BTF types one of them
 * and the kernel would probe the one it finds first. A glob's are counted in refused, a
 * named one is an error naming both addresses.
 */
static int skip_ambiguous(const char *spec, const struct attach_target *t, size_t nr,
			  bool *skip, size_t *left, struct kprobe_refused *refused, char *err,
			  size_t err_len)
{
	bool glob = strpbrk(spec, "*?[");
	struct sym_count *sc = NULL;
	size_t i;
	int ret, w;

	*left = nr;
	ret = count_syms(t, nr, &sc);
	/* no kallsyms to read: the kernel's own errors are all there is */
	if (ret)
		return 0;
	for (i = 0; i < nr; i++) {
		char what[128];

		if (!sym_count__ambiguous(&sc[i], &w))
			continue;
		snprintf(what, sizeof(what), "%s (0x%llx, 0x%llx%s)", sc[i].name,
			 sc[i].addr[w][0], sc[i].addr[w][1], sc[i].n[w] > 2 ? ", ..." : "");
		if (!glob) {
			snprintf(err, err_len, "cannot attach %s: kallsyms holds %u functions "
				 "named %s: the kernel would probe the first one, which need not "
				 "be the one its BTF types; refused", spec, sc[i].n[w], what);
			ret = -ENOTUNIQ;
			break;
		}
		if (!refused->nr_dup++)
			snprintf(refused->dup_example, sizeof(refused->dup_example), "%s", what);
		skip[sc[i].idx] = true;
		(*left)--;
	}
	free(sc);
	if (!ret && !*left) {
		snprintf(err, err_len, "cannot attach %s: kallsyms holds each of its functions "
			 "twice or more", spec);
		ret = -ENOTUNIQ;
	}
	return ret;
}

static int attach_multi(struct bpf_program *prog, const char *spec,
			const struct attach_target *t, size_t nr, __u32 first_func, bool single,
			struct bpf_link **links, struct kprobe_refused *refused,
			char *err, size_t err_len)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts);
	const char **syms = NULL;
	__u64 *cookies = NULL;
	bool *skip = NULL;
	size_t i, n, left;
	int ret = 0;

	memset(links, 0, nr * sizeof(*links));
	syms = calloc(nr, sizeof(*syms));
	cookies = calloc(nr, sizeof(*cookies));
	skip = calloc(nr, sizeof(*skip));
	if (!syms || !cookies || !skip) {
		ret = -ENOMEM;
		goto cleanup;
	}
	ret = skip_ambiguous(spec, t, nr, skip, &left, refused, err, err_len);
	if (ret)
		goto cleanup;
	if (single) {
		ret = attach_single(prog, spec, t, nr, first_func, skip, links, refused, err,
				    err_len);
		goto cleanup;
	}
	for (i = n = 0; i < nr; i++) {
		if (skip[i])
			continue;
		syms[n] = t[i].name;
		cookies[n++] = first_func + i;
	}
	opts.syms = syms;
	opts.cookies = cookies;
	opts.cnt = n;
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
	free(skip);
	return ret;
}

int kprobe_multi__attach(const struct attach_req *req, char *err, size_t err_len)
{
	return attach_multi(req->prog, req->spec, req->t, req->nr, req->first_func,
			    req->kprobe_single, req->links, req->refused, err, err_len);
}
