// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "view/event-fields.h"
#include "lbrfile/ret-value.h"
#include "view/record-fields.h"


static const char *const arg_names[LBRSNAP_MAX_ARGS] = {
	"arg0", "arg1", "arg2", "arg3", "arg4", "arg5",
};

static bool is_user_probe(const char *spec)
{
	return !strncmp(spec, "uprobe:", 7) || !strncmp(spec, "uretprobe:", 10) ||
	       !strncmp(spec, "usdt:", 5);
}

/* Copies text[0..len) into out as identifier characters, ':' as "__"; returns the new end. */
static size_t put_ident(char *out, size_t o, size_t size, const char *text, size_t len)
{
	for (; len && *text && o + 3 < size; text++, len--) {
		if (*text == ':') {
			out[o++] = '_';
			out[o++] = '_';
		} else {
			out[o++] = (*text >= 'a' && *text <= 'z') ||
				   (*text >= 'A' && *text <= 'Z') ||
				   (*text >= '0' && *text <= '9') ? *text : '_';
		}
	}
	out[o] = '\0';
	return o;
}

void event_fields__name(const char *spec, char *out, size_t size)
{
	const char *path, *base, *rest;
	size_t o;

	out[0] = '\0';
	path = strchr(spec, ':');
	if (!is_user_probe(spec) || !path) {
		put_ident(out, 0, size, spec, (size_t)-1);
		return;
	}
	/*
	 * A user probe is named after its file's base name, not its path, as perf names its
	 * uprobe events: the name stays readable and bounded wherever the file lies.
	 */
	rest = strchr(strrchr(spec, '/') ?: path, ':');
	if (rest == path)
		rest = strchr(path + 1, ':');
	if (!rest)
		rest = spec + strlen(spec);
	base = memrchr(path + 1, '/', rest - path - 1);
	base = base ? base + 1 : path + 1;
	o = put_ident(out, 0, size, spec, path - spec + 1);
	if (rest - base > EVENT_FIELDS_BASE_MAX)
		base = rest - EVENT_FIELDS_BASE_MAX;
	o = put_ident(out, o, size, base, rest - base);
	put_ident(out, o, size, rest, (size_t)-1);
}

void event_fields__unique_name(event_fields_spec_fn spec_at, const void *ctx, size_t i,
			       char *out, size_t size)
{
	char other[256];
	size_t j, len;

	event_fields__name(spec_at(ctx, i), out, size);
	for (j = 0; j < i; j++) {
		event_fields__name(spec_at(ctx, j), other, sizeof(other));
		if (strcmp(other, out))
			continue;
		/* the first keeps the name, as perf keeps its first probe's */
		len = strlen(out);
		snprintf(out + len, size - len, "_%zu", i);
		return;
	}
}

static bool is_reserved(const char *name)
{
	const char *const *r;

	for (r = lbr_fields_reserved; *r; r++) {
		if (!strcmp(*r, name))
			return true;
	}
	return false;
}

static bool is_identifier(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	}
	return true;
}

static const char *int_type(bool is_signed, unsigned int size)
{
	switch (size) {
	case 1:
		return is_signed ? "signed char" : "unsigned char";
	case 2:
		return is_signed ? "short" : "unsigned short";
	case 4:
		return is_signed ? "int" : "unsigned int";
	default:
		return is_signed ? "long long" : "unsigned long long";
	}
}

static struct event_field *add(struct event_fields *ef, unsigned int *off, const char *name,
			       const char *type, unsigned int size, bool is_signed, int src)
{
	struct event_field *f = &ef->f[ef->nr++];

	bool loc = !strncmp(type, "__data_loc", 10);

	/* values in 8-byte slots (as perf's RAW data aligns), __data_loc words in 4 */
	*off = loc ? (*off + 3) & ~3u : (*off + 7) & ~7u;
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->type, sizeof(f->type), "%s", type);
	f->offset = *off;
	f->size = size;
	f->is_signed = is_signed;
	f->src = src;
	f->enums = "";
	f->base = 'd';
	*off += loc || size >= 8 ? size : 8;
	return f;
}

