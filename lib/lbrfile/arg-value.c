// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbrfile/arg-value.h"
#include "lbrfile/ret-value.h"
#include "util/num-text.h"

static const char *const arg_names[LBRSNAP_MAX_ARGS] = {
	"arg0", "arg1", "arg2", "arg3", "arg4", "arg5",
};

/*
 * Syscall registers hold the value as the C type has it: an int may come with any upper
 * half. tracefs says every field is 8 bytes, so the width comes from the type's name (its
 * const and __user dropped): every type the syscalls' formats name for a number (x86-64,
 * 6.x kernels; test-values checks the running kernel's). Pointer typedefs (cap_user_*_t)
 * are pointers.
 */
static const struct {
	const char *type;
	__u8 kind;
	__u8 size;
} sys_types[] = {
	{ "int", LBRSNAP_RET_SIGNED, 4 },		{ "pid_t", LBRSNAP_RET_SIGNED, 4 },
	{ "key_serial_t", LBRSNAP_RET_SIGNED, 4 },	{ "clockid_t", LBRSNAP_RET_SIGNED, 4 },
	{ "timer_t", LBRSNAP_RET_SIGNED, 4 },		{ "mqd_t", LBRSNAP_RET_SIGNED, 4 },
	{ "rwf_t", LBRSNAP_RET_SIGNED, 4 },		{ "unsigned int", LBRSNAP_RET_UNSIGNED, 4 },
	{ "u32", LBRSNAP_RET_UNSIGNED, 4 },		{ "uid_t", LBRSNAP_RET_UNSIGNED, 4 },
	{ "gid_t", LBRSNAP_RET_UNSIGNED, 4 },		{ "qid_t", LBRSNAP_RET_UNSIGNED, 4 },
	{ "umode_t", LBRSNAP_RET_UNSIGNED, 2 },		{ "long", LBRSNAP_RET_SIGNED, 8 },
	{ "loff_t", LBRSNAP_RET_SIGNED, 8 },		{ "off_t", LBRSNAP_RET_SIGNED, 8 },
	{ "unsigned", LBRSNAP_RET_UNSIGNED, 4 },	{ "key_t", LBRSNAP_RET_SIGNED, 4 },
	{ "__u32", LBRSNAP_RET_UNSIGNED, 4 },		{ "__s32", LBRSNAP_RET_SIGNED, 4 },
	{ "s32", LBRSNAP_RET_SIGNED, 4 },		{ "__u64", LBRSNAP_RET_UNSIGNED, 8 },
	{ "u64", LBRSNAP_RET_UNSIGNED, 8 },		{ "__s64", LBRSNAP_RET_SIGNED, 8 },
	{ "unsigned long", LBRSNAP_RET_UNSIGNED, 8 },	{ "size_t", LBRSNAP_RET_UNSIGNED, 8 },
	{ "ssize_t", LBRSNAP_RET_SIGNED, 8 },		{ "time_t", LBRSNAP_RET_SIGNED, 8 },
	{ "aio_context_t", LBRSNAP_RET_UNSIGNED, 8 },
	{ "__kernel_old_time_t", LBRSNAP_RET_SIGNED, 8 },
	{ "cap_user_header_t", LBRSNAP_RET_POINTER, 8 },
	{ "cap_user_data_t", LBRSNAP_RET_POINTER, 8 },
};

/* type without its const, volatile and __user qualifiers, single-spaced, into buf */
static void strip_quals(const char *type, char *buf, size_t len)
{
	static const char *const quals[] = { "const", "volatile", "__user" };
	size_t used = 0, n, i;

	buf[0] = 0;
	while (*type) {
		type += strspn(type, " ");
		n = strcspn(type, " ");
		if (!n)
			break;
		for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
			if (strlen(quals[i]) == n && !strncmp(type, quals[i], n))
				break;
		}
		if (i == sizeof(quals) / sizeof(quals[0]) && used + n + 2 <= len)
			used += snprintf(buf + used, len - used, "%s%.*s", used ? " " : "", (int)n,
					 type);
		type += n;
	}
}

bool lbr_arg__type_is_string(const char *type)
{
	size_t n = strlen(type);

	while (n && type[n - 1] == ' ')
		n--;
	return n >= 6 && !strncmp(type + n - 6, "char *", 6) && (n == 6 || type[n - 7] == ' ');
}

bool lbr_arg__sys_type(const char *type, __u8 *kind, __u8 *size)
{
	char bare[64];
	size_t i;

	*size = 8;
	if (lbr_arg__type_is_string(type)) {
		*kind = LBRSNAP_ARG_STRING;
		return true;
	}
	if (strchr(type, '*')) {
		*kind = LBRSNAP_RET_POINTER;
		return true;
	}
	*kind = LBRSNAP_RET_UNSIGNED;
	strip_quals(type, bare, sizeof(bare));
	/* a C enum without negative enumerators is an unsigned int */
	if (!strncmp(bare, "enum ", 5)) {
		*size = 4;
		return true;
	}
	for (i = 0; i < sizeof(sys_types) / sizeof(sys_types[0]); i++) {
		if (!strcmp(bare, sys_types[i].type)) {
			*kind = sys_types[i].kind;
			*size = sys_types[i].size;
			return true;
		}
	}
	return false;
}

