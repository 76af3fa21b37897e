// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel symbol table from kallsyms text.
 *
 * A live /proc/kallsyms has 100k-200k lines and a merge asks for a few hundred of them, so
 * the text is left as it is (a capture's, mapped) and each kept line costs 16 bytes of
 * table: where memory is first touched at a fault per page, the table's pages are most of
 * a merge's fixed cost. A symbol's struct ksym, with its name NUL-ended, is made when it is
 * first asked for. Only text symbols (t, T, w, W) are kept: branch and stack addresses are
 * code addresses, and data symbols between two functions would cut their sizes short.
 */
#include <errno.h>
#include <stdint.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/ksyms.h"

struct name_slot {
	__u32 hash;		/* full hash: most probes end without a name comparison */
	__u32 idx;		/* index + 1, 0 = empty slot */
};

/*
 * Lookups by address, direct-mapped: a capture's records name the same few hundred
 * addresses (the tracing path, the syscall entry) again and again, each a binary search of
 * 100k+ symbols otherwise.
 */
#define KSYMS_CACHE	1024

/*
 * Lookups by name before the hash is built: the merges ask for a handful of names (_text,
 * _etext, the attach points' targets), and hashing 100k+ names costs them more than a few
 * linear scans of the table.
 */
#define KSYMS_SCANS	16

/* Bytes of the arena's blocks, which hold the symbols handed out and their names */
#define KSYMS_ARENA	(64 << 10)

struct addr_slot {
	__u64 addr;
	const struct ksym *sym;	/* NULL: empty (lookups that find nothing are not kept) */
};

/*
 * A kept line of the text: its address, where its name starts, its module. 16 bytes where
 * a struct ksym and a NUL-split copy of the line take 80: a merge asks for a few hundred
 * of 100k+ symbols, and every page of a table written whole is a fault.
 */
struct ksym_ent {
	__u64 addr;
	__u32 off;		/* the name's offset in the text */
	__u16 mod;		/* index in mods + 1; 0: vmlinux */
	char type;
	__u8 pad;
};

/* A struct ksym handed out, by entry index: the pointer stays valid until ksyms__free() */
struct made_slot {
	__u32 idx;		/* index + 1, 0 = empty slot */
	struct ksym *sym;
};

struct arena_block {
	struct arena_block *next;
	size_t used;
	char data[];
};

struct ksyms {
	const char *text;	/* the kallsyms text; not NUL-ended */
	size_t len;
	char *own;		/* the text, where the table owns it */
	struct ksym_ent *ents;	/* sorted by address, then file order */
	size_t nr;
	char **mods;		/* module names, NUL-ended copies */
	size_t nr_mods;
	struct made_slot *made;	/* open addressing, grown at half full */
	size_t made_mask, nr_made;
	struct arena_block *arena;
	struct name_slot *hash;	/* by name, open addressing; built on demand */
	size_t hash_mask;
	size_t nr_scans;	/* lookups by name answered without the hash */
	struct addr_slot cache[KSYMS_CACHE];
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* A name ends at the tab before its module, at its line's end or at a NUL */
static size_t name_len(const struct ksyms *ks, __u32 off)
{
	const char *p = ks->text + off, *end = ks->text + ks->len, *q = p;

	while (q < end && *q != '\t' && *q != '\n' && *q)
		q++;
	return q - p;
}

/* Module names are few: consecutive lines share one, so the last added is tried first */
static int module_id(struct ksyms *ks, const char *name, size_t n, __u16 *id)
{
	size_t i;
	char **grown;

	for (i = ks->nr_mods; i-- > 0;) {
		if (!strncmp(ks->mods[i], name, n) && !ks->mods[i][n]) {
			*id = i + 1;
			return 0;
		}
	}
	if (ks->nr_mods >= 0xffff)
		return -E2BIG;
	grown = realloc(ks->mods, (ks->nr_mods + 1) * sizeof(*ks->mods));
	if (!grown)
		return -ENOMEM;
	ks->mods = grown;
	ks->mods[ks->nr_mods] = strndup(name, n);
	if (!ks->mods[ks->nr_mods])
		return -ENOMEM;
	*id = ++ks->nr_mods;
	return 0;
}

/*
 * Parses the line [p, end) "ADDR TYPE NAME[\t[MODULE]]" (end: its newline, its first NUL
 * or the text's end); fills e and returns 1 when it is a kept symbol, 0 when not, or a
 * negative errno.
 */
static int parse_line(struct ksyms *ks, const char *p, const char *end, struct ksym_ent *e)
{
	const char *name, *mod, *close;
	__u64 addr = 0;
	int v, digits = 0, err;

	while (p < end && (v = hexval(*p)) >= 0) {
		addr = addr << 4 | v;
		p++;
		digits++;
	}
	if (!digits || digits > 16 || end - p < 4 || p[0] != ' ' || p[2] != ' ')
		return 0;
	if (!addr || !is_text_type(p[1]))
		return 0;
	name = p + 3;
	e->addr = addr;
	e->off = name - ks->text;
	e->mod = 0;
	e->type = p[1];
	e->pad = 0;
	mod = memchr(name, '\t', end - name);
	if (!mod || ++mod >= end || *mod != '[')
		return 1;
	close = memchr(mod, ']', end - mod);
	if (!close)
		return 1;
	err = module_id(ks, mod + 1, close - mod - 1, &e->mod);
	return err ? err : 1;
}

static bool ent_before(const struct ksym_ent *x, const struct ksym_ent *y)
{
	/* names lie in the text in file order: equal addresses keep file order */
	return x->addr < y->addr || (x->addr == y->addr && x->off < y->off);
}

static int ent_cmp(const void *a, const void *b)
{
	const struct ksym_ent *x = a, *y = b;

	return ent_before(x, y) ? -1 : ent_before(y, x);
}

/*
 * kallsyms is in address order but for what was loaded late (BPF programs, some modules):
 * the sorted head stays, the tail is sorted and merged into it from the end, with a copy
 * of the tail alone for scratch.
 */
static int sort_ents(struct ksyms *ks)
{
	struct ksym_ent *tail;
	size_t head = 1, nt, i, j, w;

	while (head < ks->nr && !ent_before(&ks->ents[head], &ks->ents[head - 1]))
		head++;
	if (head >= ks->nr)
		return 0;
	nt = ks->nr - head;
	qsort(ks->ents + head, nt, sizeof(*ks->ents), ent_cmp);
	tail = malloc(nt * sizeof(*tail));
	if (!tail)
		return -ENOMEM;
	memcpy(tail, ks->ents + head, nt * sizeof(*tail));
	i = head;
	j = nt;
	w = ks->nr;
	while (j) {
		if (i && ent_before(&tail[j - 1], &ks->ents[i - 1]))
			ks->ents[--w] = ks->ents[--i];
		else
			ks->ents[--w] = tail[--j];
	}
	free(tail);
	return 0;
}

static int parse_text(struct ksyms *ks)
{
	const char *p = ks->text, *end = ks->text + ks->len, *nl, *z;
	size_t lines = 1;
	int ret;

	if (ks->len > UINT32_MAX)
		return -E2BIG;
	for (nl = p; (nl = memchr(nl, '\n', end - nl)); nl++)
		lines++;
	ks->ents = malloc(lines * sizeof(*ks->ents));
	if (!ks->ents)
		return -ENOMEM;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		/* a NUL ends the line for every purpose, as it ended a C string */
		z = memchr(p, '\0', nl - p);
		ret = parse_line(ks, p, z ? z : nl, &ks->ents[ks->nr]);
		if (ret < 0)
			return ret;
		ks->nr += ret;
	}
	/* no text symbol with an address: kptr_restrict hid them, or not kallsyms */
	if (!ks->nr)
		return -ENODATA;
	return sort_ents(ks);
}

static int parse(const char *text, size_t len, char *own, struct ksyms **out)
{
	struct ksyms *ks;
	int err;

	*out = NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		free(own);
		return -ENOMEM;
	}
	ks->text = text;
	ks->len = len;
	ks->own = own;
	err = parse_text(ks);
	if (err) {
		ksyms__free(ks);
		return err;
	}
	*out = ks;
	return 0;
}

