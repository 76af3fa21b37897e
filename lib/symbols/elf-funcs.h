/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The functions an ELF file's symbol tables (.symtab and .dynsym) define. */
#ifndef LBRSNAP_ELF_FUNCS_H
#define LBRSNAP_ELF_FUNCS_H

#include <gelf.h>

/* One defined function (STT_FUNC or STT_GNU_IFUNC) with a name; its symbol */
typedef int (*elf_func_fn)(const char *name, const GElf_Sym *sym, void *ctx);

/*
 * Calls fn on each defined, named function of both tables, in table order (a function both
 * tables hold comes twice); returns the first nonzero value fn returns, else 0.
 */
int elf_funcs__for_each(Elf *elf, elf_func_fn fn, void *ctx);

#endif /* LBRSNAP_ELF_FUNCS_H */
