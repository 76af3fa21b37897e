// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The --filter compiler: a recursive-descent parser that emits postfix code as it goes.
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/arg-filter.h"
#include "lbrfile/arg-value.h"
#include "util/edit-distance.h"
#include "lbrfile/ret-value.h"
#include "capture/syscall-table.h"

enum tok_kind { T_END, T_NAME, T_NUM, T_STR, T_OP };

struct parser {
	const char *expr, *p;
	const struct attach_target *t;
	const struct syscall_table *sys;
	struct arg_filter_names *names;
	struct arg_filter_prog *prog;
	char *err;
	size_t err_len;
	/* the current token */
	enum tok_kind kind;
	const char *start;
	size_t len;
	int depth;
	unsigned int string_len;	/* --string-len: characters a string slot keeps */
};

/* '!' and '(' nested at most this deep */
#define FILTER_MAX_DEPTH 8
/* characters of the expression and of the token at fault quoted in an error */
#define FILTER_ERR_TEXT 64

static const char *const ops[] = { "==", "!=", "<=", ">=", "&&", "||", "<", ">", "&", "!",
				   "(", ")" };

static void next(struct parser *ps)
{
	const char *p = ps->p;
	size_t i;

	while (isspace((unsigned char)*p))
		p++;
	ps->start = p;
	if (!*p) {
		ps->kind = T_END;
		ps->len = 0;
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		ps->kind = T_NAME;
	} else if (isdigit((unsigned char)*p) || (*p == '-' && (isalnum((unsigned char)p[1])))) {
		p++;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		ps->kind = T_NUM;
	} else if (*p == '"') {
		p++;
		while (*p && *p != '"')
			p++;
		if (*p)
			p++;
		ps->kind = T_STR;
	} else {
		ps->kind = T_OP;
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			if (!strncmp(p, ops[i], strlen(ops[i]))) {
				p += strlen(ops[i]);
				break;
			}
		}
		if (p == ps->start)
			p++;	/* an unknown character: a token of its own, reported */
	}
	ps->len = p - ps->start;
	ps->p = p;
}

static bool is_op(const struct parser *ps, const char *op)
{
	return ps->kind == T_OP && ps->len == strlen(op) && !strncmp(ps->start, op, ps->len);
}

static int fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *ps, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	/* a long expression or token is cut, so that the reason still fits the one line */
	int elen = strlen(ps->expr) > FILTER_ERR_TEXT ? FILTER_ERR_TEXT : (int)strlen(ps->expr);
	int tlen = ps->len > FILTER_ERR_TEXT ? FILTER_ERR_TEXT : (int)ps->len;
	const char *ecut = elen < (int)strlen(ps->expr) ? "..." : "";
	const char *tcut = tlen < (int)ps->len ? "..." : "";

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (ps->kind == T_END)
		snprintf(ps->err, ps->err_len, "bad --filter '%.*s%s' for %s: at its end: %s",
			 elen, ps->expr, ecut, ps->t->spec, why);
	else
		snprintf(ps->err, ps->err_len,
			 "bad --filter '%.*s%s' for %s: at column %zu ('%.*s%s'): %s",
			 elen, ps->expr, ecut, ps->t->spec, (size_t)(ps->start - ps->expr) + 1,
			 tlen, ps->start, tcut, why);
	return -EINVAL;
}

static int emit(struct parser *ps, struct lbrsnap_filter_insn in)
{
	if (ps->prog->nr_insn >= LBRSNAP_FILTER_INSNS)
		return fail(ps, "too long: at most %d comparisons and operators",
			    LBRSNAP_FILTER_INSNS);
	ps->prog->insn[ps->prog->nr_insn++] = in;
	return 0;
}