int ksyms__parse(const char *text, size_t len, struct ksyms **out)
{
	char *own = malloc(len ? len : 1);

	*out = NULL;
	if (!own)
		return -ENOMEM;
	memcpy(own, text, len);
	return parse(own, len, own, out);
}

int ksyms__parse_borrowed(const char *text, size_t len, struct ksyms **out)
{
	return parse(text, len, NULL, out);
}

static void *arena_alloc(struct ksyms *ks, size_t size)
{
	struct arena_block *b = ks->arena;

	size = (size + 7) & ~(size_t)7;
	if (!b || b->used + size > KSYMS_ARENA) {
		b = malloc(sizeof(*b) + (size > KSYMS_ARENA ? size : KSYMS_ARENA));
		if (!b)
			return NULL;
		b->next = ks->arena;
		b->used = 0;
		ks->arena = b;
	}
	b->used += size;
	return b->data + b->used - size;
}

/* The slot of key (entry index + 1) in t, of mask + 1 slots: its own, or the free one it takes */
static struct made_slot *made_find(struct made_slot *t, size_t mask, __u32 key)
{
	size_t slot = key * 2654435761u & mask;

	while (t[slot].idx && t[slot].idx != key)
		slot = (slot + 1) & mask;
	return &t[slot];
}

static int made_grow(struct ksyms *ks)
{
	size_t cap = ks->made ? (ks->made_mask + 1) * 2 : 256, i;
	struct made_slot *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; ks->made && i <= ks->made_mask; i++) {
		if (ks->made[i].idx)
			*made_find(n, cap - 1, ks->made[i].idx) = ks->made[i];
	}
	free(ks->made);
	ks->made = n;
	ks->made_mask = cap - 1;
	return 0;
}

