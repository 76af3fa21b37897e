/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * --calls SPEC: the functions a scope traces. Phase 1 has one kind of scope, a user
 * function's return (uretprobe:PATH:F): SPEC names functions of PATH, as -e names kernel
 * functions (globs, comma lists: 'mid,*_leaf'), found in the file's symbol tables and typed
 * from its DWARF. Function 0 is the scope's own, F; the others follow in symbol-name order.
 * Kernel scopes (fexit:, kretprobe:, raw_tp:sys_exit) come later.
 */
#ifndef LBRSNAP_CALL_FUNCS_H
#define LBRSNAP_CALL_FUNCS_H

#include <stddef.h>
#include <linux/types.h>
#include "capture.h"

struct call_funcs {
	char **names;			/* names[0]: the scope's function */
	__u64 *addrs;			/* each one's symbol value (names[0]: 0, by name) */
	struct lbrsnap_call_func *types;	/* each one's return type */
	size_t nr;
};

/*
 * Resolves spec against the ELF file at path, F being the scope's function. Returns 0, or a
 * negative errno with a message naming the bad part in err: -EBADMSG for a pattern that
 * matches no function of the file (a usage error), -E2BIG past LBRSNAP_MAX_FUNCS.
 */
int call_funcs__resolve(struct call_funcs *cf, const char *path, const char *scope,
			const char *spec, char *err, size_t err_len);
/* "F,A,B": the names in id order, as the capture's META keeps them (malloc'ed) */
char *call_funcs__list(const struct call_funcs *cf);
void call_funcs__free(struct call_funcs *cf);

#endif /* LBRSNAP_CALL_FUNCS_H */
