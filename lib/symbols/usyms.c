// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/build-id.h"
#include "lbrfile/lbrfile.h"
#include "symbols/usyms.h"

struct usym {
	__u64 addr;		/* link-time address */
	__u64 size;
	const char *name;	/* into names */
};

struct uload {
	__u64 vaddr, offset, filesz;
};

struct ufile {
	char *path;
	bool ok;		/* an ELF file was read */
	__u8 build_id[LBRFILE_BUILD_ID_MAX];
	int build_id_len;
	struct usym *syms;
	size_t nr_syms;
	char *names;
	struct uload *loads;
	size_t nr_loads;
};

struct usyms {
	struct ufile *files;
	size_t nr_files;
};

int usyms__new(struct usyms **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void usyms__free(struct usyms *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nr_files; i++) {
		free(u->files[i].path);
		free(u->files[i].syms);
		free(u->files[i].names);
		free(u->files[i].loads);
	}
	free(u->files);
	free(u);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct usym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Function symbols of one symbol table; returns how many, or -ENOMEM */
static int read_symtab(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct ufile *uf)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, i, len = 0, cap = 0;
	GElf_Sym sym;
	const char *name;
	char *grown;

	uf->syms = calloc(n ?: 1, sizeof(*uf->syms));
	if (!uf->syms)
		return -ENOMEM;
	for (i = 0; data && i < n; i++) {
		if (!gelf_getsym(data, i, &sym) || !sym.st_value || sym.st_shndx == SHN_UNDEF)
			continue;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		    GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (len + strlen(name) + 1 > cap) {
			cap = (cap + strlen(name) + 1) * 2;
			grown = realloc(uf->names, cap);
			if (!grown)
				return -ENOMEM;
			uf->names = grown;
		}
		/* offsets now, pointers once the text stops moving */
		uf->syms[uf->nr_syms].addr = sym.st_value;
		uf->syms[uf->nr_syms].size = sym.st_size;
		uf->syms[uf->nr_syms++].name = (const char *)(uintptr_t)len;
		memcpy(uf->names + len, name, strlen(name) + 1);
		len += strlen(name) + 1;
	}
	for (i = 0; i < uf->nr_syms; i++)
		uf->syms[i].name = uf->names + (uintptr_t)uf->syms[i].name;
	qsort(uf->syms, uf->nr_syms, sizeof(*uf->syms), sym_cmp);
	return uf->nr_syms;
}

/* The section of elf's symbol table of type type, or NULL */
static Elf_Scn *find_symtab(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	}
	return NULL;
}

/*
 * The .symtab of uf's separate debug file (build-id.h), as debuginfo packages install it
 * for stripped distribution binaries: returns 1 when read, 0 when there is none or it is
 * not the file's (another build id), -ENOMEM.
 */
static int load_debug_symtab(struct ufile *uf)
{
	__u8 id[LBRFILE_BUILD_ID_MAX];
	char path[4096];
	Elf_Scn *scn;
	GElf_Shdr sh;
	int fd, ret = 0;
	Elf *elf;

	if (uf->build_id_len <= 0 ||
	    build_id__debug_path(uf->build_id, uf->build_id_len, path, sizeof(path)))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF ||
	    build_id__from_elf(elf, id, sizeof(id)) != uf->build_id_len ||
	    memcmp(id, uf->build_id, uf->build_id_len))
		goto cleanup;
	scn = find_symtab(elf, SHT_SYMTAB, &sh);
	/* a debug file's section has no data when only DWARF was kept (NOBITS) */
	if (scn && sh.sh_type == SHT_SYMTAB)
		ret = read_symtab(elf, scn, &sh, uf) < 0 ? -ENOMEM : 1;
cleanup:
	elf_end(elf);
	close(fd);
	return ret;
}

static int load_file(struct ufile *uf)
{
	Elf_Scn *scn;
	GElf_Shdr ssh;
	GElf_Phdr ph;
	size_t i, nph;
	int fd, ret = 0;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(uf->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &nph))
		goto cleanup;
	uf->ok = true;
	uf->build_id_len = build_id__from_elf(elf, uf->build_id, sizeof(uf->build_id));
	uf->loads = calloc(nph ?: 1, sizeof(*uf->loads));
	if (!uf->loads) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < nph; i++) {
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD)
			uf->loads[uf->nr_loads++] = (struct uload) {
				.vaddr = ph.p_vaddr, .offset = ph.p_offset, .filesz = ph.p_filesz,
			};
	}
	/*
	 * .symtab has every function; a stripped file keeps only the exported ones, and its
	 * separate debug file, where installed, has them all again (as perf reads them)
	 */
	scn = find_symtab(elf, SHT_SYMTAB, &ssh);
	if (!scn) {
		ret = load_debug_symtab(uf);
		if (ret) {
			ret = ret < 0 ? ret : 0;
			goto cleanup;
		}
		scn = find_symtab(elf, SHT_DYNSYM, &ssh);
	}
	if (scn)
		ret = read_symtab(elf, scn, &ssh, uf) < 0 ? -ENOMEM : 0;