/*
 * The struct ksym of entry i, made on first use: its size is the distance to the next
 * higher address (every alias of a group gets the same), 0 for the last group. NULL
 * without memory.
 */
static const struct ksym *sym_at(const struct ksyms *cks, size_t i)
{
	/* what is handed out is no part of the table's value: a const table makes it too */
	struct ksyms *ks = (struct ksyms *)cks;
	const struct ksym_ent *e = &ks->ents[i];
	struct made_slot *ms;
	size_t j = i + 1, n;
	struct ksym *k;
	char *name;

	if (ks->made) {
		ms = made_find(ks->made, ks->made_mask, i + 1);
		if (ms->idx)
			return ms->sym;
	}
	if ((ks->nr_made + 1) * 2 > (ks->made ? ks->made_mask + 1 : 0) && made_grow(ks))
		return NULL;
	n = name_len(ks, e->off);
	k = arena_alloc(ks, sizeof(*k) + n + 1);
	if (!k)
		return NULL;
	name = (char *)(k + 1);
	memcpy(name, ks->text + e->off, n);
	name[n] = '\0';
	while (j < ks->nr && ks->ents[j].addr == e->addr)
		j++;
	k->addr = e->addr;
	k->size = j < ks->nr ? ks->ents[j].addr - e->addr : 0;
	k->name = name;
	k->module = e->mod ? ks->mods[e->mod - 1] : NULL;
	k->type = e->type;
	k->trim = 0;
	/* the table may have grown since the look-up: its slot is found again */
	ms = made_find(ks->made, ks->made_mask, i + 1);
	ms->idx = i + 1;
	ms->sym = k;
	ks->nr_made++;
	return k;
}

int ksyms__read(const char *path, char **text, size_t *len_out)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = NULL, *n;
	ssize_t r;
	int fd, err = 0;

	/* /proc files report size 0, so read until EOF instead of trusting stat */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		/* one byte more: the text ends in a NUL */
		if (!buf || len + 1 >= cap) {
			cap = buf ? cap * 2 : cap;
			n = realloc(buf, cap);
			if (!n) {
				err = -ENOMEM;
				goto cleanup;
			}
			buf = n;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto cleanup;
		}
		if (!r)
			break;
		len += r;
	}
	buf[len] = 0;
	*text = buf;
	*len_out = len;
	buf = NULL;
cleanup:
	free(buf);
	close(fd);
	return err;
}

static struct {
	char *text;
	size_t len;
	int err;
	bool read;
} live;

int ksyms__live_text(const char **text, size_t *len)
{
	if (!live.read) {
		live.err = ksyms__read("/proc/kallsyms", &live.text, &live.len);
		live.read = true;
	}
	*text = live.text;
	*len = live.len;
	return live.err;
}

void ksyms__live_drop(void)
{
	free(live.text);
	memset(&live, 0, sizeof(live));
}

int ksyms__load(const char *path, struct ksyms **out)
{
	size_t len;
	char *buf;
	int err;

	*out = NULL;
	err = ksyms__read(path, &buf, &len);
	if (err)
		return err;
	return parse(buf, len, buf, out);
}

