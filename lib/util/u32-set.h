/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef LBRSNAP_U32_SET_H
#define LBRSNAP_U32_SET_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

/*
 * A set of u32 (pids, tids) by open addressing, kept at most half full: the merges ask it
 * once per record, and its memory grows with the tasks, not the records. 0 marks an empty
 * slot, so the key 0 is a flag of its own. Zero-initialised is empty.
 */
struct u32_set {
	__u32 *slots;
	size_t nr, cap;
	bool has_zero;
};

static inline size_t u32_set__slot(const __u32 *slots, size_t cap, __u32 v)
{
	size_t i;

	for (i = (v * 2654435761u) & (cap - 1); slots[i] && slots[i] != v; i = (i + 1) & (cap - 1))
		;
	return i;
}

static inline bool u32_set__has(const struct u32_set *s, __u32 v)
{
	if (!v)
		return s->has_zero;
	return s->nr && s->slots[u32_set__slot(s->slots, s->cap, v)] == v;
}

/* Adds v: 1 if it was there already, 0 if added, -ENOMEM */
static inline int u32_set__add(struct u32_set *s, __u32 v)
{
	size_t cap, i;
	__u32 *tab;

	if (!v) {
		if (s->has_zero)
			return 1;
		s->has_zero = true;
		return 0;
	}
	if (u32_set__has(s, v))
		return 1;
	if (2 * (s->nr + 1) > s->cap) {
		cap = s->cap ? 2 * s->cap : 256;
		tab = calloc(cap, sizeof(*tab));
		if (!tab)
			return -ENOMEM;
		for (i = 0; i < s->cap; i++) {
			if (s->slots[i])
				tab[u32_set__slot(tab, cap, s->slots[i])] = s->slots[i];
		}
		free(s->slots);
		s->slots = tab;
		s->cap = cap;
	}
	s->slots[u32_set__slot(s->slots, s->cap, v)] = v;
	s->nr++;
	return 0;
}

/* Empties the set, keeping its slots for the next pass */
static inline void u32_set__clear(struct u32_set *s)
{
	if (s->slots)
		memset(s->slots, 0, s->cap * sizeof(*s->slots));
	s->nr = 0;
	s->has_zero = false;
}

static inline void u32_set__free(struct u32_set *s)
{
	free(s->slots);
	*s = (struct u32_set){};
}

#endif /* LBRSNAP_U32_SET_H */
