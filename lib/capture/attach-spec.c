// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Resolving attach point specs against the kernel's BTF.
 *
 * A glob only expands to targets that can be attached, so "fexit:tcp_*" does not fail on the
 * first inlined or notrace function it meets; a plain name that cannot be attached is an
 * error that says why.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <bpf/btf.h>
#include "capture/attach-kind.h"
#include "capture/attach-spec.h"
#include "capture/btf-types.h"
#include "util/edit-distance.h"
#include "symbols/ksyms.h"
#include "capture/mem-spec.h"
#include "util/tracefs-util.h"
#include "capture/dwarf-types.h"
#include "capture/uprobe-spec.h"
#include "capture/usdt-notes.h"
#include "util/print.h"

#define BTF_TRACE_PREFIX "btf_trace_"
/* x86-64 trampolines pass at most 6 register arguments on 6.1 */
#define MAX_FEXIT_ARGS 6

struct name_set {
	char **v;
	size_t nr;
};

/* /proc/kallsyms as read: watchpoints look variables up in it, which ksyms does not keep */
struct kallsyms_text {
	const char *text;
	size_t len;
};

/* Kinds whose names are kernel functions (BTF FUNCs); the others here name tracepoints */
static bool is_func_kind(enum lbrsnap_kind kind)
{
	return lbr_kind__is(kind, LBR_KIND_KFUNC);
}

int attach_spec__parse(const char *spec, enum lbrsnap_kind *kind, const char **name)
{
	const char *colon = strchr(spec, ':');

	if (!colon || !colon[1])
		return -EINVAL;
	*kind = lbr_kind__by_prefix(spec, colon - spec);
	if (!*kind)
		return -EINVAL;
	*name = colon + 1;
	return 0;
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Appends ", a, b, c" with the up to three closest candidate names. */
static void suggest(char *buf, size_t len, const char *name, const struct btf *btf,
		    enum lbrsnap_kind kind)
{
	size_t limit = strlen(name) / 3 + 2, used;
	__u32 id, n = btf__type_cnt(btf);
	struct closest_names best;
	int i;

	closest_names__init(&best);
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *cand = btf__name_by_offset(btf, t->name_off);
		size_t d;

		if (is_func_kind(kind)) {
			if (!btf_is_func(t))
				continue;
		} else {
			if (!btf_is_typedef(t) || strncmp(cand, BTF_TRACE_PREFIX, 10))
				continue;
			cand += 10;
		}
		d = edit_distance(name, cand);
		if (d <= limit)
			closest_names__add(&best, cand, d);
	}
	if (!best.name[0])
		return;
	used = strlen(buf);
	snprintf(buf + used, len - used, "; did you mean");
	for (i = 0; i < 3 && best.name[i]; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s %s:%s", i ? "," : "", lbr_kind__name(kind),
			 best.name[i]);
	}
	used = strlen(buf);
	snprintf(buf + used, len - used, "?");
}

static const char *trace_obstacle(const char *name, const struct ksyms *ks,
				  const struct name_set *traceable);

/*
 * The kernel's __noreturn functions a program could name (BTF does not mark them): the
 * verifier's noreturn_deny set of 6.4+. An fexit on them would never run.
 */
static bool never_returns(const char *name)
{
	static const char *const noreturn[] = {
		"__ia32_sys_exit", "__ia32_sys_exit_group", "__x64_sys_exit",
		"__x64_sys_exit_group", "do_exit", "do_group_exit", "kthread_complete_and_exit",
		"kthread_exit", "make_task_dead", "__module_put_and_kthread_exit",
	};
	size_t i;

	for (i = 0; i < sizeof(noreturn) / sizeof(noreturn[0]); i++) {
		if (!strcmp(name, noreturn[i]))
			return true;
	}
	return false;
}

