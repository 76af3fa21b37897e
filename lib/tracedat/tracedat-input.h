/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Metadata of an existing trace.dat (versions 6 and 7; v7 sections may be zstd or zlib
 * compressed): header pages, formats, kallsyms, printk formats, cmdlines, options, buffers
 * and clocks, as needed to write a new file with the same content. The recorded events
 * themselves are read with libtracecmd.
 *
 * libtracecmd's public API parses these sections but does not hand out their text, so the
 * section walk is done here.
 */
#ifndef LBRSNAP_TRACEDAT_INPUT_H
#define LBRSNAP_TRACEDAT_INPUT_H

#include "tracedat/tracedat-writer.h"

struct tracedat_input_info {
	int version;			/* 6 or 7 */
	char compression[32];		/* "none", "zstd", "zlib" */
	long long ts_offset;		/* ns libtracecmd adds to every time stamp (DATE, OFFSET) */
};

/*
 * Fills m (zeroed by the caller) with the file's metadata. Options that shift time
 * stamps (DATE, OFFSET, TSC2NSEC, TIME_SHIFT, GUEST) are left out, because libtracecmd has
 * already applied them to the records that are copied. Buffers: [0] is the top one.
 * Errors: -EINVAL with a message in err (size errlen) naming what is wrong.
 */
int tracedat_input__read_meta(const char *path, struct tracedat_meta *m,
			      struct tracedat_input_info *info, char *err, size_t errlen);

#endif /* LBRSNAP_TRACEDAT_INPUT_H */
