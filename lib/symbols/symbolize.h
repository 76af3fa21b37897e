/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Kernel address -> "sym+0xoff", plus source file:line and inlined frames from a vmlinux
 * with DWARF when one is available (libdw).
 *
 * Symbols come from kallsyms (the copy stored in a capture, or a file). DWARF addresses are
 * link-time addresses; the KASLR slide is the difference between _text (or _stext) in
 * kallsyms and in the vmlinux ELF. Only vmlinux addresses get source positions: modules and
 * BPF programs ("[bpf]") stay symbol-only.
 */
#ifndef LBRSNAP_SYMBOLIZE_H
#define LBRSNAP_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "symbols/ksyms.h"

#define SYMBOLIZE_MAX_FRAMES 8

/* A source position: function name, file, line. */
struct symbolize_frame {
	const char *func;	/* NULL if DWARF has no name */
	const char *file;
	int line;
};

struct symbolize_loc {
	const struct ksym *sym;	/* NULL: address outside every known symbol */
	__u64 off;		/* addr - sym->addr */
	/*
	 * Source positions, innermost first: frames[0] is where addr is (inside the innermost
	 * inlined function), frames[i + 1] is the call site of frames[i] in its caller. The last
	 * frame is in the symbol's own function. nr_frames is 0 without debug info for addr.
	 */
	int nr_frames;
	struct symbolize_frame frames[SYMBOLIZE_MAX_FRAMES];
};

struct symbolizer;

/**
 * symbolizer__new() - Set up symbolization for one kernel.
 * @ks: kallsyms of that kernel (not owned; must outlive the symbolizer); may be NULL
 * @vmlinux: vmlinux with DWARF to use, or NULL to look in the usual debug-info places
 * @release: the kernel release (uname -r) the addresses come from, for the default search;
 *	     NULL means the running kernel
 * @out: the new symbolizer
 *
 * A missing or unusable vmlinux is not an error: symbolizer__dwarf_status() says why
 * source positions are absent (callers given an explicit @vmlinux may treat that as one).
 *
 * Return: 0, or a negative errno (-ENOMEM).
 */
int symbolizer__new(const struct ksyms *ks, const char *vmlinux, const char *release,
		    struct symbolizer **out);
void symbolizer__free(struct symbolizer *s);

/* NULL when DWARF is in use, else a sentence saying why only symbols are shown. */
const char *symbolizer__dwarf_status(const struct symbolizer *s);
/* The vmlinux whose DWARF is in use, or NULL. */
const char *symbolizer__vmlinux(const struct symbolizer *s);

/* Fills loc for addr; returns 0, or -ENOENT when no symbol contains addr (loc->sym NULL). */
int symbolizer__lookup(struct symbolizer *s, __u64 addr, struct symbolize_loc *loc);

/*
 * Writes "sym+0xoff" (or "0xADDR" when unknown) into buf; returns buf. Module symbols get
 * " [module]" appended, except BPF ones whose names already say what they are.
 */
char *symbolize__format(const struct symbolize_loc *loc, __u64 addr, char *buf, size_t size);

#endif /* LBRSNAP_SYMBOLIZE_H */
