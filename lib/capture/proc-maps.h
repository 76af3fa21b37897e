/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * --user-stack at record time: the executable mappings of every process whose records carry
 * user addresses, read from /proc/PID/maps when the process is first seen (or, for the
 * command, at its exit) and written as MAPS sections (lbr-proc.h) with each file's build id.
 */
#ifndef LBRSNAP_PROC_MAPS_H
#define LBRSNAP_PROC_MAPS_H

#include <linux/types.h>

struct lbrfile_writer;
struct proc_maps;

int proc_maps__new(struct proc_maps **out);
void proc_maps__free(struct proc_maps *pm);
/*
 * The first time pid is seen, reads its maps and writes them to w; comm names it when it
 * is gone already. Returns 0 or a negative errno from writing.
 */
int proc_maps__see(struct proc_maps *pm, __u32 pid, const char *comm,
		   struct lbrfile_writer *w);
/* Reads pid's maps again now (it is about to exit), seen or not: a newer MAPS section. */
int proc_maps__reread(struct proc_maps *pm, __u32 pid, struct lbrfile_writer *w);
/* Processes written, and those among them gone before their maps could be read. */
__u64 proc_maps__nr_procs(const struct proc_maps *pm);
__u64 proc_maps__nr_gone(const struct proc_maps *pm);

#endif /* LBRSNAP_PROC_MAPS_H */
