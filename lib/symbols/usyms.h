/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * User address -> "func+0xoff (path)", from the ELF symbols (.symtab, else .dynsym) of the
 * file a process had mapped there (a MAPS section's map, lbr-proc.h). Files are opened once
 * and kept; a file whose build id differs from the one recorded is not used for names.
 */
#ifndef LBRSNAP_USYMS_H
#define LBRSNAP_USYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct lbrfile;
struct lbrfile_map;
struct usyms;

struct usym_loc {
	const char *path;	/* the mapped file; NULL: no map holds the address */
	const char *name;	/* the function; NULL when the file has no symbol there */
	__u64 off;		/* from the function's start */
	__u64 file_off;		/* in the file: addr - start + pgoff */
	bool mismatch;		/* the file now at path is not the one mapped (build id) */
};

int usyms__new(struct usyms **out);
void usyms__free(struct usyms *u);
/* Fills loc for addr inside map m (whose file is path); m NULL: an unknown address. */
void usyms__lookup(struct usyms *u, const struct lbrfile_map *m, const char *path, __u64 addr,
		   struct usym_loc *loc);
/*
 * Fills loc for address addr of process pid, from the maps capture f stored for it;
 * ret_addr: a return address, looked up one byte back (the call is before it).
 */
void usyms__lookup_pid(struct usyms *u, const struct lbrfile *f, __u32 pid, __u64 addr,
		       bool ret_addr, struct usym_loc *loc);
/*
 * How many of a user stack's nr entries (innermost first) are frames: up to the first
 * return address outside every executable mapping capture f holds for pid. The kernel walks
 * user stacks by frame pointer; in code built without them (distribution binaries) the
 * register holds data, and the walk goes on through it: text as addresses, or one frame
 * read again and again. Without maps for pid (gone, or JIT code), all nr.
 */
unsigned int usyms__stack_len(const struct lbrfile *f, __u32 pid, const __u64 *ip,
			      unsigned int nr);
/* "func+0xoff (path)", "0xADDR (path)", or "0xADDR" without a map; returns buf. */
char *usym__format(const struct usym_loc *loc, __u64 addr, char *buf, size_t size);

#endif /* LBRSNAP_USYMS_H */
