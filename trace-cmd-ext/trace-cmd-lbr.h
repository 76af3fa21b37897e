/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef LBRSNAP_TRACE_CMD_LBR_H
#define LBRSNAP_TRACE_CMD_LBR_H

#include <stdbool.h>

/* Converts (input NULL) or merges; prints errors and the summary. Returns an exit code. */
int lbr__write(const char *input, const char *capture, const char *output, bool quiet);

#endif /* LBRSNAP_TRACE_CMD_LBR_H */
