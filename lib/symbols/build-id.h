/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The GNU build id of an ELF file (its NT_GNU_BUILD_ID note). */
#ifndef LBRSNAP_BUILD_ID_H
#define LBRSNAP_BUILD_ID_H

#include <stddef.h>
#include <linux/types.h>
#include <libelf.h>

/* Copies up to size bytes of elf's build id into id; returns its length, or -ENOENT. */
int build_id__from_elf(Elf *elf, __u8 *id, size_t size);
/* The same for the file at path; -errno when it cannot be read as ELF. */
int build_id__read(const char *path, __u8 *id, size_t size);
/* Hex text of id (2 * len + 1 bytes of buf); returns buf. */
char *build_id__hex(const __u8 *id, size_t len, char *buf);

/*
 * The separate debug file of build id id as debuginfo packages install it and perf looks
 * for it: DIR/.build-id/xx/rest.debug, DIR $LBRSNAP_DEBUG_DIR or /usr/lib/debug.
 * Returns 0, or -EINVAL for an id too short, -ENAMETOOLONG when buf is too small.
 */
int build_id__debug_path(const __u8 *id, size_t len, char *buf, size_t size);

#endif /* LBRSNAP_BUILD_ID_H */
