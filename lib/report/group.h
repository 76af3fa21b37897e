/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Grouping of records by a key, the way perf report groups samples: records with equal keys
 * are counted together and one of them is kept as the group's example.
 *
 * A key is a sequence of tagged fields (struct group_key), built by the caller from whatever
 * identifies a record (report.c: attach point, return value, trimmed path); a new field is
 * one more group_key__add() there. Fields are length-prefixed, so no two different field
 * sequences encode to the same bytes.
 *
 * Memory: one key copy and one struct lbr_record (pointers into the mapped capture) per
 * group, nothing per record.
 */
#ifndef LBRSNAP_GROUP_H
#define LBRSNAP_GROUP_H

#include <stddef.h>
#include <linux/types.h>
#include "lbrfile/lbrfile.h"

/* A key being built; reused from record to record, so it allocates only while it grows. */
struct group_key {
	char *buf;
	size_t len;
	size_t cap;
	int err;		/* first allocation failure, returned by group_table__add() */
};

struct group {
	__u64 hash;		/* FNV-1a of the key: equal for equal keys in any capture */
	char *key;
	size_t key_len;
	__u64 count;
	size_t first;		/* order of the first record: breaks ties in count */
	struct lbr_record example;	/* the group's first record */
};

struct group_table {
	struct group *groups;	/* nr, insertion order until group_table__sort() */
	size_t nr;
	size_t cap;
	size_t *slots;		/* open addressing: index + 1 into groups, 0 empty */
	size_t nr_slots;	/* a power of two */
	__u64 total;		/* records added */
};

void group_key__reset(struct group_key *k);
/* Appends one field: tag, length, then len bytes of data. */
void group_key__add(struct group_key *k, char tag, const void *data, size_t len);
void group_key__add_u64(struct group_key *k, char tag, __u64 v);
void group_key__add_str(struct group_key *k, char tag, const char *s);
void group_key__free(struct group_key *k);

/* Counts rec under key k: a new group keeps rec as its example. */
int group_table__add(struct group_table *t, const struct group_key *k,
		     const struct lbr_record *rec);
/* Orders the groups by count, largest first, equal counts by first record. */
void group_table__sort(struct group_table *t);
void group_table__free(struct group_table *t);

#endif /* LBRSNAP_GROUP_H */
