/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* `lbrsnap perf record`: perf record -k mono and an lbrsnap capture, merged (perf-record.c). */
#ifndef LBRSNAP_PERF_RECORD_H
#define LBRSNAP_PERF_RECORD_H

/* argv[0] = "record"; returns the process exit status. */
int perf_record_main(int argc, char **argv);

#endif /* LBRSNAP_PERF_RECORD_H */
