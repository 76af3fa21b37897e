// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The functions of an ELF file's symbol tables (API in elf-funcs.h) */
#include <stddef.h>
#include "symbols/elf-funcs.h"

int elf_funcs__for_each(Elf *elf, elf_func_fn fn, void *ctx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i, n;
	int ret;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; data && i < n; i++) {
			const char *name;
			int type;

			if (!gelf_getsym(data, i, &sym) || sym.st_shndx == SHN_UNDEF)
				continue;
			type = GELF_ST_TYPE(sym.st_info);
			if (type != STT_FUNC && type != STT_GNU_IFUNC)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			ret = fn(name, &sym, ctx);
			if (ret)
				return ret;
		}
	}
	return 0;
}
