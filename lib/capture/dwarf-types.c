// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* User function types from DWARF (API in dwarf-types.h). */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include "symbols/build-id.h"
#include "capture/dwarf-types.h"

#define TYPE_LEN 256

/* The type a DIE's DW_AT_type names, false for none (void) */
static bool type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, out);
}

static bool is_qualifier(int tag)
{
	return tag == DW_TAG_typedef || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
	       tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type;
}

/* Past typedefs and qualifiers; false when that leaves void */
static bool strip(Dwarf_Die *t)
{
	while (is_qualifier(dwarf_tag(t))) {
		if (!type_of(t, t))
			return false;
	}
	return true;
}

static __u64 attr_udata(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute attr;
	Dwarf_Word w = 0;

	if (dwarf_attr_integrate(die, name, &attr))
		dwarf_formudata(&attr, &w);
	return w;
}

/* The C spelling of type t (NULL: void) into buf */
static void spell(Dwarf_Die *t, char *buf, size_t len)
{
	const char *name = t ? dwarf_diename(t) : NULL, *prefix = "";
	char inner[TYPE_LEN - 16];	/* room for the qualifier or the star */
	Dwarf_Die sub;
	int tag;

	if (!t) {
		snprintf(buf, len, "void");
		return;
	}
	tag = dwarf_tag(t);
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		spell(type_of(t, &sub) ? &sub : NULL, inner, sizeof(inner));
		snprintf(buf, len, "%s%s%s", inner, inner[strlen(inner) - 1] == '*' ? "" : " ",
			 tag == DW_TAG_pointer_type ? "*" : "&");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
		spell(type_of(t, &sub) ? &sub : NULL, inner, sizeof(inner));
		prefix = tag == DW_TAG_const_type ? "const" : "volatile";
		/* a qualified pointer is qualified after its star: "char *const" */
		if (inner[strlen(inner) - 1] == '*')
			snprintf(buf, len, "%s%s", inner, prefix);
		else
			snprintf(buf, len, "%s %s", prefix, inner);
		return;
	case DW_TAG_structure_type:
		prefix = "struct ";
		break;
	case DW_TAG_union_type:
		prefix = "union ";
		break;
	case DW_TAG_enumeration_type:
		prefix = "enum ";
		break;
	default:
		break;
	}
	snprintf(buf, len, "%s%s", prefix, name ?: "(anonymous)");
}

/* An enum's enumerators as "NAME=VALUE,...", the way readers look values up */
static char *enum_names(Dwarf_Die *t)
{
	char *buf = NULL, *more;
	Dwarf_Attribute attr;
	Dwarf_Sword v;
	Dwarf_Die e;

	if (dwarf_tag(t) != DW_TAG_enumeration_type || dwarf_child(t, &e))
		return strdup("");
	do {
		if (dwarf_tag(&e) != DW_TAG_enumerator || !dwarf_attr(&e, DW_AT_const_value, &attr) ||
		    dwarf_formsdata(&attr, &v))
			continue;
		if (asprintf(&more, "%s%s%s=%lld", buf ?: "", buf ? "," : "", dwarf_diename(&e),
			     (long long)v) < 0) {
			free(buf);
			return NULL;
		}
		free(buf);
		buf = more;
	} while (!dwarf_siblingof(&e, &e));
	return buf ?: strdup("");
}

/*
 * How a value of type t is extended and printed, as btf_types__value() does for BTF:
 * integers from their size by their signedness, pointers whole, char pointers as strings
 * where strings (arguments: a return value is a pointer, its text never read); NONE for
 * what is not in one integer register (aggregates, floating point, 16-byte integers).
 */
