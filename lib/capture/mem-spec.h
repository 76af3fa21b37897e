/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Hardware watchpoint specs, perf's syntax: "mem:ADDR[/LEN][:ACCESS]" and, for a kernel
 * variable by name, "mem:SYMBOL[+OFF][/LEN][:ACCESS]". LEN is 1, 2, 4 or 8 bytes (default
 * 4, as perf; 8 for execution), ACCESS r, w, x or a mix of r and w (default rw).
 */
#ifndef LBRSNAP_MEM_SPEC_H
#define LBRSNAP_MEM_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* What to watch: the bits of access are HW_BREAKPOINT_R, _W and _X (linux/hw_breakpoint.h) */
struct mem_spec {
	__u64 addr;
	__u8 len;
	__u8 access;
	bool user;		/* a user-space address: needs a process to watch */
	char name[160];		/* "panic_timeout", "panic_timeout+0x4" or "0x4c6f10" */
};

/*
 * Parses what follows "mem:". A symbol is looked up in kallsyms, the text of /proc/kallsyms
 * (NULL when it could not be read). Returns 0, or -EINVAL / -ENOENT / -EOPNOTSUPP with a
 * message naming the bad part in err.
 */
int mem_spec__parse(const char *text, const char *kallsyms, size_t klen, struct mem_spec *m,
		    char *err, size_t err_len);

/* The access as the spec spells it: "r", "w", "rw", "x" */
const char *mem_spec__access_name(__u8 access);

#endif /* LBRSNAP_MEM_SPEC_H */
