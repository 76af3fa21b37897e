// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel symbol table from kallsyms text.
 *
 * A live /proc/kallsyms has 100k-200k lines, so parsing avoids sscanf and per-symbol
 * allocations: the text is copied once and split in place, names and module names point
 * into that copy. Only text symbols (t, T, w, W) are kept: branch and stack addresses are
 * code addresses, and data symbols between two functions would cut their sizes short.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/ksyms.h"

struct name_slot {
	__u32 hash;		/* full hash: most probes end without a strcmp() */
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

struct addr_slot {
	__u64 addr;
	const struct ksym *sym;	/* NULL: empty (lookups that find nothing are not kept) */
};

struct ksyms {
	char *text;		/* copy of the input, NUL-split; names point here */
	struct ksym *syms;	/* sorted by address, then file order */
	size_t nr;
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

/*
 * Parses one line "ADDR TYPE NAME[\t[MODULE]]" starting at p (already NUL-terminated at its
 * end); fills sym and returns true when the line is a kept symbol.
 */
static bool parse_line(char *p, struct ksym *sym)
{
	__u64 addr = 0;
	char *name, *mod;
	int v, digits = 0;

	while ((v = hexval(*p)) >= 0) {
		addr = addr << 4 | v;
		p++;
		digits++;
	}
	if (!digits || digits > 16 || p[0] != ' ' || !p[1] || p[2] != ' ')
		return false;
	if (!addr || !is_text_type(p[1]))
		return false;
	sym->type = p[1];
	name = p + 3;
	if (!*name)
		return false;
	sym->addr = addr;
	sym->size = 0;
	sym->name = name;
	sym->module = NULL;
	sym->trim = 0;
	mod = strchr(name, '\t');
	if (!mod)
		return true;
	*mod++ = '\0';
	if (mod[0] == '[') {
		char *end = strchr(mod, ']');

		if (end) {
			*end = '\0';
			sym->module = mod + 1;
		}
	}
	return true;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* names point into the text copy in file order: equal addresses keep file order */
	return x->name < y->name ? -1 : x->name > y->name;
}

static __u32 name_hash(const char *s)
{
	__u32 h = 2166136261u;	/* FNV-1a */

	while (*s)
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
		__u32 h = name_hash(ks->syms[i].name);
		size_t slot = h & ks->hash_mask;
		struct name_slot *e;

		while ((e = &ks->hash[slot])->idx) {
			if (e->hash == h && !strcmp(ks->syms[e->idx - 1].name, ks->syms[i].name))
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

static bool is_sorted(const struct ksyms *ks)
{
	size_t i;

	for (i = 1; i < ks->nr; i++) {
		if (ks->syms[i - 1].addr > ks->syms[i].addr)
			return false;
	}
	return true;
}

static void compute_sizes(struct ksyms *ks)
{
	size_t i = ks->nr, group_end = ks->nr;

	/* walk backwards so every symbol of an alias group gets the distance to the next address */
	while (i-- > 0) {
		if (i + 1 < ks->nr && ks->syms[i + 1].addr != ks->syms[i].addr)
			group_end = i + 1;
		ks->syms[i].size = group_end < ks->nr ?
				   ks->syms[group_end].addr - ks->syms[i].addr : 0;
	}
}

int ksyms__parse(const char *text, size_t len, struct ksyms **out)
{
	size_t cap = 0, lines = 0;
	struct ksyms *ks;
	char *p, *end;
	int err;

	*out = NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	ks->text = malloc(len + 1);
	if (!ks->text) {
		err = -ENOMEM;
		goto cleanup;
	}
	memcpy(ks->text, text, len);
	ks->text[len] = '\0';
	for (p = ks->text; (p = memchr(p, '\n', ks->text + len - p)); p++)
		lines++;
	cap = lines + 1;
	ks->syms = malloc(cap * sizeof(*ks->syms));
	if (!ks->syms) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (p = ks->text; p < ks->text + len; p = end + 1) {
		end = memchr(p, '\n', ks->text + len - p);
		if (!end)
			end = ks->text + len;
		*end = '\0';
		if (parse_line(p, &ks->syms[ks->nr]))
			ks->nr++;
	}
	if (!ks->nr) {
		/* no text symbol with an address: kptr_restrict hid them, or not kallsyms */
		err = -ENODATA;
		goto cleanup;
	}
	if (!is_sorted(ks))
		qsort(ks->syms, ks->nr, sizeof(*ks->syms), sym_cmp);
	compute_sizes(ks);
	err = 0;
cleanup:
	if (err) {
		ksyms__free(ks);
		return err;
	}
	*out = ks;
	return 0;
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
	err = ksyms__parse(buf, len, out);
	free(buf);
	return err;
}

void ksyms__free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->hash);
	free(ks->syms);
	free(ks->text);
	free(ks);
}

const struct ksym *ksyms__find(const struct ksyms *ks, __u64 addr)
{
	/* the cache is no part of the table's value: a const table fills it all the same */
	struct addr_slot *c;
	size_t lo = 0, hi;

	if (!ks || !ks->nr || addr < ks->syms[0].addr)
		return NULL;
	c = (struct addr_slot *)&ks->cache[(addr ^ addr >> 10 ^ addr >> 20) & (KSYMS_CACHE - 1)];
	if (c->sym && c->addr == addr)
		return c->sym;
	hi = ks->nr;
	/* invariant: syms[lo].addr <= addr, and syms[hi].addr > addr (or hi == nr) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	while (lo > 0 && ks->syms[lo - 1].addr == ks->syms[lo].addr)
		lo--;
	c->addr = addr;
	c->sym = &ks->syms[lo];
	return c->sym;
}

/* address order: the first symbol of a name is the one the hash would find */
static const struct ksym *by_name_scan(struct ksyms *ks, const char *name)
{
	size_t i;

	ks->nr_scans++;
	for (i = 0; i < ks->nr; i++) {
		if (ks->syms[i].name[0] == name[0] && !strcmp(ks->syms[i].name, name))
			return &ks->syms[i];
	}
	return NULL;
}

const struct ksym *ksyms__by_name(const struct ksyms *ks, const char *name)
{
	const struct name_slot *e;
	size_t slot;
	__u32 h;

	if (!ks)
		return NULL;
	/* the hash is no part of the table's value: a const table builds it all the same */
	if (!ks->hash && ks->nr_scans >= KSYMS_SCANS)
		build_hash((struct ksyms *)ks);	/* without memory, the scans go on */
	if (!ks->hash)
		return by_name_scan((struct ksyms *)ks, name);
	h = name_hash(name);
	slot = h & ks->hash_mask;
	while ((e = &ks->hash[slot])->idx) {
		if (e->hash == h && !strcmp(ks->syms[e->idx - 1].name, name))
			return &ks->syms[e->idx - 1];
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
	return ks && i < ks->nr ? &ks->syms[i] : NULL;
}
