// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Records counted by key, one example each (group.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/group.h"

void group_key__reset(struct group_key *k)
{
	k->len = 0;
}

static int key_reserve(struct group_key *k, size_t more)
{
	size_t cap = k->cap ?: 256;
	char *buf;

	if (k->len + more <= k->cap)
		return 0;
	while (cap < k->len + more)
		cap *= 2;
	buf = realloc(k->buf, cap);
	if (!buf)
		return -ENOMEM;
	k->buf = buf;
	k->cap = cap;
	return 0;
}

void group_key__add(struct group_key *k, char tag, const void *data, size_t len)
{
	__u32 n = len;

	if (k->err)
		return;
	k->err = key_reserve(k, 1 + sizeof(n) + len);
	if (k->err)
		return;
	k->buf[k->len++] = tag;
	memcpy(k->buf + k->len, &n, sizeof(n));
	k->len += sizeof(n);
	memcpy(k->buf + k->len, data, len);
	k->len += len;
}

void group_key__add_u64(struct group_key *k, char tag, __u64 v)
{
	group_key__add(k, tag, &v, sizeof(v));
}

void group_key__add_str(struct group_key *k, char tag, const char *s)
{
	group_key__add(k, tag, s, strlen(s));
}

void group_key__free(struct group_key *k)
{
	free(k->buf);
	memset(k, 0, sizeof(*k));
}

static __u64 key_hash(const char *p, size_t len)
{
	__u64 h = 0xcbf29ce484222325ull;	/* FNV-1a, 64 bits */

	while (len--)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3ull;
	return h;
}

/* Doubles the slot array and re-inserts every group: keeps it at most half full. */
static int table_grow(struct group_table *t)
{
	size_t nr_slots = t->nr_slots ? t->nr_slots * 2 : 64, i;
	size_t *slots = calloc(nr_slots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->nr; i++) {
		size_t s = t->groups[i].hash & (nr_slots - 1);

		while (slots[s])
			s = (s + 1) & (nr_slots - 1);
		slots[s] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nr_slots = nr_slots;
	return 0;
}

int group_table__add(struct group_table *t, const struct group_key *k,
		     const struct lbr_record *rec)
{
	__u64 h = key_hash(k->buf, k->len);
	struct group *g;
	size_t s;
	int err;

	if (k->err)
		return k->err;
	if ((t->nr + 1) * 2 > t->nr_slots) {
		err = table_grow(t);
		if (err)
			return err;
	}
	for (s = h & (t->nr_slots - 1); t->slots[s]; s = (s + 1) & (t->nr_slots - 1)) {
		g = &t->groups[t->slots[s] - 1];
		if (g->hash == h && g->key_len == k->len && !memcmp(g->key, k->buf, k->len)) {
			g->count++;
			t->total++;
			return 0;
		}
	}
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct group *groups = realloc(t->groups, cap * sizeof(*groups));

		if (!groups)
			return -ENOMEM;
		t->groups = groups;
		t->cap = cap;
	}
	g = &t->groups[t->nr];
	g->key = malloc(k->len ?: 1);
	if (!g->key)
		return -ENOMEM;
	memcpy(g->key, k->buf, k->len);
	g->key_len = k->len;
	g->hash = h;
	g->count = 1;
	g->first = t->nr;
	g->example = *rec;
	t->slots[s] = ++t->nr;
	t->total++;
	return 0;
}

static int group_cmp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

void group_table__sort(struct group_table *t)
{
	/* the slots index groups by position, which sorting changes */
	free(t->slots);
	t->slots = NULL;
	t->nr_slots = 0;
	qsort(t->groups, t->nr, sizeof(*t->groups), group_cmp);
}

void group_table__free(struct group_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->groups[i].key);
	free(t->groups);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