/* The names a filter of t may use, for the message about an unknown one. */
static void names_of(const struct attach_target *t, char *buf, size_t len)
{
	size_t n = 0;
	__u32 i;

	buf[0] = 0;
	for (i = 0; i < t->nr_args && !t->sys; i++) {
		if (*t->args[i].name)
			n += snprintf(buf + n, n < len ? len - n : 0, "%s, ", t->args[i].name);
	}
	if (t->sys)
		n += snprintf(buf + n, n < len ? len - n : 0, "syscall, its arguments by name, "
			      "arg0..arg5, ");
	else if (t->nr_args)
		n += snprintf(buf + n, n < len ? len - n : 0, "arg0..arg%u, ", t->nr_args - 1);
	snprintf(buf + n, n < len ? len - n : 0, "%spid, tid, cpu", t->has_ret ? "ret, " : "");
}

/* The up to three argument names of any syscall closest to the token, as ", a, b, c" */
static void closest_sys_names(struct parser *ps, char *buf, size_t len)
{
	struct closest_names best;
	size_t n = 0, d;
	char tok[64];
	__u32 nr, i;

	buf[0] = 0;
	closest_names__init(&best);
	snprintf(tok, sizeof(tok), "%.*s", (int)ps->len, ps->start);
	for (nr = 0; ps->sys && nr < LBRSNAP_NR_SYSCALLS; nr++) {
		const struct lbr_syscall *sc = syscall_table__get(ps->sys, nr);

		for (i = 0; sc && i < sc->nr_args; i++) {
			d = edit_distance(tok, sc->args[i].name);
			if (d <= strlen(tok) / 2 + 1)
				closest_names__add(&best, sc->args[i].name, d);
		}
	}
	for (i = 0; i < 3 && best.name[i]; i++)
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", i ? ", " : "", best.name[i]);
}

/*
 * A syscall argument by name at sys_enter/sys_exit: its slot in the capture's names, with
 * where each syscall has it. Its kind is a string when any syscall reads it as one.
 */
static int resolve_sys(struct parser *ps, __u8 *field, __u8 *kind)
{
	struct arg_filter_names *nm = ps->names;
	__u8 map[LBRSNAP_NR_SYSCALLS] = {}, akind, size, e;
	char near[128], names[512];
	bool found = false, string = false;
	__u32 nr, i, slot;

	for (nr = 0; ps->sys && nr < LBRSNAP_NR_SYSCALLS; nr++) {
		const struct lbr_syscall *sc = syscall_table__get(ps->sys, nr);

		for (i = 0; sc && i < sc->nr_args; i++) {
			if (strlen(sc->args[i].name) != ps->len ||
			    strncmp(sc->args[i].name, ps->start, ps->len))
				continue;
			lbr_arg__sys_type(sc->args[i].type, &akind, &size);
			e = i | LBRSNAP_SYSARG_PRESENT;
			e |= akind == LBRSNAP_RET_SIGNED ? LBRSNAP_SYSARG_SIGNED : 0;
			e |= akind == LBRSNAP_ARG_STRING ? LBRSNAP_SYSARG_STRING : 0;
			e |= (size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3) <<
			     LBRSNAP_SYSARG_SIZE_SHIFT;
			map[nr] = e;
			found = true;
			string |= akind == LBRSNAP_ARG_STRING;
			break;
		}
	}
	if (!found) {
		closest_sys_names(ps, near, sizeof(near));
		names_of(ps->t, names, sizeof(names));
		if (near[0])
			return fail(ps, "unknown name; no syscall has an argument of that name "
				    "(closest: %s); %s also has %s", near, ps->t->spec, names);
		return fail(ps, "unknown name; no syscall has an argument of that name; %s "
			    "also has %s", ps->t->spec, names);
	}
	for (slot = 0; slot < nm->nr; slot++) {
		if (strlen(nm->name[slot]) == ps->len && !strncmp(nm->name[slot], ps->start, ps->len))
			break;
	}
	if (slot == nm->nr) {
		if (nm->nr == LBRSNAP_FILTER_NAMES || ps->len >= sizeof(nm->name[0]))
			return fail(ps, "at most %d syscall argument names in a capture's filters",
				    LBRSNAP_FILTER_NAMES);
		snprintf(nm->name[slot], sizeof(nm->name[0]), "%.*s", (int)ps->len, ps->start);
		memcpy(nm->map[slot], map, sizeof(map));
		nm->nr++;
	}
	*field = LBRSNAP_FLD_SYSARG + slot;
	*kind = string ? LBRSNAP_ARG_STRING : LBRSNAP_RET_UNSIGNED;
	return 0;
}