/* A syscall's name, and *sc its table row; a number the capturing kernel had no name for: by it */
static const char *syscall_name(const struct lbrfile *f, __s32 nr, const struct lbr_syscall **sc,
				char *buf, size_t len)
{
	*sc = f ? lbrfile__syscall(f, nr) : NULL;
	if (*sc)
		return (*sc)->name;
	snprintf(buf, len, "syscall_%d", nr);
	return buf;
}

bool lbr_args__view(const struct lbrfile *f, const struct lbr_attach_point *ap,
		    const struct lbr_record *rec, struct lbr_args *view)
{
	memset(view, 0, sizeof(*view));
	view->syscall_nr = -1;
	if (!ap || !rec->args || !ap->nr_args)
		return false;
	view->a = rec->args;
	view->call = ap->target;
	if (ap->sys) {
		view->syscall_nr = rec->args->syscall_nr;
		view->call = syscall_name(f, view->syscall_nr, &view->sc, view->nr_name,
					  sizeof(view->nr_name));
		if (!view->sc)
			return true;
		view->desc = view->sc->args;
		view->nr = view->sc->nr_args;
	} else {
		view->desc = ap->args;
		view->nr = ap->nr_args;
	}
	if (view->nr > rec->args->nr_args)
		view->nr = rec->args->nr_args;
	return true;
}

const char *lbr_args__syscall(const struct lbrfile *f, const struct lbr_attach_point *ap,
			      const struct lbr_record *rec, char *buf, size_t len)
{
	const struct lbr_syscall *sc;

	if (!ap || !rec->args || !ap->nr_args || !ap->sys || rec->args->syscall_nr < 0)
		return NULL;
	return syscall_name(f, rec->args->syscall_nr, &sc, buf, len);
}

char lbr_arg__base(const char *name, const char *type)
{
	if (strstr(name, "mode") || !strcmp(type, "umode_t"))
		return 'o';
	if (strstr(name, "flags") || strstr(name, "mask") || strstr(name, "prot"))
		return 'x';
	return 'd';
}

bool lbr_arg__is_fd(const char *name)
{
	size_t n = strlen(name);

	/* fd, dfd, epfd, pidfd, oldfd, newfd, olddfd, fd_in, fd_out */
	return (n >= 2 && !strcmp(name + n - 2, "fd")) || !strncmp(name, "fd_", 3);
}

__u8 lbr_arg__fd_kind(const char *name, __u8 kind, __u8 size)
{
	/* the kernel takes many descriptors as unsigned int; -1 and AT_FDCWD read as such */
	return kind == LBRSNAP_RET_UNSIGNED && size == 4 && lbr_arg__is_fd(name) ?
	       LBRSNAP_RET_SIGNED : kind;
}

/* The kind and width argument i reads as, and its base: what its name and type say */
static void desc_shown(const struct lbr_arg_desc *d, __u32 i, bool syscall, __u8 *kind,
		       __u8 *size, char *base)
{
	const char *name = *d->name ? d->name : arg_names[i];

	*kind = d->kind;
	*size = d->size;
	if (syscall)
		lbr_arg__sys_type(d->type, kind, size);
	*kind = lbr_arg__fd_kind(name, *kind, *size);
	*base = lbr_arg__base(name, d->type);
}

void lbr_arg_desc__prepare(struct lbr_arg_desc *d, __u32 i, bool syscall)
{
	desc_shown(d, i, syscall, &d->shown_kind, &d->shown_size, &d->base);
	d->prepared = true;
}

void lbr_args__get(const struct lbr_args *view, __u32 i, struct lbr_arg *arg)
{
	const struct lbr_arg_desc *d = &view->desc[i];
	const __u64 *val = (const void *)(view->a + 1);
	const char *strs = (const char *)(val + view->a->nr_args);
	__u8 kind, size;
	char base;
	__u32 k;

	memset(arg, 0, sizeof(*arg));
	arg->name = *d->name ? d->name : arg_names[i];
	arg->type = d->type;
	arg->enums = d->enums ?: "";
	if (d->prepared) {
		kind = d->shown_kind;
		size = d->shown_size;
		base = d->base;
	} else {
		desc_shown(d, i, view->sc, &kind, &size, &base);
	}
	arg->kind = kind;
	arg->value = val[i];
	/* syscall registers are stored whole: extend them here (functions' in the program) */
	if ((view->sc || kind != d->kind) && size < 8 && kind == LBRSNAP_RET_SIGNED)
		arg->value = (__s64)((__u64)arg->value << (64 - 8 * size)) >> (64 - 8 * size);
	else if (view->sc && size < 8)
		arg->value = (__s64)(((__u64)arg->value << (64 - 8 * size)) >> (64 - 8 * size));
	arg->base = (kind == LBRSNAP_RET_SIGNED || kind == LBRSNAP_RET_UNSIGNED) &&
		    !*arg->enums ? base : 'd';
	/* the registers were rewritten before the record was taken: no value to show */
	if (view->a->flags & LBRSNAP_ARGS_UNAVAILABLE) {
		arg->unavailable = true;
		return;
	}
	if (kind != LBRSNAP_ARG_STRING)
		return;
	for (k = 0; k < view->a->nr_strs; k++) {
		const struct lbrsnap_str *st = (const void *)(strs + k * view->a->str_size);
		size_t room = view->a->str_len + 2;

		if (st->arg != i)
			continue;
		if (st->len <= 0 || (size_t)st->len > room)
			return;
		arg->str = st->s;
		arg->str_len = strnlen(st->s, st->len - 1);
		/* one character more than --string-len was read: the string went on */
		if ((size_t)st->len == room) {
			arg->truncated = true;
			arg->str_len = view->a->str_len;
		}
		return;
	}
}

