// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stddef.h>
#include "symbols/elf-notes.h"

int elf_notes__for_each(Elf *elf, elf_note_fn fn, void *ctx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int ret;

	while ((scn = elf_nextscn(elf, scn))) {
		size_t off = 0, name_off, desc_off;
		Elf_Data *data;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		/* gelf_getnote() checks that the name and descriptor lie inside the data */
		while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			ret = fn(&nh, (const char *)data->d_buf + name_off,
				 (const char *)data->d_buf + desc_off, ctx);
			if (ret)
				return ret;
		}
	}
	return 0;
}