/* A name: its field, kind (LBRSNAP_RET_*, LBRSNAP_ARG_STRING) and string slot. */
static int resolve(struct parser *ps, __u8 *field, __u8 *kind, __u8 *slot)
{
	const struct attach_target *t = ps->t;
	char names[512];
	__u32 i, k = 0;

	*slot = 0;
	*kind = LBRSNAP_RET_UNSIGNED;
	if (ps->len == 3 && !strncmp(ps->start, "ret", 3) && t->has_ret) {
		*field = LBRSNAP_FLD_RET;
		*kind = t->ret_kind;
		return 0;
	}
	if (ps->len == 3 && !strncmp(ps->start, "pid", 3)) {
		*field = LBRSNAP_FLD_PID;
		return 0;
	}
	if (ps->len == 3 && !strncmp(ps->start, "tid", 3)) {
		*field = LBRSNAP_FLD_TID;
		return 0;
	}
	if (ps->len == 3 && !strncmp(ps->start, "cpu", 3)) {
		*field = LBRSNAP_FLD_CPU;
		return 0;
	}
	if (t->sys && t->nr_args && ps->len == 7 && !strncmp(ps->start, "syscall", 7)) {
		*field = LBRSNAP_FLD_SYSCALL;
		*kind = LBRSNAP_RET_SIGNED;
		return 0;
	}
	for (i = 0; i < t->nr_args; i++) {
		char alias[16];
		bool hit;

		snprintf(alias, sizeof(alias), "arg%u", i);
		hit = (strlen(t->args[i].name) == ps->len &&
		       !strncmp(t->args[i].name, ps->start, ps->len)) ||
		      (strlen(alias) == ps->len && !strncmp(alias, ps->start, ps->len));
		if (hit) {
			*field = i;
			*kind = t->args[i].kind;
			*slot = k;
			if (*kind == LBRSNAP_ARG_STRING && k >= LBRSNAP_MAX_STRS)
				return fail(ps, "only the first %d string arguments are read",
					    LBRSNAP_MAX_STRS);
			return 0;
		}
		k += t->args[i].kind == LBRSNAP_ARG_STRING;
	}
	if (t->sys && t->nr_args)
		return resolve_sys(ps, field, kind);
	names_of(t, names, sizeof(names));
	return fail(ps, "unknown name; %s has %s", t->spec, names);
}

/* The value of enumerator name in "NAME=VALUE,..." */
static bool enum_value(const char *enums, const char *name, __s64 *v)
{
	size_t n = strlen(name);
	const char *p = enums;

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == '=') {
			*v = strtoll(p + n + 1, NULL, 0);
			return true;
		}
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return false;
}

/* A number: decimal, hex, octal, -ENAME / ENAME (errno), a syscall or enumerator name. */
static int number(struct parser *ps, bool syscall, const char *enums, __s64 *v)
{
	char tok[64], *end;
	bool neg;

	snprintf(tok, sizeof(tok), "%.*s", (int)ps->len, ps->start);
	if (ps->kind == T_NAME && enums && enum_value(enums, tok, v))
		return 0;
	if (ps->kind == T_NAME && syscall) {
		int nr = syscall_table__nr(tok);

		if (nr < 0)
			return fail(ps, "no syscall of that name");
		*v = nr;
		return 0;
	}
	neg = tok[0] == '-';
	if (tok[neg] == 'E' && isupper((unsigned char)tok[neg + 1])) {
		int err = lbr_errno__from_name(tok + neg);

		if (!err)
			return fail(ps, "unknown errno name");
		*v = neg ? -err : err;
		return 0;
	}
	if (ps->kind != T_NUM)
		return fail(ps, "expected a number");
	errno = 0;
	*v = neg ? strtoll(tok, &end, 0) : (__s64)strtoull(tok, &end, 0);
	if (errno || *end)
		return fail(ps, "not a number");
	return 0;
}

