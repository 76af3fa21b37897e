/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Kernel symbol table from /proc/kallsyms text (live, or the copy stored in a capture).
 * BPF programs and trampolines appear with module "bpf" ("[bpf]" in kallsyms).
 */
#ifndef LBRSNAP_KSYMS_H
#define LBRSNAP_KSYMS_H

#include <stddef.h>
#include <linux/types.h>

struct ksym {
	__u64 addr;
	__u64 size;		/* distance to the next symbol; 0 for the last one */
	const char *name;
	const char *module;	/* NULL for vmlinux, "bpf" for BPF programs/trampolines */
	char type;		/* kallsyms type letter: t, T, d, ... */
	/* trim's verdict on the name, cached (0 not asked yet, 1 no, 2 tracing path) */
	char trim;
};

struct ksyms;

/*
 * Parses kallsyms text; keeps text symbols (t, T, w, W) with a non-zero address. The table
 * keeps a copy of the text.
 */
int ksyms__parse(const char *text, size_t len, struct ksyms **out);
/* The same without the copy: text must outlive the table (a mapped capture's kallsyms) */
int ksyms__parse_borrowed(const char *text, size_t len, struct ksyms **out);
/* Reads a whole kallsyms file (e.g. /proc/kallsyms) into a malloc'ed *text, NUL-ended. */
int ksyms__read(const char *path, char **text, size_t *len);
/*
 * /proc/kallsyms for start-up's look-ups, read at most once however many parts ask: the
 * first call reads it, later ones get the same text (or the same error) until
 * ksyms__live_drop(). One thread: start-up's.
 */
int ksyms__live_text(const char **text, size_t *len);
void ksyms__live_drop(void);
/* Reads and parses a kallsyms file. */
int ksyms__load(const char *path, struct ksyms **out);
void ksyms__free(struct ksyms *ks);

/* The symbol containing addr (greatest addr' <= addr), or NULL. */
const struct ksym *ksyms__find(const struct ksyms *ks, __u64 addr);
/* First symbol with that exact name, or NULL. */
const struct ksym *ksyms__by_name(const struct ksyms *ks, const char *name);
size_t ksyms__count(const struct ksyms *ks);
/*
 * Symbols sorted by address, 0 <= i < ksyms__count(). Each struct ksym is made on its first
 * use (NULL without memory) and stays until ksyms__free().
 */
const struct ksym *ksyms__at(const struct ksyms *ks, size_t i);
/* Symbol i's module, without making its struct ksym (a walk over them all looks at this) */
const char *ksyms__module_at(const struct ksyms *ks, size_t i);

#endif /* LBRSNAP_KSYMS_H */
