// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include "tracedat/tracedat-live.h"

/* The layout tracedat-pages.c encodes; identical to events/header_* on 64-bit kernels. */
const char tracedat_header_page_x86_64[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char builtin_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static int read_live(const char *file, struct tracedat_blob *b)
{
	int size = 0;
	char *text;
	int err;

	text = tracefs_instance_file_read(NULL, file, &size);
	if (!text || size <= 0) {
		free(text);
		return -ENOENT;
	}
	err = tracedat_blob__set(b, text, size);
	free(text);
	return err;
}

int tracedat_live__headers(struct tracedat_meta *m)
{
	int err;

	/* a 64-bit header page is what the encoder writes; anything else would lie */
	if (tracefs_tracing_dir() && !read_live("events/header_page", &m->header_page) &&
	    strstr(m->header_page.data, "size:4080;") &&
	    !read_live("events/header_event", &m->header_event))
		return 1;
	err = tracedat_blob__set(&m->header_page, tracedat_header_page_x86_64,
				 sizeof(tracedat_header_page_x86_64) - 1);
	return err ?: tracedat_blob__set(&m->header_event, builtin_header_event,
					 sizeof(builtin_header_event) - 1);
}