void event_fields__init(struct event_fields *ef, const struct lbr_attach_point *ap,
			unsigned int offset)
{
	unsigned int off = offset, i;
	char name[72];

	memset(ef, 0, sizeof(*ef));
	if (!ap || !ap->nr_args) {
		ef->end = offset;
		return;
	}
	if (ap->sys) {
		add(ef, &off, "syscall_nr", "int", 4, true, EVENT_FIELD_SYSCALL_NR)->kind =
			LBRSNAP_RET_SIGNED;
		add(ef, &off, "syscall", "__data_loc char[]", 4, true, EVENT_FIELD_SYSCALL)->kind =
			LBRSNAP_ARG_STRING;
		add(ef, &off, "args", "unsigned long", 8 * LBRSNAP_MAX_ARGS, false,
		    EVENT_FIELD_SYSCALL_ARGS)->kind = LBRSNAP_RET_UNSIGNED;
		ef->end = off;
		return;
	}
	for (i = 0; i < ap->nr_args && i < LBRSNAP_MAX_ARGS; i++) {
		const struct lbr_arg_desc *d = &ap->args[i];
		struct event_field *f;
		unsigned int size = d->size && d->size <= 8 ? d->size : 8;

		if (!*d->name || !is_identifier(d->name))
			snprintf(name, sizeof(name), "%s", arg_names[i]);
		else
			snprintf(name, sizeof(name), "%s%s", is_reserved(d->name) ? "arg_" : "",
				 d->name);
		switch (lbr_arg__fd_kind(d->name, d->kind, size)) {
		case LBRSNAP_ARG_STRING:
			f = add(ef, &off, name, "__data_loc char[]", 4, true, i);
			break;
		case LBRSNAP_RET_POINTER:
			f = add(ef, &off, name, "unsigned long", 8, false, i);
			break;
		case LBRSNAP_RET_BOOL:
			f = add(ef, &off, name, "bool", 1, false, i);
			break;
		case LBRSNAP_RET_SIGNED:
			f = add(ef, &off, name, int_type(true, size), size, true, i);
			break;
		default:
			/* unsigned, and a kind the program did not read: its 64 bits */
			f = add(ef, &off, name, int_type(false, size), size, false, i);
			break;
		}
		f->kind = lbr_arg__fd_kind(d->name, d->kind, size);
		f->enums = d->enums ?: "";
		if (!*f->enums && (d->kind == LBRSNAP_RET_SIGNED || d->kind == LBRSNAP_RET_UNSIGNED))
			f->base = lbr_arg__base(d->name, d->type);
	}
	ef->end = off;
}

char *event_fields__format(const struct event_fields *ef)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	unsigned int i;

	if (!m)
		return NULL;
	for (i = 0; i < ef->nr; i++) {
		const struct event_field *f = &ef->f[i];

		fprintf(m, "\tfield:%s %s%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n", f->type, f->name,
			f->src == EVENT_FIELD_SYSCALL_ARGS ? "[6]" : "", f->offset, f->size,
			f->is_signed);
	}
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}

/* An enum's "NAME=VALUE,..." as __print_symbolic() pairs, the values as the field holds them */
static void put_symbols(FILE *m, const struct event_field *f)
{
	const char *p = f->enums;
	__u64 mask = f->size >= 8 ? ~0ULL : (1ULL << 8 * f->size) - 1;

	fprintf(m, "__print_symbolic(REC->%s", f->name);
	while (p && *p) {
		const char *eq = strchr(p, '='), *comma = strchr(p, ',');

		if (!eq)
			break;
		fprintf(m, ", {0x%llx, \"%.*s\"}",
			(unsigned long long)((__u64)strtoll(eq + 1, NULL, 0) & mask), (int)(eq - p), p);
		p = comma ? comma + 1 : NULL;
	}
	fprintf(m, ")");
}

/* libtraceevent casts by the conversion's length: "hh" char, "h" short, none int, "ll" */
static const char *int_length(unsigned int size)
{
	return size == 1 ? "hh" : size == 2 ? "h" : size == 4 ? "" : "ll";
}