static __u8 classify(Dwarf_Die *type, bool strings, __u8 *size)
{
	Dwarf_Die t = *type, to;
	__u64 enc;

	if (!strip(&t))
		return LBRSNAP_RET_NONE;
	switch (dwarf_tag(&t)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		*size = 8;
		if (strings && type_of(&t, &to) && strip(&to) &&
		    dwarf_tag(&to) == DW_TAG_base_type &&
		    dwarf_bytesize(&to) == 1 && dwarf_diename(&to) &&
		    !strcmp(dwarf_diename(&to), "char"))
			return LBRSNAP_ARG_STRING;
		return LBRSNAP_RET_POINTER;
	case DW_TAG_enumeration_type:
		*size = dwarf_bytesize(&t);
		if (*size < 1 || *size > 8)
			return LBRSNAP_RET_NONE;
		/* its underlying type says the sign; C enums without one are unsigned int */
		enc = type_of(&t, &to) && strip(&to) ? attr_udata(&to, DW_AT_encoding) : 0;
		return enc == DW_ATE_signed ? LBRSNAP_RET_SIGNED : LBRSNAP_RET_UNSIGNED;
	case DW_TAG_base_type:
		*size = dwarf_bytesize(&t);
		if (*size < 1 || *size > 8)
			return LBRSNAP_RET_NONE;
		enc = attr_udata(&t, DW_AT_encoding);
		if (enc == DW_ATE_boolean)
			return LBRSNAP_RET_BOOL;
		if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
			return LBRSNAP_RET_SIGNED;
		if (enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char || enc == DW_ATE_UTF)
			return LBRSNAP_RET_UNSIGNED;
		return LBRSNAP_RET_NONE;
	default:
		return LBRSNAP_RET_NONE;
	}
}

/*
 * Whether a function returns a value of type t in memory (System V x86-64 class MEMORY):
 * the caller then passes the result's address in rdi, moving every argument one register
 * on. Aggregates over 16 bytes, and those C++ passes by reference (not trivially copyable:
 * DW_CC_pass_by_reference on the type). Smaller ones come back in rax and rdx, floating
 * point in xmm0 or st0.
 */
static bool returns_in_memory(Dwarf_Die *type)
{
	Dwarf_Die t = *type;
	int tag;

	if (!strip(&t))
		return false;
	tag = dwarf_tag(&t);
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type && tag != DW_TAG_class_type)
		return false;
	return dwarf_bytesize(&t) > 16 ||
	       attr_udata(&t, DW_AT_calling_convention) == DW_CC_pass_by_reference;
}

static int value_set(struct dwarf_value *v, Dwarf_Die *type, bool strings, const char *name)
{
	char buf[TYPE_LEN];
	Dwarf_Die t;

	spell(type, buf, sizeof(buf));
	v->kind = type ? classify(type, strings, &v->size) : LBRSNAP_RET_NONE;
	v->name = strdup(name ?: "");
	v->type = strdup(buf);
	t = type ? *type : (Dwarf_Die){};
	v->enums = type && strip(&t) ? enum_names(&t) : strdup("");
	return v->name && v->type && v->enums ? 0 : -ENOMEM;
}

static void value_free(struct dwarf_value *v)
{
	free(v->name);
	free(v->type);
	free(v->enums);
	memset(v, 0, sizeof(*v));
}

struct find {
	const char *name;
	__u64 addr;		/* the symbol's address: the DIE whose code starts there */
	Dwarf_Die die;
	bool found;
};

/* Whether the code of function die starts at addr (its entry, or a range of a split one) */
static bool starts_at(Dwarf_Die *die, Dwarf_Addr addr)
{
	Dwarf_Addr lo, base, start, end;
	ptrdiff_t off = 0;

	if (!dwarf_entrypc(die, &lo))
		return lo == addr;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
		if (start == addr)
			return true;
	}
	return false;
}

static int match_func(Dwarf_Die *die, void *arg)
{
	struct find *f = arg;
	Dwarf_Attribute attr;
	Dwarf_Addr lo;
	const char *name;

	/*
	 * by address where the symbol's is known: two static functions of one name (or one
	 * whose symbol another name labels) are each typed from their own DIE
	 */
	if (f->addr) {
		if (!starts_at(die, f->addr))
			return DWARF_CB_OK;
		f->die = *die;
		f->found = true;
		return DWARF_CB_ABORT;
	}
	if (!dwarf_attr_integrate(die, DW_AT_name, &attr))
		return DWARF_CB_OK;
	name = dwarf_formstring(&attr);
	if (!name || strcmp(name, f->name))
		return DWARF_CB_OK;
	/* the definition with code, not a declaration or an inline-only abstract instance */
	if (dwarf_lowpc(die, &lo) && !dwarf_hasattr(die, DW_AT_ranges))
		return DWARF_CB_OK;
	f->die = *die;
	f->found = true;
	return DWARF_CB_ABORT;
}

