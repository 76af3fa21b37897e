/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lbrsnap inject: merge a capture into a perf.data from perf record -k mono */
#ifndef LBRSNAP_BUILTIN_INJECT_H
#define LBRSNAP_BUILTIN_INJECT_H

int cmd_inject(int argc, char **argv);

#endif
