/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The parsers under fuzzing open files by path: the input goes into one memfd per process,
 * named through /proc/self/fd, so no run touches the disk.
 */
#ifndef LBRSNAP_FUZZ_FILE_H
#define LBRSNAP_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Replaces the memfd's content with data; returns its path, or aborts on a system error. */
const char *fuzz_file__write(const uint8_t *data, size_t size);
/* A NUL-terminated copy of data (free() it); aborts when out of memory. */
char *fuzz_file__str(const uint8_t *data, size_t size);

#endif /* LBRSNAP_FUZZ_FILE_H */