void ksyms__free(struct ksyms *ks)
{
	struct arena_block *b;
	size_t i;

	if (!ks)
		return;
	while ((b = ks->arena)) {
		ks->arena = b->next;
		free(b);
	}
	for (i = 0; i < ks->nr_mods; i++)
		free(ks->mods[i]);
	free(ks->mods);
	free(ks->made);
	free(ks->hash);
	free(ks->ents);
	free(ks->own);
	free(ks);
}

const struct ksym *ksyms__find(const struct ksyms *ks, __u64 addr)
{
	/* the cache is no part of the table's value: a const table fills it all the same */
	struct addr_slot *c;
	size_t lo = 0, hi;

	if (!ks || !ks->nr || addr < ks->ents[0].addr)
		return NULL;
	c = (struct addr_slot *)&ks->cache[(addr ^ addr >> 10 ^ addr >> 20) & (KSYMS_CACHE - 1)];
	if (c->sym && c->addr == addr)
		return c->sym;
	hi = ks->nr;
	/* invariant: ents[lo].addr <= addr, and ents[hi].addr > addr (or hi == nr) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->ents[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	while (lo > 0 && ks->ents[lo - 1].addr == ks->ents[lo].addr)
		lo--;
	c->sym = sym_at(ks, lo);
	c->addr = addr;
	return c->sym;
}

/* Whether entry i's name is name (n bytes, no tab, newline or NUL in it) */
static bool name_is(const struct ksyms *ks, size_t i, const char *name, size_t n)
{
	__u32 off = ks->ents[i].off;

	return ks->len - off >= n && !memcmp(ks->text + off, name, n) &&
	       name_len(ks, off) == n;
}

static __u32 name_hash(const char *s, size_t n)
{
	__u32 h = 2166136261u;	/* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int build_hash(struct ksyms *ks)
{
	size_t cap = 16, i;

	while (cap < ks->nr * 2)
		cap <<= 1;
	ks->hash = calloc(cap, sizeof(*ks->hash));
	if (!ks->hash)
		return -ENOMEM;
	ks->hash_mask = cap - 1;
	/* in address order, so that the first symbol of a name stays the one found */
	for (i = 0; i < ks->nr; i++) {
		const char *name = ks->text + ks->ents[i].off;
		size_t n = name_len(ks, ks->ents[i].off);
		__u32 h = name_hash(name, n);
		size_t slot = h & ks->hash_mask;
		struct name_slot *e;

		while ((e = &ks->hash[slot])->idx) {
			if (e->hash == h && name_is(ks, e->idx - 1, name, n))
				break;
			slot = (slot + 1) & ks->hash_mask;
		}
		if (!e->idx) {
			e->hash = h;
			e->idx = i + 1;
		}
	}
	return 0;
}

/* address order: the first symbol of a name is the one the hash would find */
static const struct ksym *by_name_scan(struct ksyms *ks, const char *name, size_t n)
{
	size_t i;

	ks->nr_scans++;
	for (i = 0; i < ks->nr; i++) {
		if (ks->text[ks->ents[i].off] == name[0] && name_is(ks, i, name, n))
			return sym_at(ks, i);
	}
	return NULL;
}

const struct ksym *ksyms__by_name(const struct ksyms *ks, const char *name)
{
	const struct name_slot *e;
	size_t slot, n;
	__u32 h;

	if (!ks || !name)
		return NULL;
	n = strlen(name);
	/* a name with a tab or a newline in it is no kallsyms name */
	if (strcspn(name, "\t\n") != n)
		return NULL;
	/* the hash is no part of the table's value: a const table builds it all the same */
	if (!ks->hash && ks->nr_scans >= KSYMS_SCANS)
		build_hash((struct ksyms *)ks);	/* without memory, the scans go on */
	if (!ks->hash)
		return by_name_scan((struct ksyms *)ks, name, n);
	h = name_hash(name, n);
	slot = h & ks->hash_mask;
	while ((e = &ks->hash[slot])->idx) {
		if (e->hash == h && name_is(ks, e->idx - 1, name, n))
			return sym_at(ks, e->idx - 1);
		slot = (slot + 1) & ks->hash_mask;
	}
	return NULL;
}

size_t ksyms__count(const struct ksyms *ks)
{
	return ks ? ks->nr : 0;
}

const struct ksym *ksyms__at(const struct ksyms *ks, size_t i)
{
	return ks && i < ks->nr ? sym_at(ks, i) : NULL;
}

const char *ksyms__module_at(const struct ksyms *ks, size_t i)
{
	return ks && i < ks->nr && ks->ents[i].mod ? ks->mods[ks->ents[i].mod - 1] : NULL;
}
