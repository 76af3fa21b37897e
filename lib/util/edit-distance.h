/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* How far apart two names are, for "did you mean" lists in error messages. */
#ifndef LBRSNAP_EDIT_DISTANCE_H
#define LBRSNAP_EDIT_DISTANCE_H

#include <stddef.h>

/* Levenshtein distance; (size_t)-1 for names of 128 characters or more. */
size_t edit_distance(const char *a, const char *b);

#endif /* LBRSNAP_EDIT_DISTANCE_H */
