/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lbrsnap record: capture LBR snapshots or kernel stacks into lbrsnap.data */
#ifndef LBRSNAP_BUILTIN_RECORD_H
#define LBRSNAP_BUILTIN_RECORD_H

int cmd_record(int argc, char **argv);

#endif