cleanup:
	elf_end(elf);
	close(fd);
	return ret;
}

static struct ufile *get_file(struct usyms *u, const char *path)
{
	struct ufile *grown, *uf;
	size_t i;

	for (i = 0; i < u->nr_files; i++) {
		if (!strcmp(u->files[i].path, path))
			return &u->files[i];
	}
	grown = realloc(u->files, (u->nr_files + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	u->files = grown;
	uf = &u->files[u->nr_files];
	memset(uf, 0, sizeof(*uf));
	uf->path = strdup(path);
	if (!uf->path)
		return NULL;
	u->nr_files++;
	if (*path == '/' && load_file(uf))
		uf->nr_syms = 0;
	return uf;
}

void usyms__lookup(struct usyms *u, const struct lbrfile_map *m, const char *path, __u64 addr,
		   struct usym_loc *loc)
{
	const struct ufile *uf;
	__u64 vaddr = 0;
	size_t i, lo, hi;
	bool in_load = false;

	memset(loc, 0, sizeof(*loc));
	if (!m)
		return;
	loc->path = path;
	loc->file_off = addr - m->start + m->pgoff;
	uf = get_file(u, path);
	if (!uf || !uf->ok)
		return;
	if (m->build_id_size && (uf->build_id_len != m->build_id_size ||
				 memcmp(uf->build_id, m->build_id, m->build_id_size))) {
		loc->mismatch = true;
		return;
	}
	/* the file offset at run time, the link-time address in the segment loading it */
	for (i = 0; i < uf->nr_loads; i++) {
		const struct uload *l = &uf->loads[i];

		if (loc->file_off >= l->offset && loc->file_off < l->offset + l->filesz) {
			vaddr = loc->file_off - l->offset + l->vaddr;
			in_load = true;
			break;
		}
	}
	if (!in_load)
		return;
	lo = 0;
	hi = uf->nr_syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (uf->syms[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return;
	i = lo - 1;
	/* a sized symbol must contain it; an unsized one (asm) takes what follows it */
	if (uf->syms[i].size && vaddr >= uf->syms[i].addr + uf->syms[i].size)
		return;
	loc->name = uf->syms[i].name;
	loc->off = vaddr - uf->syms[i].addr;
}

char *usym__format(const struct usym_loc *loc, __u64 addr, char *buf, size_t size)
{
	if (!loc->path)
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
	else if (loc->name)
		snprintf(buf, size, "%s+0x%llx (%s)", loc->name, (unsigned long long)loc->off,
			 loc->path);
	else
		snprintf(buf, size, "0x%llx (%s%s)", (unsigned long long)addr, loc->path,
			 loc->mismatch ? ", not the file mapped: build id differs" : "");
	return buf;
}

void usyms__lookup_pid(struct usyms *u, const struct lbrfile *f, __u32 pid, __u64 addr,
		       bool ret_addr, struct usym_loc *loc)
{
	__u64 at = ret_addr ? addr - 1 : addr;
	const struct lbrfile_map *m;
	struct lbr_proc p;

	memset(loc, 0, sizeof(*loc));
	/* a return address may be the first byte past its function: the call is before it */
	m = f ? lbrfile__user_map(f, pid, at, &p) : NULL;
	if (!m)
		return;
	usyms__lookup(u, m, lbr_proc__path(&p, m - p.maps), at, loc);
	if (ret_addr) {
		loc->file_off++;
		if (loc->name)
			loc->off++;
	}
}

unsigned int usyms__stack_len(const struct lbrfile *f, __u32 pid, const __u64 *ip,
			      unsigned int nr)
{
	struct lbr_proc p;
	unsigned int i;

	/* no judgement without the process's maps: gone, or the innermost frame in JIT code */
	if (!f || !nr || !lbrfile__user_map(f, pid, ip[0], &p))
		return nr;
	for (i = 1; i < nr; i++) {
		/* a return address: the call before it is in the caller's code */
		if (!ip[i] || !lbrfile__user_map(f, pid, ip[i] - 1, &p))
			return i;
	}
	return nr;
}