int event_fields__print(const struct event_fields *ef, char **fmt, char **args)
{
	size_t flen = 0, alen = 0;
	FILE *fm = open_memstream(fmt, &flen);
	FILE *am = open_memstream(args, &alen);
	unsigned int i;
	int err = 0;

	if (!fm || !am) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < ef->nr; i++) {
		const struct event_field *f = &ef->f[i];
		const char *sep = i ? " " : "", *asep = i ? ", " : "";

		if (f->src == EVENT_FIELD_SYSCALL_ARGS)
			continue;
		if (f->src == EVENT_FIELD_SYSCALL) {
			fprintf(fm, "%ssyscall=%%s", sep);
			fprintf(am, "%s__get_str(syscall)", asep);
			continue;
		}
		fprintf(fm, "%s%s=", sep, f->name);
		fprintf(am, "%s", asep);
		if (*f->enums) {
			fprintf(fm, "%%s");
			put_symbols(am, f);
			continue;
		}
		switch (f->kind) {
		case LBRSNAP_ARG_STRING:
			fprintf(fm, "\\\"%%s\\\"");
			fprintf(am, "__get_str(%s)", f->name);
			break;
		case LBRSNAP_RET_POINTER:
			fprintf(fm, "%%s");
			fprintf(am, "__print_symbolic(REC->%s, {0x0, \"NULL\"})", f->name);
			break;
		case LBRSNAP_RET_BOOL:
			fprintf(fm, "%%s");
			fprintf(am, "REC->%s ? \"true\" : \"false\"", f->name);
			break;
		default:
			fprintf(fm, f->base == 'x' ? "0x%%%sx" : f->base == 'o' ? "%%#%so" :
				f->is_signed ? "%%%sd" : "%%%su", int_length(f->size));
			fprintf(am, "REC->%s", f->name);
			break;
		}
	}
cleanup:
	if (fm && fclose(fm))
		err = -ENOMEM;
	if (am && fclose(am))
		err = -ENOMEM;
	if (err) {
		free(*fmt);
		free(*args);
		*fmt = *args = NULL;
	}
	return err;
}

/* A __data_loc string: the text and its NUL, cut to what room leaves */
static __u32 put_str(unsigned char *payload, unsigned int *tail, unsigned int room,
		     const char *s, size_t len)
{
	__u32 at = *tail;

	if (at >= room)
		return at;			/* no room: an empty location */
	if (len > room - at - 1)
		len = room - at - 1;
	memcpy(payload + at, s, len);
	payload[at + len] = 0;
	*tail += len + 1;
	return (len + 1) << 16 | at;
}

void event_fields__encode(const struct event_fields *ef, const struct lbr_args *view,
			  unsigned char *payload, unsigned int *tail, unsigned int room)
{
	const __u64 *val = view && view->a ? (const void *)(view->a + 1) : NULL;
	struct lbr_arg arg;
	unsigned int i, k;
	__u32 loc;
	__s32 nr;

	for (i = 0; i < ef->nr; i++) {
		const struct event_field *f = &ef->f[i];
		unsigned char *p = payload + f->offset;

		memset(p, 0, f->size);
		switch (f->src) {
		case EVENT_FIELD_SYSCALL_NR:
			nr = view ? view->syscall_nr : -1;
			memcpy(p, &nr, 4);
			continue;
		case EVENT_FIELD_SYSCALL:
			loc = view && view->call ? put_str(payload, tail, room, view->call,
							    strlen(view->call)) :
			      put_str(payload, tail, room, "", 0);
			memcpy(p, &loc, 4);
			continue;
		case EVENT_FIELD_SYSCALL_ARGS:
			for (k = 0; val && k < view->a->nr_args && k < LBRSNAP_MAX_ARGS; k++)
				memcpy(p + 8 * k, &val[k], 8);
			continue;
		}
		if (!view || (__u32)f->src >= view->nr) {
			if (f->kind == LBRSNAP_ARG_STRING) {
				loc = put_str(payload, tail, room, "", 0);
				memcpy(p, &loc, 4);
			}
			continue;
		}
		lbr_args__get(view, f->src, &arg);
		if (f->kind == LBRSNAP_ARG_STRING) {
			/* unreadable text: an empty string, the pointer stays in the call */
			loc = put_str(payload, tail, room, arg.str ?: "", arg.str ? arg.str_len : 0);
			memcpy(p, &loc, 4);
			continue;
		}
		/* little endian: the value's low bytes are the field */
		memcpy(p, &arg.value, f->size);
	}
}
