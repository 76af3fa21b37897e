/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Kernel function and tracepoint types from the kernel's BTF: C spellings, how a value is
 * extended and printed (enum lbrsnap_ret_kind, or LBRSNAP_ARG_STRING for char pointers, as
 * dwarf-types.h classifies user types), enumerator names, and a prototype's arguments as a
 * program of a given context reads them.
 */
#ifndef LBRSNAP_BTF_TYPES_H
#define LBRSNAP_BTF_TYPES_H

#include <stdbool.h>
#include <linux/types.h>
#include "capture/attach-target.h"

struct btf;
struct btf_type;

/* Where a program finds its arguments, which decides which of them it can read */
enum btf_args_from {
	BTF_ARGS_RAW,		/* plain u64s (raw_tp): every argument */
	BTF_ARGS_CTX,		/* a BTF-typed context (fexit, tp_btf): what the verifier loads */
	BTF_ARGS_REGS,		/* registers (kprobe): up to an aggregate passed by value; none
				 * when a struct is returned in memory (its address in rdi) */
};

/* The C spelling of type id as the kernel's source declares it ("struct file *"), or NULL. */
char *btf_types__name(const struct btf *btf, __u32 id);
/*
 * How a value of type id is extended and printed, its bytes in *size: LBRSNAP_RET_NONE for
 * aggregates and void; with strings, a char pointer is LBRSNAP_ARG_STRING.
 */
__u8 btf_types__value(const struct btf *btf, __u32 id, bool strings, __u8 *size);
/* An enum's enumerators as "NAME=VALUE,...", "" for any other type; NULL without memory. */
char *btf_types__enums(const struct btf *btf, __u32 id);
/* Tracepoint name's prototype (its first parameter is void *__data), or NULL. */
const struct btf_type *btf_types__tp_proto(const struct btf *btf, const char *name);
/*
 * Whether a function of prototype proto returns a struct or union in memory (System V
 * x86-64 class MEMORY: over 16 bytes), its address then a hidden argument in rdi.
 */
bool btf_types__ret_in_memory(const struct btf *btf, const struct btf_type *proto);
/*
 * Appends the parameters of proto from first on to args[*nr..], up to LBRSNAP_MAX_ARGS, as
 * a program reading them from `from` sees them. 0, or -ENOMEM.
 */
int btf_types__args(const struct btf *btf, const struct btf_type *proto, int first,
		    enum btf_args_from from, struct attach_arg *args, __u32 *nr);

#endif /* LBRSNAP_BTF_TYPES_H */
