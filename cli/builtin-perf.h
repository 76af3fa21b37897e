/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lbrsnap perf: write a capture as perf.data, or run perf record with a capture */
#ifndef LBRSNAP_BUILTIN_PERF_H
#define LBRSNAP_BUILTIN_PERF_H

int cmd_perf(int argc, char **argv);

#endif
