/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What a trace.dat written from a capture alone takes from the running kernel's tracefs. */
#ifndef LBRSNAP_TRACEDAT_LIVE_H
#define LBRSNAP_TRACEDAT_LIVE_H

#include "tracedat/tracedat-writer.h"

/*
 * Ring-buffer header descriptions (events/header_page, events/header_event) from tracefs,
 * mounting it if needed; without tracefs, the x86_64 layout that lbrsnap's page encoder
 * writes. Returns 1 when tracefs was used, 0 for the built-in text, -errno on failure.
 */
int tracedat_live__headers(struct tracedat_meta *m);

/* events/header_page of an x86_64 kernel: the page layout lbrsnap's encoders assume. */
extern const char tracedat_header_page_x86_64[];

#endif /* LBRSNAP_TRACEDAT_LIVE_H */