static int format_str(const struct lbr_arg *arg, char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;

	/* what snprintf() of each piece in turn leaves: the text cut at len - 1, its length */
#define PUT(c) do {				\
		if (n + 1 < len)		\
			buf[n] = (c);		\
		n++;				\
	} while (0)
	PUT('"');
	for (i = 0; i < arg->str_len; i++) {
		unsigned char c = arg->str[i];

		if (c == '"' || c == '\\') {
			PUT('\\');
			PUT(c);
		} else if (c < 0x20 || c >= 0x7f) {
			PUT('\\');
			PUT('x');
			PUT(hex[c >> 4]);
			PUT(hex[c & 15]);
		} else {
			PUT(c);
		}
	}
	PUT('"');
	for (i = 0; arg->truncated && i < 3; i++)
		PUT('.');
#undef PUT
	if (len)
		buf[n < len ? n : len - 1] = 0;
	return n;
}

/* The enumerator of value in "NAME=VALUE,..." into name (size len); false if none. */
static bool enum_name(const char *enums, __s64 value, char *name, size_t len)
{
	const char *p = enums;

	while (p && *p) {
		const char *eq = strchr(p, '='), *comma = strchr(p, ',');

		if (!eq)
			return false;
		if (strtoll(eq + 1, NULL, 0) == value) {
			snprintf(name, len, "%.*s", (int)(eq - p), p);
			return true;
		}
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

int lbr_arg__format(const struct lbr_arg *arg, char *buf, size_t len)
{
	char name[128];

	if (arg->unavailable)
		return snprintf(buf, len, "unavailable");
	if (arg->enums && *arg->enums && enum_name(arg->enums, arg->value, name, sizeof(name)))
		return snprintf(buf, len, "%s", name);
	switch (arg->kind) {
	case LBRSNAP_ARG_STRING:
		if (arg->str)
			return format_str(arg, buf, len);
		/* unreadable: the pointer, as any other */
		return lbr_ret__format(LBRSNAP_RET_POINTER, arg->value, buf, len);
	case LBRSNAP_RET_SIGNED:
	case LBRSNAP_RET_UNSIGNED:
		if (arg->base == 'x')
			return num_text__hex(buf, len, arg->value);
		if (arg->base == 'o')
			return num_text__oct(buf, len, arg->value);
		return lbr_ret__format(arg->kind, arg->value, buf, len);
	case LBRSNAP_RET_BOOL:
	case LBRSNAP_RET_POINTER:
		return lbr_ret__format(arg->kind, arg->value, buf, len);
	default:
		/* a kind the program did not read (the verifier refuses its type) */
		return snprintf(buf, len, "?");
	}
}

size_t lbr_args__format(const struct lbr_args *view, char *buf, size_t len)
{
	struct lbr_arg arg;
	size_t n = 0;
	__u32 i;
	int w;

	if (len)
		buf[0] = 0;
	for (i = 0; i < view->nr && n < len; i++) {
		lbr_args__get(view, i, &arg);
		/* "%s%s=" of ", " and the name, put in parts as snprintf() would */
		w = i ? num_text__put(buf + n, len - n, ", ", 2) : 0;
		if ((size_t)w >= len - n)
			return len - 1;
		n += w;
		w = num_text__put(buf + n, len - n, arg.name, strlen(arg.name));
		if ((size_t)w >= len - n)
			return len - 1;
		n += w;
		w = num_text__put(buf + n, len - n, "=", 1);
		if ((size_t)w >= len - n)
			return len - 1;
		n += w;
		w = lbr_arg__format(&arg, buf + n, len - n);
		if (w < 0 || (size_t)w >= len - n)
			return len - 1;
		n += w;
	}
	return n;
}

size_t lbr_args__format_call(const struct lbr_args *view, char *buf, size_t len)
{
	size_t n;
	int w;

	if (len < 3)
		return 0;
	w = num_text__put(buf, len - 1, view->call, strlen(view->call));
	n = (size_t)w < len - 1 ? (size_t)w : len - 2;
	if (n < len - 2)
		n += num_text__put(buf + n, len - 1 - n, "(", 1);
	n += lbr_args__format(view, buf + n, len - 1 - n);
	buf[n++] = ')';
	buf[n] = 0;
	return n;
}
