// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel types from BTF (API in btf-types.h): the kernel side's counterpart of
 * dwarf-types.c, classifying values the same way so both extend and print alike.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "capture/btf-types.h"

static void emit_type(void *ctx, const char *fmt, va_list args)
{
	char **buf = ctx, *more, *joined;

	if (vasprintf(&more, fmt, args) < 0)
		return;
	if (asprintf(&joined, "%s%s", *buf ?: "", more) >= 0) {
		free(*buf);
		*buf = joined;
	}
	free(more);
}

/* The C spelling of a BTF type, as the kernel's source declares it ("struct file *"). */
char *btf_types__name(const struct btf *btf, __u32 id)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts, .field_name = "");
	struct btf_dump *d;
	char *buf = NULL;

	d = btf_dump__new(btf, emit_type, &buf, NULL);
	if (!d)
		return NULL;
	if (btf_dump__emit_type_decl(d, id, &opts)) {
		free(buf);
		buf = NULL;
	}
	btf_dump__free(d);
	return buf;
}

/*
 * How a value of a BTF type is extended and printed. The callee sets only the bytes of its
 * type (an int leaves the upper half of RAX undefined, a bool all but AL), so a value is
 * extended from its size by its signedness. Returns LBRSNAP_RET_NONE for aggregates and
 * void; with strings, a char pointer is LBRSNAP_ARG_STRING.
 */
__u8 btf_types__value(const struct btf *btf, __u32 type_id, bool strings, __u8 *size)
{
	const struct btf_type *r = btf__type_by_id(btf, type_id);

	while (r && (btf_is_typedef(r) || btf_is_mod(r) || btf_is_type_tag(r)))
		r = btf__type_by_id(btf, r->type);
	if (!r || !type_id)
		return LBRSNAP_RET_NONE;
	if (btf_is_ptr(r)) {
		const struct btf_type *to = btf__type_by_id(btf, r->type);

		*size = 8;
		while (to && (btf_is_typedef(to) || btf_is_mod(to) || btf_is_type_tag(to)))
			to = btf__type_by_id(btf, to->type);
		if (strings && to && btf_is_int(to) && to->size == 1 &&
		    !strcmp(btf__name_by_offset(btf, to->name_off), "char"))
			return LBRSNAP_ARG_STRING;
		return LBRSNAP_RET_POINTER;
	}
	if (btf_is_int(r) && r->size <= 8) {
		__u8 enc = btf_int_encoding(r);

		*size = r->size;
		return enc & BTF_INT_BOOL ? LBRSNAP_RET_BOOL :
		       enc & BTF_INT_SIGNED ? LBRSNAP_RET_SIGNED : LBRSNAP_RET_UNSIGNED;
	}
	if ((btf_is_enum(r) || btf_is_enum64(r)) && r->size <= 8) {
		/* kflag marks a signed enum (BTF of 6.0+ kernels) */
		*size = r->size;
		return btf_kflag(r) ? LBRSNAP_RET_SIGNED : LBRSNAP_RET_UNSIGNED;
	}
	return LBRSNAP_RET_NONE;
}

/* An enum's enumerators as "NAME=VALUE,NAME=VALUE", so readers print values by name. */
char *btf_types__enums(const struct btf *btf, __u32 type_id)
{
	const struct btf_type *r = btf__type_by_id(btf, type_id);
	char *buf = NULL, *more;
	size_t i;

	while (r && (btf_is_typedef(r) || btf_is_mod(r) || btf_is_type_tag(r)))
		r = btf__type_by_id(btf, r->type);
	if (!r || !(btf_is_enum(r) || btf_is_enum64(r)))
		return strdup("");
	for (i = 0; i < btf_vlen(r); i++) {
		const char *name;
		long long v;

		if (btf_is_enum(r)) {
			name = btf__name_by_offset(btf, btf_enum(r)[i].name_off);
			v = btf_kflag(r) ? btf_enum(r)[i].val :
					   (long long)(__u32)btf_enum(r)[i].val;
		} else {
			name = btf__name_by_offset(btf, btf_enum64(r)[i].name_off);
			v = btf_enum64_value(&btf_enum64(r)[i]);
		}
		if (asprintf(&more, "%s%s%s=%lld", buf ?: "", buf ? "," : "", name, v) < 0) {
			free(buf);
			return NULL;
		}
		free(buf);
		buf = more;
	}
	return buf ?: strdup("");
}

