/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The capture options every recording command takes (lbrsnap record, lbrsnap perf record,
 * trace-cmd-lbr record): one row each (lib/util/parse-options.h), so one spelling, one
 * parser and one help text. A command lists capture_opts__rows as one of its row sets, with
 * its struct capture_opts as the set's object.
 */
#ifndef LBRSNAP_CAPTURE_OPTS_H
#define LBRSNAP_CAPTURE_OPTS_H

#include "capture/capture-engine.h"
#include "util/parse-options.h"

/* -e values are collected in an array that capture_opts__free() releases. */
extern const struct opt_row capture_opts__rows[];

/* Parses a --ret value: a number, -ENAME, true, false or NULL. Returns 0 or -EINVAL. */
int capture_opts__parse_ret(const char *arg, __s64 *ret);
/* Parses a --lbr mode: auto, off or external. Returns 0 or -EINVAL. */
int capture_opts__parse_lbr_mode(const char *arg, enum capture_lbr_mode *mode);
/* Defaults that depend on the whole command line: no -e means failing syscalls. */
void capture_opts__finish(struct capture_opts *o);
void capture_opts__free(struct capture_opts *o);

#endif /* LBRSNAP_CAPTURE_OPTS_H */
