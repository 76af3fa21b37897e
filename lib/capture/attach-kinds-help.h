/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The attach point kinds as -e's help names them: one line per kind, its spec form and what
 * fires it. Every recording command's --help prints it (capture-opts.c's -e row).
 */
#ifndef LBRSNAP_ATTACH_KINDS_HELP_H
#define LBRSNAP_ATTACH_KINDS_HELP_H

/* One line per kind, "  SPEC  meaning\n", the meanings aligned; a static string. */
const char *attach_kinds__help(void);

#endif /* LBRSNAP_ATTACH_KINDS_HELP_H */
