/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lbrsnap report: print a capture as text or JSON */
#ifndef LBRSNAP_BUILTIN_REPORT_H
#define LBRSNAP_BUILTIN_REPORT_H

int cmd_report(int argc, char **argv);

#endif
