// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * SDT notes (API in usdt-notes.h). Each note of owner "stapsdt", type 3, describes one
 * compiled-in probe site: three addresses (the site, .stapsdt.base, the semaphore), then
 * "provider\0name\0args\0", args being space-separated "[-]SIZE@OPERAND" specs.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/elf-notes.h"
#include "capture/usdt-notes.h"
#include "util/print.h"

#define SDT_NOTE_OWNER "stapsdt"
#define SDT_NOTE_TYPE 3

int usdt_arg__parse(const char *spec, size_t len, struct usdt_arg *a)
{
	const char *at = memchr(spec, '@', len);
	char num[8];
	long size;
	char *end;

	/* the size is mandatory here: the operand alone says nothing of the type */
	if (!at || at == spec || at - spec >= (long)sizeof(num) || at + 1 == spec + len)
		return -EINVAL;
	memcpy(num, spec, at - spec);
	num[at - spec] = 0;
	size = strtol(num, &end, 10);
	if (*end)
		return -EINVAL;
	a->is_signed = size < 0;
	if (size < 0)
		size = -size;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	a->size = size;
	return 0;
}

static int parse_args(const char *args, struct usdt_probe *p)
{
	size_t len;
	int ret;

	p->nr_args = 0;
	for (;;) {
		args += strspn(args, " ");
		if (!*args)
			return 0;
		len = strcspn(args, " ");
		if (p->nr_args == USDT_MAX_ARGS)
			return -EINVAL;
		ret = usdt_arg__parse(args, len, &p->args[p->nr_args]);
		if (ret)
			return ret;
		p->nr_args++;
		args += len;
	}
}

/* Hands each SDT note's provider, name and args to fn; stops at a nonzero return */
struct sdt_walk {
	int (*fn)(const char *prov, const char *name, const char *args, void *ctx);
	void *ctx;
};

static int sdt_note(const GElf_Nhdr *nh, const char *owner, const char *desc, void *ctx)
{
	const struct sdt_walk *w = ctx;
	const char *end = desc + nh->n_descsz, *prov, *name, *args;

	/* three addresses (pc, base, semaphore), then three NUL-terminated strings */
	if (nh->n_type != SDT_NOTE_TYPE || nh->n_namesz != sizeof(SDT_NOTE_OWNER) ||
	    memcmp(owner, SDT_NOTE_OWNER, nh->n_namesz) || nh->n_descsz < 3 * 8 + 3)
		return 0;
	prov = desc + 3 * 8;
	name = memchr(prov, 0, end - prov);
	args = name ? memchr(name + 1, 0, end - name - 1) : NULL;
	if (!args || !memchr(args + 1, 0, end - args - 1))
		return 0;
	return w->fn(prov, name + 1, args + 1, w->ctx);
}

static int for_each_note(Elf *elf, int (*fn)(const char *, const char *, const char *, void *),
			 void *ctx)
{
	struct sdt_walk w = { .fn = fn, .ctx = ctx };

	return elf_notes__for_each(elf, sdt_note, &w);
}

struct find_ctx {
	const char *provider, *name;
	struct usdt_probe *p;
	int err;
	char others[3][128];
	size_t nr_others;
};

/* Site s's arguments into the probe's: what every site has, typed to hold each site's value */
static void merge_site(struct usdt_probe *p, const struct usdt_probe *s)
{
	__u32 i;

	if (s->nr_args < p->nr_args)
		p->nr_args = s->nr_args;
	for (i = 0; i < p->nr_args; i++) {
		struct usdt_arg *a = &p->args[i];
		const struct usdt_arg *b = &s->args[i];

		if (a->size == b->size && a->is_signed == b->is_signed)
			continue;
		/* each value comes extended to 64 bits from its own site's type */
		if (a->is_signed != b->is_signed &&
		    ((!a->is_signed && a->size == 8) || (!b->is_signed && b->size == 8))) {
			p->clash = i;
			p->nr_args = i;
			break;
		}
		a->is_signed |= b->is_signed;
		a->size = 8;
	}
}

static int match_note(const char *prov, const char *name, const char *args, void *ctx)
{
	struct find_ctx *f = ctx;
	struct usdt_probe site = {};
	size_t i;

	if (!strcmp(prov, f->provider) && !strcmp(name, f->name)) {
		/* sites of one probe may pass values of different types: each is read */
		if (parse_args(args, &site)) {
			f->err = -EINVAL;
		} else if (!f->p->nr_sites) {
			f->p->nr_args = site.nr_args;
			memcpy(f->p->args, site.args, sizeof(site.args));
		} else {
			merge_site(f->p, &site);
		}
		f->p->nr_sites++;
		return 0;
	}
	for (i = 0; i < f->nr_others; i++) {
		if (!strncmp(f->others[i], prov, strlen(prov)) &&
		    f->others[i][strlen(prov)] == ':' && !strcmp(f->others[i] + strlen(prov) + 1,
								  name))
			return 0;
	}
	if (f->nr_others < 3)
		snprintf(f->others[f->nr_others++], sizeof(f->others[0]), "%s:%s", prov, name);
	return 0;
}

int usdt_notes__find(const char *path, const char *provider, const char *name,
		     struct usdt_probe *p, char *err, size_t err_len)
{
	struct find_ctx f = { .provider = provider, .name = name, .p = p };
	size_t i, used;
	Elf *elf;
	int fd, ret = 0;

	memset(p, 0, sizeof(*p));
	p->clash = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "cannot open %s: %s", path, strerror(-ret));
		return ret;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, err_len, "%s is not an ELF file", path);
		ret = -ENOEXEC;
		goto cleanup;
	}
	for_each_note(elf, match_note, &f);
	if (f.err) {
		snprintf(err, err_len, "USDT probe %s:%s in %s has an argument spec lbrsnap cannot "
			 "read", provider, name, path);
		ret = f.err;
	} else if (!p->nr_sites) {
		snprintf(err, err_len, "no USDT probe %s:%s in %s%s", provider, name, path,
			 f.nr_others ? "" : " (it has no SDT notes)");
		for (i = 0; i < f.nr_others; i++) {
			used = strlen(err);
			snprintf(err + used, err_len - used, "%s%s", i ? ", " : "; it has ",
				 f.others[i]);
		}
		ret = -ENOENT;
	} else if (p->clash >= 0) {
		pr_warn("USDT probe %s:%s in %s: arg%d is signed at one site and unsigned 64-bit "
			"at another, which no type holds: arguments from arg%d on are not "
			"recorded\n", provider, name, path, p->clash, p->clash);
	}
cleanup:
	elf_end(elf);
	close(fd);
	return ret;
}