/*
 * A negative literal against an unsigned value narrower than 64 bits is taken in the value's
 * width, as C converts it (ret == -1 on an unsigned int is ret == 4294967295): the value is
 * zero-extended in the record, the literal would be sign-extended. Syscall arguments are
 * narrowed by the program, per syscall.
 */
static void narrow(const struct parser *ps, __u8 field, __u8 kind, __s64 *imm)
{
	const struct attach_target *t = ps->t;
	unsigned int size = 8;

	if (*imm >= 0 || kind != LBRSNAP_RET_UNSIGNED)
		return;
	if (field == LBRSNAP_FLD_RET)
		size = t->ret_size;
	else if (field < LBRSNAP_MAX_ARGS && field < t->nr_args && !t->sys)
		size = t->args[field].size;
	if (size && size < 8)
		*imm = (__s64)((__u64)*imm & ((1ULL << (8 * size)) - 1));
}

static int comparison(struct parser *ps)
{
	struct lbrsnap_filter_insn in = { .op = LBRSNAP_FOP_CMP };
	static const char *const cmps[] = {
		[LBRSNAP_FCMP_EQ] = "==", [LBRSNAP_FCMP_NE] = "!=", [LBRSNAP_FCMP_LT] = "<",
		[LBRSNAP_FCMP_LE] = "<=", [LBRSNAP_FCMP_GT] = ">", [LBRSNAP_FCMP_GE] = ">=",
		[LBRSNAP_FCMP_BIT] = "&",
	};
	__u8 field, kind, slot;
	size_t i;
	int err;

	if (ps->kind != T_NAME)
		return fail(ps, "expected a name, '!' or '('");
	err = resolve(ps, &field, &kind, &slot);
	if (err)
		return err;
	next(ps);
	for (i = 0; i < sizeof(cmps) / sizeof(cmps[0]); i++) {
		if (is_op(ps, cmps[i]))
			break;
	}
	if (i == sizeof(cmps) / sizeof(cmps[0]))
		return fail(ps, "expected a comparison: == != < <= > >= &");
	in.cmp = i;
	next(ps);
	if (kind == LBRSNAP_ARG_STRING) {
		struct arg_filter_prog *prog = ps->prog;
		const char *s = ps->start + 1;
		size_t n = ps->len - 2;

		if (ps->kind != T_STR)
			return fail(ps, "a string argument compares with a \"string\"");
		if (ps->len < 2 || ps->start[ps->len - 1] != '"')
			return fail(ps, "unterminated string");
		if (in.cmp != LBRSNAP_FCMP_EQ && in.cmp != LBRSNAP_FCMP_NE)
			return fail(ps, "strings compare only with == and !=");
		in.glob = n && s[n - 1] == '*';
		n -= in.glob;
		if (memchr(s, '*', n))
			return fail(ps, "only a trailing * is a glob");
		if (n >= LBRSNAP_FILTER_STR_LEN)
			return fail(ps, "longer than %d characters", LBRSNAP_FILTER_STR_LEN - 1);
		/*
		 * Past --string-len the record holds a cut string: an exact match could then
		 * never hold, or hold for every longer string of the same start.
		 */
		if (n > ps->string_len)
			return fail(ps, "%zu characters, more than the %u --string-len keeps: "
				    "use --string-len %zu or more", n, ps->string_len, n);
		if (prog->nr_str >= LBRSNAP_FILTER_STRS)
			return fail(ps, "at most %d strings in a filter", LBRSNAP_FILTER_STRS);
		memcpy(prog->str[prog->nr_str], s, n);
		in.op = LBRSNAP_FOP_STR;
		/* a syscall argument's slot depends on the syscall: the program finds it */
		in.field = field >= LBRSNAP_FLD_SYSARG ? field : slot;
		in.str = prog->nr_str++;
		/*
		 * A glob compares the prefix ("*" alone: any string read, no compare), an exact
		 * match the NUL too, and the program checks the captured length as well.
		 */
		in.imm = in.glob ? n : n + 1;
	} else {
		if (ps->kind == T_STR)
			return fail(ps, "a number argument does not compare with a string");
		err = number(ps, field == LBRSNAP_FLD_SYSCALL,
			     field < LBRSNAP_MAX_ARGS && !ps->t->sys ? ps->t->args[field].enums : NULL,
			     &in.imm);
		if (err)
			return err;
		in.field = field;
		in.is_signed = kind == LBRSNAP_RET_SIGNED;
		narrow(ps, field, kind, &in.imm);
	}
	next(ps);
	return emit(ps, in);
}

