/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Pipe-mode perf.data (`perf record -o -`, `perf inject -o -`): a 16-byte header, then a
 * stream in which the attributes (PERF_RECORD_HEADER_ATTR), the header features
 * (HEADER_FEATURE, HEADER_TRACING_DATA with its payload after the record, HEADER_BUILD_ID)
 * come as records before the data. The reader and writer work on files (offsets, a feature
 * table written last), so a pipe is turned into a file and a file into a pipe.
 */
#ifndef LBRSNAP_PERF_PIPE_H
#define LBRSNAP_PERF_PIPE_H

#include <stdbool.h>
#include "perf/perf-data.h"

#define PERF_PIPE_HEADER_SIZE		16

#define PERF_RECORD_HEADER_ATTR		64
#define PERF_RECORD_HEADER_EVENT_TYPE	65
#define PERF_RECORD_HEADER_TRACING_DATA	66
#define PERF_RECORD_HEADER_BUILD_ID	67
#define PERF_RECORD_AUXTRACE_INFO	70
#define PERF_RECORD_AUXTRACE		71
#define PERF_RECORD_EVENT_UPDATE	78
#define PERF_RECORD_HEADER_FEATURE	80
#define PERF_EVENT_UPDATE_NAME		2	/* event update record: the event's name */

/* Whether the file at path starts with a pipe-mode header (false if it cannot be read). */
bool perf_pipe__is_pipe_file(const char *path);
/*
 * Reads a perf.data stream from fd (pipe mode, or a whole file-mode perf.data) and writes it
 * to path as a file-mode perf.data. name names the input in error messages. 0 or a negative
 * errno, with a message; nothing is left at path on error.
 */
int perf_pipe__to_file(int fd, const char *name, const char *path);
/*
 * Writes the file-mode perf.data at path to fd in pipe mode, as perf record -o - writes it.
 * name names the output in error messages. 0 or a negative errno, with a message.
 */
int perf_pipe__from_file(const char *path, int fd, const char *name);

#endif /* LBRSNAP_PERF_PIPE_H */
