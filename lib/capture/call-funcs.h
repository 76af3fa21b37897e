/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * --calls SPEC: the functions a scope traces. Phase 1 has one kind of scope, a user
 * function's return (uretprobe:PATH:F): SPEC names functions of PATH, as -e names kernel
 * functions (globs, comma lists: 'mid,*_leaf'), found in the file's symbol tables and typed
 * from its DWARF. Function 0 is the scope's own, F; the others follow in symbol-name order.
 * Kernel scopes (fexit:F, kretprobe:F, raw_tp:sys_exit) name kernel functions, resolved
 * against the kernel's BTF and typed from it (call-funcs-kernel.c).
 */
#ifndef LBRSNAP_CALL_FUNCS_H
#define LBRSNAP_CALL_FUNCS_H

#include <stddef.h>
#include <linux/types.h>
#include "capture.h"

struct btf;

struct call_funcs {
	char **names;			/* names[0]: the scope's function */
	__u64 *addrs;			/* each one's symbol value (names[0]: 0, by name);
					 * kernel functions: each one's BTF FUNC id */
	struct lbrsnap_call_func *types;	/* each one's return type */
	size_t nr;
	/* kernel functions a glob matched but tracing refuses (-v names them) */
	size_t nr_refused;
	char refused[256];		/* "name (why), ..." as far as it fits */
};

/*
 * Resolves spec against the ELF file at path, F being the scope's function. Returns 0, or a
 * negative errno with a message naming the bad part in err: -EBADMSG for a pattern that
 * matches no function of the file (a usage error), -E2BIG past LBRSNAP_MAX_FUNCS.
 */
int call_funcs__resolve(struct call_funcs *cf, const char *path, const char *scope,
			const char *spec, char *err, size_t err_len);
/*
 * Resolves spec against the kernel's BTF: FUNCs that ftrace can hook (listed once in
 * available_filter_functions), that a trampoline can take (libbpf's traceable rules) and that
 * are not in the denied set (functions the tracing itself runs, noreturn ones). scope is F,
 * or for raw_tp:sys_exit NULL (function 0 is then the syscall, "syscall" in the list). A
 * named function refused is an error (-EBADMSG); a glob's is left out and counted.
 */
int call_funcs__resolve_kernel(struct call_funcs *cf, const struct btf *btf, const char *scope,
			       const char *spec, char *err, size_t err_len);
/* Shared by both resolvers: add a name once (-E2BIG past the bound), sort names[first..] */
int call_funcs__add(struct call_funcs *cf, const char *name, __u64 addr);
int call_funcs__sort(struct call_funcs *cf, size_t first);
/*
 * Match one pattern of a SPEC: add what it names (call_funcs__add) and return how many it
 * matched, or a negative errno, with err written where the matcher has the better message.
 */
typedef long (*call_funcs_match_fn)(struct call_funcs *cf, const char *pattern, void *ctx,
				    char *err, size_t err_len);
/*
 * Shared by both resolvers: every pattern of spec (a comma list) through match, each one's
 * functions in name order, then cf->types allocated (zeroed) for the resolver to fill. what
 * says where a pattern that matches nothing was looked for ("kernel function": "no kernel
 * function matches 'x*'"), none what a spec naming only the scope's own function lacks
 * ("traceable function": "names no traceable function but the scope's own"); both are
 * -EBADMSG.
 */
int call_funcs__add_spec(struct call_funcs *cf, const char *spec, const char *what,
			 const char *none, call_funcs_match_fn match, void *ctx, char *err,
			 size_t err_len);
/* "F,A,B": the names in id order, as the capture's META keeps them (malloc'ed) */
char *call_funcs__list(const struct call_funcs *cf);
void call_funcs__free(struct call_funcs *cf);

#endif /* LBRSNAP_CALL_FUNCS_H */
