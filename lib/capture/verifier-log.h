/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Why the verifier refused a program, for the one-line load error: its verdict is the last
 * line of its log before the "processed N insns" statistics, at the end of a log that is
 * often many kilobytes long (one line per instruction it walked), so it is looked for from
 * the end of the whole log, never from a buffer of the log's start.
 */
#ifndef LBRSNAP_VERIFIER_LOG_H
#define LBRSNAP_VERIFIER_LOG_H

#include <stddef.h>

/*
 * The verdict of log (libbpf's "-- BEGIN PROG LOAD LOG --" message, or the bare log) into
 * buf, cut to len - 1 bytes. Returns 0, or -ENOENT when the log has no verdict line.
 */
int verifier_log__reason(const char *log, char *buf, size_t len);

#endif /* LBRSNAP_VERIFIER_LOG_H */
