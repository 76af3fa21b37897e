/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The running kernel's syscalls, names and arguments, from the tracefs formats of
 * events/syscalls/sys_enter_NAME (what perf trace reads): each syscall's number is the
 * event's __syscall_nr, its arguments the fields after it, in order. A few events are named
 * after the kernel's function (sys_enter_newuname for uname): the syscall keeps its name.
 */
#ifndef LBRSNAP_SYSCALL_TABLE_H
#define LBRSNAP_SYSCALL_TABLE_H

#include "lbrfile/lbrfile.h"

struct syscall_table;

/* Returns 0, or a negative errno when tracefs has no syscall events. */
int syscall_table__load(struct syscall_table **out);
void syscall_table__free(struct syscall_table *t);
/* Syscall nr, NULL when the kernel has no event for it. */
const struct lbr_syscall *syscall_table__get(const struct syscall_table *t, __u32 nr);
/*
 * The number of a syscall by name (built in), or by its tracefs event's name where that
 * differs (newuname: uname), or -ENOENT.
 */
int syscall_table__nr(const char *name);
/* Bit i set: argument i of syscall nr is a string (char *) to read from user memory. */
__u8 syscall_table__str_mask(const struct syscall_table *t, __u32 nr);

#endif /* LBRSNAP_SYSCALL_TABLE_H */