/* The debug info of elf: its own, or the file its build id names (build_id__debug_path()) */
static Dwarf *open_dwarf(Elf *elf, int *fd)
{
	char path[4096];
	const unsigned char *id;
	Dwarf *dw;
	ssize_t n;

	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (dw)
		return dw;
	n = dwelf_elf_gnu_build_id(elf, (const void **)&id);
	if (n < 2 || n > 40 || build_id__debug_path(id, n, path, sizeof(path)))
		return NULL;
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	dw = dwarf_begin(*fd, DWARF_C_READ);
	if (!dw) {
		close(*fd);
		*fd = -1;
	}
	return dw;
}

static int type_func(Dwarf_Die *func, struct dwarf_func *f)
{
	Dwarf_Die type, p;
	int ret;

	if (attr_udata(func, DW_AT_calling_convention) == DW_CC_nocall)
		return -EOPNOTSUPP;
	f->has_ret = type_of(func, &type);
	if (f->has_ret) {
		f->ret_in_memory = returns_in_memory(&type);
		ret = value_set(&f->ret, &type, false, "");
		if (ret)
			return ret;
		f->has_ret = f->ret.kind != LBRSNAP_RET_NONE;
	}
	if (dwarf_child(func, &p))
		return 0;
	do {
		struct dwarf_value *v = &f->args[f->nr_args];
		Dwarf_Attribute attr;
		bool typed;

		if (dwarf_tag(&p) == DW_TAG_unspecified_parameters)
			break;
		if (dwarf_tag(&p) != DW_TAG_formal_parameter)
			continue;
		/* the hidden result pointer leaves five argument registers */
		if (f->nr_args == LBRSNAP_MAX_ARGS - (unsigned int)f->ret_in_memory)
			break;
		typed = type_of(&p, &type);
		ret = value_set(v, typed ? &type : NULL, true,
				dwarf_attr_integrate(&p, DW_AT_name, &attr) ?
				dwarf_formstring(&attr) : "");
		f->nr_args++;
		if (ret)
			return ret;
		/* a parameter not in one integer register moves the ones after it */
		if (v->kind == LBRSNAP_RET_NONE) {
			value_free(v);
			f->nr_args--;
			break;
		}
	} while (!dwarf_siblingof(&p, &p));
	return 0;
}

int dwarf_types__func(const char *path, const char *func, __u64 addr, struct dwarf_func *f)
{
	struct find fd_ = { .name = func, .addr = addr };
	Dwarf_Off off = 0, next;
	Dwarf *dw = NULL;
	int fd, dfd = -1, ret;
	size_t hsize;
	Elf *elf;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	dw = elf ? open_dwarf(elf, &dfd) : NULL;
	if (!dw) {
		ret = -ENODATA;
		goto cleanup;
	}
	while (!fd_.found && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu))
			dwarf_getfuncs(&cu, match_func, &fd_, 0);
		off = next;
	}
	ret = fd_.found ? type_func(&fd_.die, f) : -ENOENT;
	if (ret)
		dwarf_func__free(f);
cleanup:
	if (dw)
		dwarf_end(dw);
	if (dfd >= 0)
		close(dfd);
	elf_end(elf);
	close(fd);
	return ret;
}

void dwarf_func__free(struct dwarf_func *f)
{
	__u32 i;

	value_free(&f->ret);
	for (i = 0; i < f->nr_args; i++)
		value_free(&f->args[i]);
	f->nr_args = 0;
	f->has_ret = false;
	f->ret_in_memory = false;
}
