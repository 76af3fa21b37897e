/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A capture as a new perf.data. */
#ifndef LBRSNAP_PERF_CONVERT_H
#define LBRSNAP_PERF_CONVERT_H

#include <stdbool.h>

/*
 * Writes the capture at cap_path as a new perf.data at out_path and, if kallsyms_path is not
 * NULL, the capture's kallsyms there. keep_all keeps the tracing path's entries in the
 * samples' callchains and branch stacks. Messages name the bad input; negative errno, or 1
 * when out_path was written but the kallsyms copy could not be (said through pr_warn()).
 */
int perf_convert(const char *cap_path, const char *out_path, const char *kallsyms_path,
		 bool keep_all);

#endif /* LBRSNAP_PERF_CONVERT_H */
