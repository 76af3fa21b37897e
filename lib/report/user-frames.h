/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * User addresses in reports: user stack entries (--user-stack) and user branch addresses
 * (-j u), named from the maps the capture stored for the record's process (lbr-proc.h).
 * The report calls these; they know nothing of it: a lookup's symbols load into *usyms,
 * which the caller keeps between records and frees with user_frames__release().
 */
#ifndef LBRSNAP_USER_FRAMES_H
#define LBRSNAP_USER_FRAMES_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "symbols/usyms.h"

struct json_writer;
struct lbr_record;
struct lbrfile;

/* Whether addr is a user address (below the kernel half on x86-64) */
static inline bool user_frames__is_user(__u64 addr)
{
	return (__s64)addr >= 0;
}

/* Names addr of process pid; ret_addr: a return address, looked up one byte back. */
void user_frames__lookup(struct usyms **usyms, const struct lbrfile *f, __u32 pid, __u64 addr,
			 bool ret_addr, struct usym_loc *loc);
/*
 * "    user stack, innermost first:" and a line per frame, repeats collapsed ("[N repeated
 * frames]") and the entries past the last frame (usyms__stack_len()) left out and said; or
 * its error
 */
void user_frames__text(FILE *out, struct usyms **usyms, const struct lbrfile *f,
		       const struct lbr_record *rec);
/*
 * Members of the record's object: "user_stack":[{"addr":..,"sym":..,"off":..,"path":..},...],
 * "user_stack_err":N, "user_stack_cut":N (the entries past the last frame, left out of
 * user_stack)
 */
void user_frames__json(struct json_writer *w, struct usyms **usyms, const struct lbrfile *f,
		       const struct lbr_record *rec);
/* Processes with maps in f, and those of them gone before the maps could be read. */
void user_frames__count(const struct lbrfile *f, __u64 *procs, __u64 *gone);
/* Frees what lookups loaded. */
void user_frames__release(struct usyms **usyms);

#endif /* LBRSNAP_USER_FRAMES_H */
