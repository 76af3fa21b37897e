// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Address symbolization: kallsyms for names, libdwfl for file:line and inlined frames.
 *
 * DWARF lookups walk a CU's DIE tree, which is slow on vmlinux, while LBR records repeat
 * the same few hundred addresses; a small direct-mapped cache keeps reports fast.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include "symbols/symbolize.h"

#define CACHE_SLOTS 4096

struct cache_slot {
	__u64 addr;
	bool valid;
	int nr_frames;
	struct symbolize_frame frames[SYMBOLIZE_MAX_FRAMES];
};

struct symbolizer {
	const struct ksyms *ks;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	__u64 slide;		/* kallsyms address - DWARF address */
	char *vmlinux;
	char *status;		/* why there is no DWARF, or NULL */
	struct cache_slot *cache;
};

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* The DWARF-side address of a symbol, from the ELF symbol table, or 0. */
static GElf_Addr elf_sym_addr(Dwfl_Module *mod, const char *name)
{
	int i, n = dwfl_module_getsymtab(mod);

	for (i = 1; i < n; i++) {
		const char *sname;
		GElf_Addr addr;
		GElf_Sym sym;

		sname = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
		if (sname && !strcmp(sname, name))
			return addr;
	}
	return 0;
}

/* The KASLR slide: where the kernel's start symbol is in kallsyms vs in the ELF. */
static void compute_slide(struct symbolizer *s)
{
	static const char *const anchors[] = { "_text", "_stext" };
	size_t i;

	for (i = 0; i < sizeof(anchors) / sizeof(anchors[0]); i++) {
		const struct ksym *k = ksyms__by_name(s->ks, anchors[i]);
		GElf_Addr a;

		if (!k)
			continue;
		a = elf_sym_addr(s->mod, anchors[i]);
		if (a) {
			s->slide = k->addr - a;
			return;
		}
	}
}

__attribute__((format(printf, 2, 3)))
static int set_status(struct symbolizer *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	free(s->status);
	va_start(ap, fmt);
	n = vasprintf(&s->status, fmt, ap);
	va_end(ap);
	if (n < 0) {
		s->status = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void close_dwfl(struct symbolizer *s)
{
	if (s->dwfl)
		dwfl_end(s->dwfl);
	s->dwfl = NULL;
	s->mod = NULL;
}

/*
 * Opens path with libdwfl. Returns 0 with DWARF in use, 1 when the file is not usable
 * (status set), or a negative errno.
 */
static int open_vmlinux(struct symbolizer *s, const char *path)
{
	Dwarf_Off next;
	Dwarf_Addr bias;
	size_t hsize;
	Dwarf *dw;
	int err;

	if (access(path, R_OK))
		return set_status(s, "cannot read %s: %s", path, strerror(errno)) ?: 1;
	s->dwfl = dwfl_begin(&offline_callbacks);
	if (!s->dwfl)
		return -ENOMEM;
	s->mod = dwfl_report_offline(s->dwfl, "kernel", path, -1);
	dwfl_report_end(s->dwfl, NULL, NULL);
	if (!s->mod) {
		err = set_status(s, "%s: %s", path, dwfl_errmsg(-1)) ?: 1;
		goto cleanup;
	}
	/* a Dwarf without a single compile unit has no line to give */
	dw = dwfl_module_getdwarf(s->mod, &bias);
	if (!dw || dwarf_nextcu(dw, 0, &next, &hsize, NULL, NULL, NULL)) {
		err = set_status(s, "%s has no DWARF debug info (a -dbg package's vmlinux has it)",
				 path) ?: 1;
		goto cleanup;
	}
	s->vmlinux = strdup(path);
	if (!s->vmlinux) {
		err = -ENOMEM;
		goto cleanup;
	}
	compute_slide(s);
	return 0;
cleanup:
	close_dwfl(s);
	return err;
}

/* Where distributions put the debug vmlinux of release rel (Debian's -dbg package first). */
static int find_default_vmlinux(struct symbolizer *s, const char *rel)
{
	static const char *const fmts[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
	};
	char path[512];
	size_t i;
	int err;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		snprintf(path, sizeof(path), fmts[i], rel);
		if (access(path, F_OK))
			continue;
		err = open_vmlinux(s, path);
		if (err <= 0)
			return err;
	}
	if (s->status)
		return 0;
	return set_status(s, "no kernel debug info for %s (no /usr/lib/debug/boot/vmlinux-%s; "
			  "install linux-image-%s-dbg or pass --vmlinux): symbols only",
			  rel, rel, rel);
}

int symbolizer__new(const struct ksyms *ks, const char *vmlinux, const char *release,
		    struct symbolizer **out)
{
	struct symbolizer *s;
	struct utsname uts;
	int err;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->ks = ks;
	if (vmlinux) {
		err = open_vmlinux(s, vmlinux);
		err = err > 0 ? 0 : err;
	} else {
		if (!release) {
			uname(&uts);
			release = uts.release;
		}
		err = find_default_vmlinux(s, release);
	}
	if (!err && s->mod) {
		s->cache = calloc(CACHE_SLOTS, sizeof(*s->cache));
		if (!s->cache)
			err = -ENOMEM;
	}
	if (err) {
		symbolizer__free(s);
		return err;
	}
	*out = s;
	return 0;
}

void symbolizer__free(struct symbolizer *s)
{
	if (!s)
		return;
	close_dwfl(s);
	free(s->cache);
	free(s->vmlinux);
	free(s->status);
	free(s);
}

const char *symbolizer__dwarf_status(const struct symbolizer *s)
{
	return s->mod ? NULL : s->status;
}

const char *symbolizer__vmlinux(const struct symbolizer *s)
{
	return s->mod ? s->vmlinux : NULL;
}

/* file relative to the CU's build directory when below it: kernel paths are long */
static const char *short_path(Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir;
	size_t n;

	if (!file)
		return NULL;
	dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	if (dir) {
		n = strlen(dir);
		if (n && !strncmp(file, dir, n) && file[n] == '/')
			file += n + 1;
	}
	while (!strncmp(file, "./", 2))
		file += 2;
	return file;
}

static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word idx;
	size_t nfiles;

	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &idx))
		return NULL;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return NULL;
	return short_path(cu, dwarf_filesrc(files, idx, NULL, NULL));
}

