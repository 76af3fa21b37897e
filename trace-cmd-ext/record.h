/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* trace-cmd-lbr record: trace-cmd record -C mono and a capture together, merged. */
#ifndef LBRSNAP_TRACE_CMD_LBR_RECORD_H
#define LBRSNAP_TRACE_CMD_LBR_RECORD_H

int lbr__record(int argc, char **argv);

#endif