static int or_expr(struct parser *ps);

static int unary(struct parser *ps)
{
	int err;

	/* '!' recurses as '(' does: both spend the depth budget, so no input exhausts the stack */
	if (is_op(ps, "!")) {
		if (++ps->depth > FILTER_MAX_DEPTH)
			return fail(ps, "'!' and parentheses nested more than %d deep",
				    FILTER_MAX_DEPTH);
		next(ps);
		err = unary(ps);
		if (err)
			return err;
		ps->depth--;
		return emit(ps, (struct lbrsnap_filter_insn){ .op = LBRSNAP_FOP_NOT });
	}
	if (is_op(ps, "(")) {
		if (++ps->depth > FILTER_MAX_DEPTH)
			return fail(ps, "'!' and parentheses nested more than %d deep",
				    FILTER_MAX_DEPTH);
		next(ps);
		err = or_expr(ps);
		if (err)
			return err;
		if (!is_op(ps, ")"))
			return fail(ps, "expected ')' (unbalanced parentheses)");
		ps->depth--;
		next(ps);
		return 0;
	}
	return comparison(ps);
}

static int and_expr(struct parser *ps)
{
	int err = unary(ps);

	while (!err && is_op(ps, "&&")) {
		next(ps);
		err = unary(ps) ?: emit(ps, (struct lbrsnap_filter_insn){ .op = LBRSNAP_FOP_AND });
	}
	return err;
}

static int or_expr(struct parser *ps)
{
	int err = and_expr(ps);

	while (!err && is_op(ps, "||")) {
		next(ps);
		err = and_expr(ps) ?: emit(ps, (struct lbrsnap_filter_insn){ .op = LBRSNAP_FOP_OR });
	}
	return err;
}

int arg_filter__compile(const char *expr, const struct attach_target *t,
			const struct syscall_table *sys, unsigned int string_len,
			struct arg_filter_names *names, struct arg_filter_prog *prog, char *err,
			size_t err_len)
{
	struct parser ps = { .expr = expr, .p = expr, .t = t, .sys = sys, .names = names,
			     .prog = prog, .err = err, .err_len = err_len,
			     .string_len = string_len };
	int ret;

	memset(prog, 0, sizeof(*prog));
	next(&ps);
	if (ps.kind == T_END)
		return fail(&ps, "empty expression");
	ret = or_expr(&ps);
	if (ret)
		return ret;
	if (is_op(&ps, ")"))
		return fail(&ps, "unbalanced parentheses: no '(' for this ')'");
	if (ps.kind != T_END)
		return fail(&ps, "expected '&&', '||' or the end");
	return 0;
}
