// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel functions of a --calls scope (API in call-funcs.h): BTF FUNCs that every
 * mechanism of call-mech.c can attach to, so the same SPEC traces the same functions on every
 * kernel, whichever mechanism it picks.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "capture/btf-types.h"
#include "capture/call-funcs.h"
#include "util/tracefs-util.h"

/*
 * Functions the tracing runs itself (a probe on them recurses or is refused: retsnoop's set,
 * call-traces.md 2 and 8) and noreturn functions, whose exit never comes (fexit refuses them).
 */
static const char *const denied[] = {
	"migrate_*", "___migrate_enable", "rcu_read_*lock*", "__bpf_prog_enter*",
	"__bpf_prog_exit*", "preempt_count_*", "do_exit", "do_group_exit", "make_task_dead",
	"kthread_complete_and_exit", "__module_put_and_kthread_exit", "__x64_sys_exit",
	"__x64_sys_exit_group", "__ia32_sys_exit", "__ia32_sys_exit_group",
};

/* A trampoline before 6.6 passes 6 register arguments: the bound every mechanism takes */
#define CALL_MAX_ARGS	6

/* available_filter_functions, sorted; a name listed twice is ambiguous */
struct ftrace_names {
	char **v;
	size_t nr;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ftrace_names__load(struct ftrace_names *fn)
{
	size_t cap = 0, len = 0;
	char *line = NULL, **nv;
	FILE *fp;
	int ret = 0;

	fp = tracefs_util__fopen("available_filter_functions");
	if (!fp)
		return -errno ?: -ENOENT;
	while (getline(&line, &len, fp) > 0) {
		line[strcspn(line, " \t\n")] = 0;
		if (!*line)
			continue;
		if (fn->nr == cap) {
			cap = cap ? cap * 2 : 65536;
			nv = realloc(fn->v, cap * sizeof(*nv));
			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			fn->v = nv;
		}
		fn->v[fn->nr] = strdup(line);
		if (!fn->v[fn->nr]) {
			ret = -ENOMEM;
			break;
		}
		fn->nr++;
	}
	free(line);
	fclose(fp);
	qsort(fn->v, fn->nr, sizeof(*fn->v), cmp_str);
	return ret;
}

/* How many times ftrace lists name */
static unsigned int ftrace_names__count(const struct ftrace_names *fn, const char *name)
{
	size_t lo = 0, hi = fn->nr;
	unsigned int n = 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(fn->v[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + n < fn->nr && !strcmp(fn->v[lo + n], name))
		n++;
	return n;
}

static void ftrace_names__free(struct ftrace_names *fn)
{
	size_t i;

	for (i = 0; i < fn->nr; i++)
		free(fn->v[i]);
	free(fn->v);
}

static const struct btf_type *skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

/* Why a trampoline cannot take FUNC t (libbpf's traceable rules), or NULL */
static const char *untraceable(const struct btf *btf, const struct btf_type *t)
{
	const struct btf_type *proto = btf__type_by_id(btf, t->type), *r;
	const struct btf_param *p;
	__s64 size;
	int i, n;

	if (!proto || !btf_is_func_proto(proto))
		return "no prototype in BTF";
	n = btf_vlen(proto);
	if (n > CALL_MAX_ARGS)
		return "more than 6 arguments";
	r = proto->type ? skip_mods(btf, proto->type) : NULL;
	if (r && btf_is_composite(r))
		return "returns a struct";
	for (i = 0, p = btf_params(proto); i < n; i++, p++) {
		if (!p->type)
			return "variadic";
		size = btf__resolve_size(btf, p->type);
		if (size < 1 || size > 16)
			return "an argument of over 16 bytes";
	}
	return NULL;
}

/*
 * BTF's FUNCs by name, sorted once: a SPEC's every name and every function a glob matches is
 * looked up here (a walk of BTF's 100,000+ types each made 500 functions take half a minute)
 */
struct btf_funcs {
	struct btf_func {
		const char *name;
		__u32 id;
	} *v;
	size_t nr;
};

static int cmp_func(const void *a, const void *b)
{
	const struct btf_func *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

static int btf_funcs__build(struct btf_funcs *bf, const struct btf *btf)
{
	__u32 id, cnt = btf__type_cnt(btf);

	bf->v = calloc(cnt, sizeof(*bf->v));
	if (!bf->v)
		return -ENOMEM;
	for (id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_func(t))
			bf->v[bf->nr++] = (struct btf_func){
				btf__name_by_offset(btf, t->name_off) ?: "", id };
	}
	qsort(bf->v, bf->nr, sizeof(*bf->v), cmp_func);
	return 0;
}

/* The lowest FUNC id of that name (as btf__find_by_name_kind gives it), 0 if none; how many */
static __u32 btf_funcs__find(const struct btf_funcs *bf, const char *name, unsigned int *n)
{
	size_t lo = 0, hi = bf->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(bf->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (*n = 0; lo + *n < bf->nr && !strcmp(bf->v[lo + *n].name, name); (*n)++)
		;
	return *n ? bf->v[lo].id : 0;
}

/* Why name cannot be traced, or NULL */
static const char *refusal(const struct btf *btf, const struct btf_type *t, const char *name,
			   const struct ftrace_names *fn, const struct btf_funcs *bf)
{
	unsigned int n;
	size_t i;

	for (i = 0; i < sizeof(denied) / sizeof(denied[0]); i++) {
		if (!fnmatch(denied[i], name, 0))
			return "denied: the tracing runs it, or it never returns";
	}
	n = ftrace_names__count(fn, name);
	if (!n)
		return "not in available_filter_functions (notrace, or inlined everywhere)";
	if (n > 1)
		return "listed twice in available_filter_functions (which one is ambiguous)";
	/* 6.1: may_create of fs/namei.c and of SELinux; the kernel attaches by name */
	btf_funcs__find(bf, name, &n);
	if (n > 1)
		return "two functions of that name (which one runs is ambiguous)";
	return untraceable(btf, t);
}

static void note_refused(struct call_funcs *cf, const char *name, const char *why)
{
	size_t len = strlen(cf->refused), n = strlen(name);
	const char *p;

	/* a name BTF holds twice is matched twice: noted once */
	for (p = strstr(cf->refused, name); p; p = strstr(p + 1, name)) {
		if ((p == cf->refused || p[-1] == ' ') && !strncmp(p + n, " (", 2))
			return;
	}

	if (!cf->nr_refused++ || len + 1 < sizeof(cf->refused))
		snprintf(cf->refused + len, sizeof(cf->refused) - len, "%s%s (%s)",
			 len ? ", " : "", name, why);
}

static void type_func(const struct btf *btf, __u32 id, struct lbrsnap_call_func *cfn)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_type *proto = t ? btf__type_by_id(btf, t->type) : NULL;
	__u8 size = 0;

	memset(cfn, 0, sizeof(*cfn));
	if (!proto || !btf_is_func_proto(proto) || !proto->type)
		return;
	cfn->ret_kind = btf_types__value(btf, proto->type, false, &size);
	if (cfn->ret_kind && size && size <= 8)
		cfn->ret_shift = 64 - 8 * size;
	else
		cfn->ret_kind = 0;
}

struct match_ctx {
	const struct btf *btf;
	const struct ftrace_names *fn;
	const struct btf_funcs *bf;
	const char *spec;
};

/* Every FUNC glob matches, refused ones noted; the count of matches (refused included) */
static long match_glob(struct call_funcs *cf, const struct match_ctx *mc, const char *glob,
		       int *err)
{
	const struct btf *btf = mc->btf;
	__u32 id, cnt = btf__type_cnt(btf);
	const char *name, *why;
	long found = 0;

	*err = 0;
	for (id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || fnmatch(glob, name, 0))
			continue;
		found++;
		why = refusal(btf, t, name, mc->fn, mc->bf);
		if (why) {
			note_refused(cf, name, why);
			continue;
		}
		*err = call_funcs__add(cf, name, id);
		if (*err)
			return -1;
	}
	return found;
}

static int add_named(struct call_funcs *cf, const struct match_ctx *mc, const char *name,
		     char *err, size_t err_len)
{
	const char *spec = mc->spec, *why;
	unsigned int n;
	__u32 id = btf_funcs__find(mc->bf, name, &n);

	if (!id) {
		snprintf(err, err_len, "--calls '%s': the kernel has no function %s (not in its "
			 "BTF)", spec, name);
		return -EBADMSG;
	}
	why = refusal(mc->btf, btf__type_by_id(mc->btf, id), name, mc->fn, mc->bf);
	if (why) {
		snprintf(err, err_len, "--calls '%s': cannot trace %s: %s", spec, name, why);
		return -EBADMSG;
	}
	return call_funcs__add(cf, name, id);
}

/* A name is one function, refused with the reason; a glob leaves refused ones out */
static long match_pattern(struct call_funcs *cf, const char *pattern, void *ctx, char *err,
			  size_t err_len)
{
	struct match_ctx *mc = ctx;
	long found;
	int ret;

	if (!strpbrk(pattern, "*?[")) {
		ret = add_named(cf, mc, pattern, err, err_len);
		if (ret == -E2BIG)
			snprintf(err, err_len, "--calls '%s': too many functions (over %d)",
				 mc->spec, LBRSNAP_MAX_FUNCS);
		return ret ? ret : 1;
	}
	found = match_glob(cf, mc, pattern, &ret);
	return found < 0 ? ret : found;
}

int call_funcs__resolve_kernel(struct call_funcs *cf, const struct btf *btf, const char *scope,
			       const char *spec, char *err, size_t err_len)
{
	struct ftrace_names fn = {};
	struct btf_funcs bf = {};
	struct match_ctx mc;
	size_t i;
	int ret, id;

	memset(cf, 0, sizeof(*cf));
	id = scope ? btf__find_by_name_kind(btf, scope, BTF_KIND_FUNC) : 0;
	ret = call_funcs__add(cf, scope ?: "syscall", id > 0 ? id : 0);
	if (ret)
		return ret;
	ret = ftrace_names__load(&fn);
	if (ret) {
		snprintf(err, err_len, "--calls '%s': cannot read available_filter_functions, the "
			 "functions ftrace can hook: %s", spec, strerror(-ret));
		goto out;
	}
	ret = btf_funcs__build(&bf, btf);
	if (ret)
		goto out;
	mc = (struct match_ctx){ .btf = btf, .fn = &fn, .bf = &bf, .spec = spec };
	ret = call_funcs__add_spec(cf, spec, "kernel function", "traceable function",
				   match_pattern, &mc, err, err_len);
	if (ret)
		goto out;
	for (i = 0; i < cf->nr; i++)
		type_func(btf, cf->addrs[i], &cf->types[i]);
	/* a syscall returns long */
	if (!scope)
		cf->types[0] = (struct lbrsnap_call_func){ .ret_kind = LBRSNAP_RET_SIGNED };
out:
	free(bf.v);
	ftrace_names__free(&fn);
	if (ret)
		call_funcs__free(cf);
	return ret;
}
