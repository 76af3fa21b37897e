// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/build-id.h"
#include "symbols/elf-notes.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

struct build_id_want {
	__u8 *id;
	size_t size;
};

static int build_id_note(const GElf_Nhdr *nh, const char *owner, const char *desc, void *ctx)
{
	struct build_id_want *w = ctx;
	size_t size = w->size;

	if (nh->n_type != NT_GNU_BUILD_ID || nh->n_namesz != 4 || memcmp(owner, "GNU", 4) ||
	    !nh->n_descsz)
		return 0;
	if (nh->n_descsz < size)
		size = nh->n_descsz;
	memcpy(w->id, desc, size);
	return size;
}

int build_id__from_elf(Elf *elf, __u8 *id, size_t size)
{
	struct build_id_want w = { .id = id, .size = size };

	/* build_id_note() returns the bytes copied: size 0 finds nothing */
	return elf_notes__for_each(elf, build_id_note, &w) ?: -ENOENT;
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

int build_id__debug_path(const __u8 *id, size_t len, char *buf, size_t size)
{
	const char *dir = getenv("LBRSNAP_DEBUG_DIR");
	char hex[2 * 255 + 1];
	int n;

	if (len < 2 || len > 255)
		return -EINVAL;
	build_id__hex(id, len, hex);
	/* the layout of debuginfo packages and perf: the first byte a directory */
	n = snprintf(buf, size, "%s/.build-id/%.2s/%s.debug", dir && *dir ? dir : "/usr/lib/debug",
		     hex, hex + 2);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}