/*
 * The source position of faddr and the chain of inlined calls around it, innermost first.
 * Returns the number of frames (0 when DWARF does not cover faddr).
 */
static int dwarf_frames(struct symbolizer *s, Dwarf_Addr faddr, struct symbolize_frame *fr)
{
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr bias = 0;
	Dwfl_Line *line;
	Dwarf_Word w;
	Dwarf_Attribute attr;
	int i, n, nr = 0, lineno = 0;
	const char *file;

	cu = dwfl_module_addrdie(s->mod, faddr, &bias);
	line = dwfl_module_getsrc(s->mod, faddr);
	if (!cu || !line)
		return 0;
	file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (!file)
		return 0;
	fr[0].func = NULL;
	fr[0].file = short_path(cu, file);
	fr[0].line = lineno;
	nr = 1;
	/*
	 * dwarf_getscopes() continues past an inlined instance with its abstract definition's
	 * scopes; the physical containment of the innermost DIE gives the real callers.
	 */
	n = dwarf_getscopes(cu, faddr - bias, &scopes);
	if (n > 0) {
		Dwarf_Die inner = scopes[0];

		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&inner, &scopes);
	}
	for (i = 0; i < n && nr <= SYMBOLIZE_MAX_FRAMES; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		fr[nr - 1].func = dwarf_diename(&scopes[i]);
		if (tag == DW_TAG_subprogram || nr == SYMBOLIZE_MAX_FRAMES)
			break;
		/* the caller's frame: where this inlined copy was called from */
		fr[nr].func = NULL;
		fr[nr].file = call_file(cu, &scopes[i]);
		fr[nr].line = dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &w) ?
			      0 : (int)w;
		nr++;
	}
	free(scopes);
	return nr;
}

/*
 * A vmlinux from another build maps addresses to unrelated code, so DWARF is trusted only
 * where the ELF symbol at faddr is the kallsyms symbol: same name, or an alias that
 * kallsyms has at the same start address.
 */
static bool same_symbol(struct symbolizer *s, Dwarf_Addr faddr, const struct symbolize_loc *loc)
{
	const struct ksym *alias;
	GElf_Off off = 0;
	const char *name;
	GElf_Sym sym;

	name = dwfl_module_addrinfo(s->mod, faddr, &off, &sym, NULL, NULL, NULL);
	if (!name || off != loc->off)
		return false;
	if (!strcmp(name, loc->sym->name))
		return true;
	alias = ksyms__by_name(s->ks, name);
	return alias && alias->addr == loc->sym->addr;
}

int symbolizer__lookup(struct symbolizer *s, __u64 addr, struct symbolize_loc *loc)
{
	struct cache_slot *slot;
	Dwarf_Addr faddr;

	memset(loc, 0, sizeof(*loc));
	loc->sym = ksyms__find(s->ks, addr);
	if (!loc->sym)
		return -ENOENT;
	loc->off = addr - loc->sym->addr;
	/* source positions exist for vmlinux code only */
	if (!s->mod || loc->sym->module)
		return 0;
	slot = &s->cache[(addr ^ addr >> 12) % CACHE_SLOTS];
	if (!slot->valid || slot->addr != addr) {
		faddr = addr - s->slide;
		slot->addr = addr;
		slot->valid = true;
		slot->nr_frames = same_symbol(s, faddr, loc) ?
				  dwarf_frames(s, faddr, slot->frames) : 0;
	}
	loc->nr_frames = slot->nr_frames;
	memcpy(loc->frames, slot->frames, sizeof(loc->frames[0]) * slot->nr_frames);
	return 0;
}

char *symbolize__format(const struct symbolize_loc *loc, __u64 addr, char *buf, size_t size)
{
	const struct ksym *k = loc->sym;

	if (!k)
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
	else if (k->module && strcmp(k->module, "bpf"))
		snprintf(buf, size, "%s+0x%llx [%s]", k->name, (unsigned long long)loc->off,
			 k->module);
	else
		snprintf(buf, size, "%s+0x%llx", k->name, (unsigned long long)loc->off);
	return buf;
}