/* Why a BTF function cannot take an fexit program, or NULL if it can. */
static const char *fexit_obstacle(const struct btf *btf, const struct btf_type *func,
				  const struct ksyms *ks, const struct name_set *traceable)
{
	const struct btf_type *proto = btf__type_by_id(btf, func->type);
	const char *name = btf__name_by_offset(btf, func->name_off);
	const struct btf_param *p;
	int i;

	if (!proto || !btf_is_func_proto(proto))
		return "its BTF has no prototype";
	if (never_returns(name))
		return "it never returns (__noreturn: no fexit, the kernel refuses it from 6.4)";
	if (btf_vlen(proto) > MAX_FEXIT_ARGS)
		return "it takes more than 6 arguments (the trampoline limit)";
	if (proto->type) {
		const struct btf_type *r = btf__type_by_id(btf, proto->type);

		while (r && (btf_is_typedef(r) || btf_is_mod(r)))
			r = btf__type_by_id(btf, r->type);
		/* 6.1 trampolines cannot return aggregates ("return type UNION is unsupported") */
		if (r && (btf_is_struct(r) || btf_is_union(r)))
			return "it returns a struct or union by value";
	}
	p = btf_params(proto);
	for (i = 0; i < btf_vlen(proto); i++) {
		const struct btf_type *t = btf__type_by_id(btf, p[i].type);

		while (t && (btf_is_typedef(t) || btf_is_mod(t)))
			t = btf__type_by_id(btf, t->type);
		if (t && (btf_is_struct(t) || btf_is_union(t)))
			return "it takes a struct by value";
	}
	return trace_obstacle(name, ks, traceable);
}

/*
 * Why ftrace cannot hook function name (a trampoline, or the fprobe behind a kprobe-multi
 * link), or NULL if it can.
 */
