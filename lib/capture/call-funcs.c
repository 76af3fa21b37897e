// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The functions of a --calls scope (API in call-funcs.h) */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capture/call-funcs.h"
#include "capture/dwarf-types.h"
#include "symbols/elf-funcs.h"

struct named_addr {
	char *name;
	__u64 addr;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct named_addr *)a)->name, ((const struct named_addr *)b)->name);
}

/* names[first..] in name order, each keeping its address */
int call_funcs__sort(struct call_funcs *cf, size_t first)
{
	size_t i, n = cf->nr - first;
	struct named_addr *v = calloc(n ?: 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = (struct named_addr){ cf->names[first + i], cf->addrs[first + i] };
	qsort(v, n, sizeof(*v), cmp_name);
	for (i = 0; i < n; i++) {
		cf->names[first + i] = v[i].name;
		cf->addrs[first + i] = v[i].addr;
	}
	free(v);
	return 0;
}

static bool has_name(const struct call_funcs *cf, const char *name)
{
	size_t i;

	for (i = 0; i < cf->nr; i++) {
		if (!strcmp(cf->names[i], name))
			return true;
	}
	return false;
}

/* addr: the symbol's value, which picks the function's own DIE (0: by name) */
int call_funcs__add(struct call_funcs *cf, const char *name, __u64 addr)
{
	__u64 *a;
	char **v;

	if (has_name(cf, name))
		return 0;
	if (cf->nr >= LBRSNAP_MAX_FUNCS)
		return -E2BIG;
	a = realloc(cf->addrs, (cf->nr + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	cf->addrs = a;
	a[cf->nr] = addr;
	v = realloc(cf->names, (cf->nr + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	cf->names = v;
	v[cf->nr] = strdup(name);
	if (!v[cf->nr])
		return -ENOMEM;
	cf->nr++;
	return 0;
}

struct glob_match {
	struct call_funcs *cf;
	const char *glob;
	long found;
};

static int glob_match__sym(const char *name, const GElf_Sym *sym, void *ctx)
{
	struct glob_match *gm = ctx;

	/* an IFUNC symbol is its resolver, not the code that runs */
	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || fnmatch(gm->glob, name, 0))
		return 0;
	gm->found++;
	return call_funcs__add(gm->cf, name, sym->st_value);
}

/* Every defined function of the file's symbol tables that glob matches; the count */
static long match_glob(struct call_funcs *cf, const char *glob, void *elf, char *err,
		       size_t err_len)
{
	struct glob_match gm = { .cf = cf, .glob = glob };
	int ret = elf_funcs__for_each(elf, glob_match__sym, &gm);

	return ret ? ret : gm.found;
}

/* A function without DWARF returns a register of unknown type: never an error */
static int type_func(const char *path, const char *name, __u64 addr,
		     struct lbrsnap_call_func *t)
{
	struct dwarf_func f;
	int ret = dwarf_types__func(path, name, addr, &f);

	memset(t, 0, sizeof(*t));
	if (ret == -ENOMEM)
		return ret;
	if (!ret && f.has_ret && f.ret.size && f.ret.size <= 8) {
		t->ret_kind = f.ret.kind;
		t->ret_shift = 64 - 8 * f.ret.size;
	} else if (ret) {
		t->ret_kind = LBRSNAP_RET_UNSIGNED;
	}
	if (!ret)
		dwarf_func__free(&f);
	return 0;
}

int call_funcs__resolve(struct call_funcs *cf, const char *path, const char *scope,
			const char *spec, char *err, size_t err_len)
{
	char what[PATH_MAX + 16];
	Elf *elf = NULL;
	size_t first;
	int fd, ret;

	memset(cf, 0, sizeof(*cf));
	ret = call_funcs__add(cf, scope, 0);
	if (ret)
		return ret;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "cannot open %s: %s", path, strerror(-ret));
		return ret;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf) {
		ret = -EBADMSG;
		snprintf(err, err_len, "cannot read %s as ELF", path);
		goto out;
	}
	snprintf(what, sizeof(what), "function of %s", path);
	ret = call_funcs__add_spec(cf, spec, what, "function", match_glob, elf, err, err_len);
	if (ret)
		goto out;
	for (first = 0; first < cf->nr && !ret; first++)
		ret = type_func(path, cf->names[first], cf->addrs[first], &cf->types[first]);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	if (ret)
		call_funcs__free(cf);
	return ret;
}

int call_funcs__add_spec(struct call_funcs *cf, const char *spec, const char *what,
			 const char *none, call_funcs_match_fn match, void *ctx, char *err,
			 size_t err_len)
{
	char *list = strdup(spec), *pattern, *save = NULL;
	size_t first;
	long found;
	int ret = 0;

	if (!list)
		return -ENOMEM;
	*err = 0;
	for (pattern = strtok_r(list, ",", &save); pattern && !ret;
	     pattern = strtok_r(NULL, ",", &save)) {
		first = cf->nr;
		found = match(cf, pattern, ctx, err, err_len);
		if (found < 0) {
			ret = found;
			if (!*err)
				snprintf(err, err_len, "--calls '%s': %s", spec, ret == -E2BIG ?
					 "too many functions" : strerror(-ret));
		} else if (!found) {
			snprintf(err, err_len, "--calls '%s': no %s matches '%s'", spec, what,
				 pattern);
			ret = -EBADMSG;
		} else {
			ret = call_funcs__sort(cf, first);
		}
	}
	free(list);
	if (ret)
		return ret;
	/* function 0 is the scope's own: a trace of it alone is its record, not a call trace */
	if (cf->nr == 1) {
		snprintf(err, err_len, "--calls '%s': names no %s but the scope's own (%s)%s%s",
			 spec, none, cf->names[0], cf->nr_refused ? "; refused: " : "",
			 cf->nr_refused ? cf->refused : "");
		return -EBADMSG;
	}
	cf->types = calloc(cf->nr, sizeof(*cf->types));
	return cf->types ? 0 : -ENOMEM;
}

char *call_funcs__list(const struct call_funcs *cf)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < cf->nr; i++)
		len += strlen(cf->names[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (i = 0; i < cf->nr; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, cf->names[i]);
	}
	return s;
}

void call_funcs__free(struct call_funcs *cf)
{
	size_t i;

	for (i = 0; i < cf->nr; i++)
		free(cf->names[i]);
	free(cf->names);
	free(cf->addrs);
	free(cf->types);
	memset(cf, 0, sizeof(*cf));
}
