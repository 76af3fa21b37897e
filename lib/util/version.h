/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The version every tool prints and every written file names (perf.data's VERSION feature). */
#ifndef LBRSNAP_VERSION_H
#define LBRSNAP_VERSION_H

#define LBRSNAP_VERSION "0.1"

#endif /* LBRSNAP_VERSION_H */