static const char *trace_obstacle(const char *name, const struct ksyms *ks,
				  const struct name_set *traceable)
{
	if (traceable->nr) {
		size_t lo = 0, hi = traceable->nr;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			int c = strcmp(traceable->v[mid], name);

			if (!c)
				return NULL;
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		return "it is not in available_filter_functions (notrace, or inlined everywhere)";
	}
	if (ks && !ksyms__by_name(ks, name))
		return "it has no symbol in kallsyms (inlined everywhere)";
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * available_filter_functions lists what ftrace (and so a trampoline) can attach to. It is
 * unreadable on some kernels (locked function tracer): then kallsyms presence is the test.
 */
static void load_traceable(struct name_set *set)
{
	size_t cap = 0, len = 0;
	char *line = NULL;
	FILE *fp;

	fp = tracefs_util__fopen("available_filter_functions");
	if (!fp)
		return;
	while (getline(&line, &len, fp) > 0) {
		char *end = line + strcspn(line, " \t\n");
		char **nv;

		*end = 0;
		if (!*line)
			continue;
		if (set->nr == cap) {
			cap = cap ? cap * 2 : 65536;
			nv = realloc(set->v, cap * sizeof(*nv));
			if (!nv)
				break;
			set->v = nv;
		}
		set->v[set->nr] = strdup(line);
		if (!set->v[set->nr])
			break;
		set->nr++;
	}
	free(line);
	fclose(fp);
	qsort(set->v, set->nr, sizeof(*set->v), cmp_str);
}

static void name_set__free(struct name_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		free(set->v[i]);
	free(set->v);
}

static void type_return(const struct btf *btf, __u32 type_id, struct attach_target *t)
{
	t->ret_kind = btf_types__value(btf, type_id, false, &t->ret_size);
	if (t->ret_kind)
		t->ret_type = btf_types__name(btf, type_id);
}

/* Appends a target named kind:name; *out is NULL when the set has it already. */
static int target_new(struct attach_set *set, enum lbrsnap_kind kind, const char *name,
		      struct attach_target **out)
{
	struct attach_target *t, *nv;
	size_t i;

	*out = NULL;
	for (i = 0; i < set->nr; i++) {
		if (set->v[i].kind == kind && !strcmp(set->v[i].name, name))
			return 0;	/* named twice (or by two globs): attach once */
	}
	nv = realloc(set->v, (set->nr + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	set->v = nv;
	t = &set->v[set->nr];
	memset(t, 0, sizeof(*t));
	if (asprintf(&t->spec, "%s:%s", lbr_kind__name(kind), name) < 0) {
		t->spec = NULL;
		return -ENOMEM;
	}
	t->name = strdup(name);
	if (!t->name) {
		free(t->spec);
		return -ENOMEM;
	}
	t->kind = kind;
	set->nr++;
	*out = t;
	return 0;
}

static int arg_set(struct attach_arg *a, const char *name, const char *type, __u8 kind,
		   __u8 size)
{
	a->name = strdup(name);
	a->type = strdup(type);
	a->enums = strdup("");
	a->kind = kind;
	a->size = size;
	return a->name && a->type && a->enums ? 0 : -ENOMEM;
}

/*
 * A watchpoint: its records carry the address and, for data, the value there after the
 * access (the value a write left), typed as an unsigned integer of the watched length.
 */
static int add_mem_target(struct attach_set *set, const char *text,
			  const struct kallsyms_text *kt, bool with_args, char *err, size_t err_len)
{
	static const char *const utype[9] = { [1] = "u8", [2] = "u16", [4] = "u32", [8] = "u64" };
	struct attach_target *t;
	struct mem_spec m;
	char name[192];
	int ret;

	ret = mem_spec__parse(text, kt->text, kt->len, &m, err, err_len);
	if (ret)
		return ret;
	/* the canonical name says all the breakpoint is: two specs of it attach once */
	snprintf(name, sizeof(name), "%s/%u:%s", m.name, m.len, mem_spec__access_name(m.access));
	ret = target_new(set, LBRSNAP_KIND_MEM, name, &t);
	if (ret || !t)
		return ret;
	/* records name the variable or address; the spec says the rest */
	free(t->name);
	t->name = strdup(m.name);
	if (!t->name)
		return -ENOMEM;
	t->mem_addr = m.addr;
	t->mem_len = m.len;
	t->mem_access = m.access;
	t->mem_user = m.user;
	if (!with_args)
		return 0;
	t->nr_args = 1;
	ret = arg_set(&t->args[0], "addr", "void *", LBRSNAP_RET_POINTER, 8);
	if (!ret && m.access != HW_BREAKPOINT_X) {
		t->nr_args++;
		ret = arg_set(&t->args[1], "value", utype[m.len], LBRSNAP_RET_UNSIGNED, m.len);
	}
	/* a data breakpoint traps after the access: ip is the instruction after it */
	if (!ret) {
		t->nr_args++;
		ret = arg_set(&t->args[t->nr_args - 1], "ip", "void *", LBRSNAP_RET_POINTER, 8);
	}
	return ret;
}

/*
 * A user function's return value and arguments, typed from its DWARF. Without DWARF (or
 * without the function in it) the return value is a plain 64-bit register, its type
 * unknown (ret_type ""), and there are no arguments; nor are there at an offset into the
 * function, where the argument registers may hold anything.
 */
static int type_user_func(struct attach_target *t, bool with_args)
{
	struct dwarf_func f;
	__u32 i;
	int ret;

	ret = dwarf_types__func(t->upath, t->ufunc, t->uaddr, &f);
	if (ret == -ENOMEM)
		return ret;
	if (lbr_kind__is_return(t->kind)) {
		t->has_ret = ret || f.has_ret;
		t->ret_kind = ret ? LBRSNAP_RET_UNSIGNED : f.ret.kind;
		t->ret_size = ret ? 8 : f.ret.size;
		if (t->has_ret) {
			t->ret_type = strdup(ret ? "" : f.ret.type);
			if (!t->ret_type)
				ret = -ENOMEM;
		}
	}
	for (i = 0; !ret && with_args && lbr_kind__is(t->kind, LBR_KIND_ARGS) && !t->uoff &&
	     i < f.nr_args; i++) {
		t->args[i] = (struct attach_arg) {
			.name = f.args[i].name, .type = f.args[i].type, .enums = f.args[i].enums,
			.kind = f.args[i].kind, .size = f.args[i].size,
		};
		/* owned by the target now */
		memset(&f.args[i], 0, sizeof(f.args[i]));
		t->nr_args++;
		/* the program reads them from rsi on */
		t->ret_in_memory = f.ret_in_memory;
	}
	dwarf_func__free(&f);
	return ret == -ENOMEM ? ret : 0;
}

/* A USDT probe's arguments as its SDT note types them: arg0..argN */
static int type_usdt(struct attach_target *t, const struct usdt_probe *p, bool with_args)
{
	static const char *const stype[9] = {
		[1] = "int8_t", [2] = "int16_t", [4] = "int32_t", [8] = "int64_t" };
	static const char *const utype[9] = {
		[1] = "uint8_t", [2] = "uint16_t", [4] = "uint32_t", [8] = "uint64_t" };
	char name[8];
	__u32 i;
	int ret;

	for (i = 0; with_args && i < p->nr_args && i < LBRSNAP_MAX_ARGS; i++) {
		const struct usdt_arg *a = &p->args[i];

		snprintf(name, sizeof(name), "arg%u", i);
		ret = arg_set(&t->args[i], name, a->is_signed ? stype[a->size] : utype[a->size],
			      a->is_signed ? LBRSNAP_RET_SIGNED : LBRSNAP_RET_UNSIGNED, a->size);
		t->nr_args++;
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * uprobe:PATH:FUNC[+OFF], uretprobe:PATH:FUNC, usdt:PATH:PROVIDER:NAME. The canonical
 * spec names the file by its real path; records name the function, or provider:name.
 */
static int add_user_target(struct attach_set *set, enum lbrsnap_kind kind, const char *spec,
			   const char *text, bool with_args, char *err, size_t err_len)
{
	struct attach_target *t = NULL;
	struct uprobe_spec u;
	struct usdt_probe p;
	bool sdt = lbr_kind__is(kind, LBR_KIND_SDT);
	char msg[384], *canon = NULL;
	size_t i;
	int ret;

	ret = uprobe_spec__parse(text, sdt, lbr_kind__is_return(kind),
				 &u, msg, sizeof(msg));
	if (!ret && sdt)
		ret = usdt_notes__find(u.path, u.provider, u.name, &p, msg, sizeof(msg));
	if (ret) {
		uprobe_spec__free(&u);
		if (ret == -ENOMEM)
			return ret;
		/* a usage error, found before anything is loaded: exit status 2 */
		snprintf(err, err_len, "bad event '%s': %s", spec, msg);
		return -EBADMSG;
	}
	if (sdt)
		ret = asprintf(&canon, "%s:%s:%s", u.path, u.provider, u.name);
	else if (u.off)
		ret = asprintf(&canon, "%s:%s+%#llx", u.path, u.func, (unsigned long long)u.off);
	else
		ret = asprintf(&canon, "%s:%s", u.path, u.func);
	ret = ret < 0 ? -ENOMEM : 0;
	for (i = 0; !ret && i < set->nr; i++) {
		if (set->v[i].kind == kind && set->v[i].upath &&
		    !strcmp(set->v[i].spec + strlen(lbr_kind__name(kind)) + 1, canon))
			goto cleanup;	/* named twice: attach once */
	}
	if (!ret)
		ret = target_new(set, kind, canon, &t);
	if (ret || !t)
		goto cleanup;
	free(t->name);
	if (sdt)
		ret = asprintf(&t->name, "%s:%s", u.provider, u.name) < 0 ? -ENOMEM : 0;
	else
		t->name = strdup(u.func);
	if (ret || !t->name) {
		t->name = NULL;
		ret = -ENOMEM;
		goto cleanup;
	}
	t->upath = u.path;
	t->ufunc = u.func;
	t->uoff = u.off;
	t->uaddr = u.addr;
	t->usdt_provider = u.provider;
	t->usdt_name = u.name;
	memset(&u, 0, sizeof(u));
	if (sdt)
		ret = type_usdt(t, &p, with_args);
	else
		ret = type_user_func(t, with_args);
cleanup:
	free(canon);
	uprobe_spec__free(&u);
	return ret;
}

static int add_target(struct attach_set *set, enum lbrsnap_kind kind, const char *name,
		      const struct btf *btf, const struct btf_type *func, bool with_args)
{
	enum btf_args_from from = attach_kind__get(kind)->args_from;
	struct attach_target *t;
	size_t i;
	int ret;

	ret = target_new(set, kind, name, &t);
	if (ret || !t)
		return ret;
	if (is_func_kind(kind)) {
		const struct btf_type *proto = btf__type_by_id(btf, func->type);

		/* a kretprobe sees the return value only, a kprobe the arguments only */
		if (proto && btf_is_func_proto(proto)) {
			if (proto->type && lbr_kind__is_return(kind))
				type_return(btf, proto->type, t);
			if (with_args && lbr_kind__is(kind, LBR_KIND_ARGS) &&
			    btf_types__args(btf, proto, 0, from, t->args, &t->nr_args))
				return -ENOMEM;
			/* btf_types__args() recorded none: the registers are shifted */
			if (with_args && from == BTF_ARGS_REGS &&
			    lbr_kind__is(kind, LBR_KIND_ARGS) &&
			    btf_types__ret_in_memory(btf, proto))
				pr_info("%s: returns a struct in memory, whose address takes the "
					"first argument register: its arguments are not recorded\n",
					t->spec);
		}
	} else if (!strcmp(name, "sys_exit") || !strcmp(name, "sys_enter")) {
		/* sys_enter(struct pt_regs *regs, long id), sys_exit(struct pt_regs *regs, long ret) */
		t->sys = name[5] == 'x' ? LBRSNAP_AP_SYS_EXIT : LBRSNAP_AP_SYS_ENTER;
		if (t->sys == LBRSNAP_AP_SYS_EXIT) {
			t->ret_is_arg1 = true;
			t->ret_kind = LBRSNAP_RET_SIGNED;
			t->ret_size = 8;
			t->ret_type = strdup("long");
		}
		/* the syscall's own arguments, typed by its number when read */
		for (i = 0; with_args && i < LBRSNAP_MAX_ARGS; i++) {
			t->nr_args++;
			if (arg_set(&t->args[i], "", "", LBRSNAP_RET_UNSIGNED, 8))
				return -ENOMEM;
		}
	} else if (with_args) {
		const struct btf_type *proto = btf_types__tp_proto(btf, name);

		/* the first parameter is the tracepoint's void *__data, not in the context */
		if (proto && btf_types__args(btf, proto, 1, from, t->args, &t->nr_args))
			return -ENOMEM;
	}
	t->has_ret = t->ret_kind != LBRSNAP_RET_NONE;
	if (t->has_ret && !t->ret_type)
		return -ENOMEM;
	return 0;
}

/*
 * The names of a spec, "NAME", "GLOB" or a list "A,B*,C": one pass over the BTF matches all,
 * plain names found by binary search, so a list of hundreds costs about what one name does.
 */
struct name_list {
	char *buf;
	char **plain;		/* sorted */
	char **globs;
	const char **why;	/* per plain name: why it cannot be attached, once seen */
	bool *seen;		/* per plain name: in the BTF */
	size_t nr_plain, nr_globs;
};

static void name_list__free(struct name_list *l)
{
	free(l->buf);
	free(l->plain);
	free(l->globs);
	free(l->why);
	free(l->seen);
}

static int name_list__parse(struct name_list *l, const char *pattern)
{
	size_t n = 1;
	char *p, *save = NULL;
	const char *c;

	memset(l, 0, sizeof(*l));
	for (c = pattern; *c; c++)
		n += *c == ',';
	l->buf = strdup(pattern);
	l->plain = calloc(n, sizeof(*l->plain));
	l->globs = calloc(n, sizeof(*l->globs));
	l->why = calloc(n, sizeof(*l->why));
	l->seen = calloc(n, sizeof(*l->seen));
	if (!l->buf || !l->plain || !l->globs || !l->why || !l->seen)
		return -ENOMEM;
	for (p = strtok_r(l->buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (is_glob(p))
			l->globs[l->nr_globs++] = p;
		else
			l->plain[l->nr_plain++] = p;
	}
	qsort(l->plain, l->nr_plain, sizeof(*l->plain), cmp_str);
	return l->nr_plain + l->nr_globs ? 0 : -EINVAL;
}

/* Index of plain name + 1, or 0; -1 for a glob's match */
static long name_list__match(const struct name_list *l, const char *name)
{
	char **hit = bsearch(&name, l->plain, l->nr_plain, sizeof(*l->plain), cmp_str);
	size_t i;

	if (hit)
		return hit - l->plain + 1;
	for (i = 0; i < l->nr_globs; i++) {
		if (!fnmatch(l->globs[i], name, 0))
			return -1;
	}
	return 0;
}

/* The error of a spec that attached nothing, or of a plain name in it that failed */
static int name_list__error(const struct name_list *l, enum lbrsnap_kind kind, const char *spec,
			    const struct btf *btf, size_t found, size_t skipped, const char *why,
			    char *err, size_t err_len)
{
	size_t i;

	for (i = 0; i < l->nr_plain; i++) {
		if (l->why[i]) {
			if (l->nr_plain + l->nr_globs == 1)
				snprintf(err, err_len, "cannot attach %s: %s", spec, l->why[i]);
			else
				snprintf(err, err_len, "cannot attach %s:%s (in '%s'): %s",
					 lbr_kind__name(kind), l->plain[i], spec, l->why[i]);
			return -EOPNOTSUPP;
		}
		if (!l->seen[i]) {
			snprintf(err, err_len, "unknown %s '%s' in '%s'",
				 is_func_kind(kind) ? "kernel function (not in the kernel's BTF)" :
				 "tracepoint", l->plain[i], spec);
			suggest(err, err_len, l->plain[i], btf, kind);
			return -ENOENT;
		}
	}
	if (found)
		return 0;
	if (why) {
		snprintf(err, err_len, "'%s' matches %zu functions but none can be attached "
			 "(e.g. %s)", spec, skipped, why);
		return -EOPNOTSUPP;
	}
	snprintf(err, err_len, "unknown %s '%s' in '%s'",
		 is_func_kind(kind) ? "kernel function (not in the kernel's BTF)" : "tracepoint",
		 strchr(spec, ':') + 1, spec);
	return -ENOENT;
}

static int expand_one(struct attach_set *set, const char *spec, const struct btf *btf,
		      const struct ksyms *ks, const struct kallsyms_text *kt,
		      const struct name_set *traceable, bool with_args,
		      char *err, size_t err_len)
{
	__u32 id, n = btf__type_cnt(btf);
	const char *pattern, *why = NULL;
	enum lbrsnap_kind kind;
	struct name_list l;
	size_t found = 0, skipped = 0, plain_left;
	long m;
	int ret;

	if (attach_spec__parse(spec, &kind, &pattern)) {
		char forms[256];

		attach_kinds__forms(forms, sizeof(forms));
		snprintf(err, err_len, "bad event '%s': expected %s", spec, forms);
		return -EINVAL;
	}
	if (lbr_kind__is(kind, LBR_KIND_WATCH))
		return add_mem_target(set, pattern, kt, with_args, err, err_len);
	if (lbr_kind__is_user(kind))
		return add_user_target(set, kind, spec, pattern, with_args, err, err_len);
	ret = name_list__parse(&l, pattern);
	if (ret == -EINVAL)
		snprintf(err, err_len, "bad event '%s': no name in the list", spec);
	if (ret)
		goto cleanup;
	plain_left = l.nr_plain;
	for (id = 1; id < n && (plain_left || l.nr_globs); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);
		const char *obstacle = NULL;

		if (is_func_kind(kind)) {
			if (!btf_is_func(t))
				continue;
		} else {
			if (!btf_is_typedef(t) || strncmp(name, BTF_TRACE_PREFIX, 10))
				continue;
			name += 10;
		}
		m = name_list__match(&l, name);
		if (!m)
			continue;
		if (m > 0) {
			if (l.seen[m - 1])
				continue;	/* BTF has one FUNC per name; be sure */
			l.seen[m - 1] = true;
			plain_left--;
		}
		if (attach_kind__is(kind, ATTACH_KIND_TRAMPOLINE))
			obstacle = fexit_obstacle(btf, t, ks, traceable);
		else if (is_func_kind(kind))
			obstacle = trace_obstacle(name, ks, traceable);
		if (obstacle) {
			/* a glob skips what it cannot attach; a name asked for is an error */
			if (m > 0)
				l.why[m - 1] = obstacle;
			skipped++;
			why = obstacle;
			continue;
		}
		ret = add_target(set, kind, name, btf, t, with_args);
		if (ret)
			goto cleanup;
		found++;
	}
	ret = name_list__error(&l, kind, spec, btf, found, skipped, why, err, err_len);
cleanup:
	name_list__free(&l);
	return ret;
}

int attach_set__expand(struct attach_set *set, const char *const *specs, size_t nr_specs,
		       const struct btf *btf, bool with_args, char *err, size_t err_len)
{
	struct name_set traceable = {};
	struct kallsyms_text kt = {};
	struct ksyms *ks = NULL;
	bool any_func = false, any_mem = false;
	size_t i;
	int ret = 0;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < nr_specs; i++) {
		enum lbrsnap_kind kind;
		const char *name;

		if (attach_spec__parse(specs[i], &kind, &name))
			continue;
		any_func |= is_func_kind(kind);
		any_mem |= lbr_kind__is(kind, LBR_KIND_WATCH);
	}
	if (any_func)
		load_traceable(&traceable);
	/* functions are checked against kallsyms without a tracefs list */
	if ((any_func && !traceable.nr) || any_mem)
		ksyms__live_text(&kt.text, &kt.len);
	if (any_func && !traceable.nr && kt.text)
		ksyms__parse(kt.text, kt.len, &ks);
	for (i = 0; i < nr_specs && !ret; i++) {
		size_t first = set->nr, j;

		ret = expand_one(set, specs[i], btf, ks, &kt, &traceable, with_args, err,
				 err_len);
		for (j = first; j < set->nr; j++)
			set->v[j].spec_idx = i;
	}
	name_set__free(&traceable);
	ksyms__free(ks);
	/*
	 * A spec that does not parse or names nothing that exists is the command line's fault,
	 * as a bad --filter is: the caller's usage error. What exists but cannot be attached
	 * here keeps its errno.
	 */
	if (ret == -EINVAL || ret == -ENOENT)
		ret = -EBADMSG;
	if (ret)
		attach_set__free(set);
	return ret;
}

void attach_set__free(struct attach_set *set)
{
	size_t i;

	size_t j;

	for (i = 0; i < set->nr; i++) {
		free(set->v[i].spec);
		free(set->v[i].name);
		free(set->v[i].ret_type);
		free(set->v[i].upath);
		free(set->v[i].ufunc);
		free(set->v[i].usdt_provider);
		free(set->v[i].usdt_name);
		for (j = 0; j < set->v[i].nr_args; j++) {
			free(set->v[i].args[j].name);
			free(set->v[i].args[j].type);
			free(set->v[i].args[j].enums);
		}
	}
	free(set->v);
	memset(set, 0, sizeof(*set));
}