/*
 * Whether a fexit or tp_btf program may load argument type_id from its context: the
 * verifier takes scalars, and pointers to void, integers, structs and unions only ("arg1
 * type FUNC_PROTO is not a struct"). A raw tracepoint's context is plain u64s.
 */
static bool ctx_readable(const struct btf *btf, __u32 type_id)
{
	const struct btf_type *r = btf__type_by_id(btf, type_id);

	while (r && (btf_is_typedef(r) || btf_is_mod(r) || btf_is_type_tag(r)))
		r = btf__type_by_id(btf, r->type);
	if (!r || !btf_is_ptr(r) || !r->type)
		return true;
	r = btf__type_by_id(btf, r->type);
	while (r && (btf_is_typedef(r) || btf_is_mod(r) || btf_is_type_tag(r)))
		r = btf__type_by_id(btf, r->type);
	return r && (btf_is_int(r) || btf_is_struct(r) || btf_is_union(r));
}

static bool is_aggregate(const struct btf *btf, __u32 type_id)
{
	const struct btf_type *r = btf__type_by_id(btf, type_id);

	while (r && (btf_is_typedef(r) || btf_is_mod(r) || btf_is_type_tag(r)))
		r = btf__type_by_id(btf, r->type);
	return r && (btf_is_struct(r) || btf_is_union(r));
}

bool btf_types__ret_in_memory(const struct btf *btf, const struct btf_type *proto)
{
	/* kernel C has no C++ copy semantics: the size alone decides (class MEMORY) */
	return is_aggregate(btf, proto->type) && btf__resolve_size(btf, proto->type) > 16;
}

int btf_types__args(const struct btf *btf, const struct btf_type *proto, int first,
		    enum btf_args_from from, struct attach_arg *args, __u32 *nr)
{
	const struct btf_param *p = btf_params(proto);
	int i, n = btf_vlen(proto);

	/*
	 * registers: a struct returned in memory takes rdi for its address, and the kprobe
	 * program reads the arguments from rdi on, so it records none
	 */
	if (from == BTF_ARGS_REGS && btf_types__ret_in_memory(btf, proto))
		return 0;
	for (i = first; i < n && *nr < LBRSNAP_MAX_ARGS; i++) {
		struct attach_arg *a = &args[*nr];

		/* a varargs prototype ends in a void parameter */
		if (!p[i].type)
			break;
		a->kind = btf_types__value(btf, p[i].type, true, &a->size);
		/*
		 * a kprobe reads registers: an aggregate passed by value takes a register or
		 * two, or the stack, so the arguments from it on are not where they would be
		 */
		if (from == BTF_ARGS_REGS && !a->kind && is_aggregate(btf, p[i].type)) {
			a->kind = 0;
			break;
		}
		/* not captured: the program never loads it (a function pointer, a char **) */
		if (from == BTF_ARGS_CTX && !ctx_readable(btf, p[i].type))
			a->kind = LBRSNAP_RET_NONE;
		a->name = strdup(btf__name_by_offset(btf, p[i].name_off) ?: "");
		a->type = btf_types__name(btf, p[i].type);
		a->enums = btf_types__enums(btf, p[i].type);
		(*nr)++;
		if (!a->name || !a->type || !a->enums)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The prototype of tracepoint name, with the parameter names of its TP_PROTO where the
 * kernel's __bpf_trace_<name> (the function its BPF programs run behind) is in BTF;
 * btf_trace_<name>, a pointer to an unnamed prototype, otherwise.
 */
const struct btf_type *btf_types__tp_proto(const struct btf *btf, const char *name)
{
	const struct btf_type *t;
	char tname[256];
	int id;

	snprintf(tname, sizeof(tname), "__bpf_trace_%s", name);
	id = btf__find_by_name_kind(btf, tname, BTF_KIND_FUNC);
	if (id > 0) {
		t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
		if (t && btf_is_func_proto(t))
			return t;
	}
	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	id = btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF);
	if (id < 0)
		return NULL;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_ptr(t))
		return NULL;
	t = btf__type_by_id(btf, t->type);
	return t && btf_is_func_proto(t) ? t : NULL;
}

