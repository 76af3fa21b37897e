/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * USDT probes as a file's SDT notes describe them (.note.stapsdt, <sys/sdt.h>): where the
 * probe is and, for each argument, "[-]SIZE@OPERAND" ("-4@%eax": a signed 4-byte value in
 * eax). libbpf reads the operands when it attaches; the sizes and signs type the values.
 */
#ifndef LBRSNAP_USDT_NOTES_H
#define LBRSNAP_USDT_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* <sys/sdt.h> allows up to 12 arguments */
#define USDT_MAX_ARGS 12

struct usdt_arg {
	bool is_signed;
	__u8 size;		/* 1, 2, 4 or 8 bytes */
};

/*
 * A probe's arguments as all its sites give them. libbpf reads each site's own operands and
 * extends each value from that site's size by its sign, so where sites differ an argument is
 * typed to hold every site's values: 8 bytes, signed if any site's is (an unsigned value of
 * fewer bytes is then still read right). Only a signed site next to an unsigned 8-byte one
 * fits no type: the arguments from that one on are left out (clash says which).
 */
struct usdt_probe {
	__u32 nr_args;		/* arguments every site has, typed as above */
	struct usdt_arg args[USDT_MAX_ARGS];
	__u32 nr_sites;		/* notes of this probe: each place it is compiled in */
	__s32 clash;		/* the first argument no type holds, -1 for none */
};

/*
 * Finds provider:name in the SDT notes of the ELF file at path, its arguments typed from
 * every site (struct usdt_probe). Returns 0, or a negative
 * errno with a one-line message in err: -ENOENT when the probe is not there (naming up to
 * three probes the file has), -EINVAL for an argument spec it cannot read.
 */
int usdt_notes__find(const char *path, const char *provider, const char *name,
		     struct usdt_probe *p, char *err, size_t err_len);
/* Reads one argument spec ("-4@%eax", "8@-16(%rbp)", "4@$7"); 0 or -EINVAL. */
int usdt_arg__parse(const char *spec, size_t len, struct usdt_arg *a);

#endif /* LBRSNAP_USDT_NOTES_H */
