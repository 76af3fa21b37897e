// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "build-id.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

int build_id__from_elf(Elf *elf, __u8 *id, size_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		size_t off = 0, name_off, desc_off;
		Elf_Data *data;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off))) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)data->d_buf + name_off, "GNU", 4) || !nh.n_descsz)
				continue;
			if (nh.n_descsz < size)
				size = nh.n_descsz;
			memcpy(id, (char *)data->d_buf + desc_off, size);
			return size;
		}
	}
	return -ENOENT;
}

int build_id__read(const char *path, __u8 *id, size_t size)
{
	int fd, ret;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ret = elf && elf_kind(elf) == ELF_K_ELF ? build_id__from_elf(elf, id, size) : -ENOEXEC;
	elf_end(elf);
	close(fd);
	return ret;
}

char *build_id__hex(const __u8 *id, size_t len, char *buf)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(buf + 2 * i, "%02x", id[i]);
	buf[2 * len] = 0;
	return buf;
}
