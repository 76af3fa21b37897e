/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* How far apart two names are, for "did you mean" lists in error messages. */
#ifndef LBRSNAP_EDIT_DISTANCE_H
#define LBRSNAP_EDIT_DISTANCE_H

#include <stddef.h>

/* Levenshtein distance; (size_t)-1 for names of 128 characters or more. */
size_t edit_distance(const char *a, const char *b);

/* The three closest distinct candidates seen, closest first (ties: the first seen). */
struct closest_names {
	const char *name[3];
	size_t dist[3];
};

void closest_names__init(struct closest_names *c);
/* Considers candidate cand at distance d. */
void closest_names__add(struct closest_names *c, const char *cand, size_t d);

#endif /* LBRSNAP_EDIT_DISTANCE_H */
