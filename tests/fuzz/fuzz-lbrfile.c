// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap.data as `lbrsnap report` reads it: the index, every record in both orders, the
 * kallsyms copy, and the text and JSON reports rendered from them.
 */
#include <stdio.h>
#include "fuzz-file.h"
#include "symbols/ksyms.h"
#include "lbrfile/lbrfile.h"
#include "report/report.h"

static int touch(const struct lbr_record *rec, void *ctx)
{
	struct lbrfile *f = ctx;

	lbrfile__attach(f, rec->ev->ap);
	lbrfile__lbr_stale(f, rec->ev->cpu, rec->ev->time_ns);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct report r = {};
	struct ksyms *ks = NULL;
	struct lbrfile *f;
	const char *text;
	size_t len;

	if (!null)
		null = fopen("/dev/null", "w");
	if (lbrfile__open(fuzz_file__write(data, size), &f))
		return 0;
	lbrfile__for_each(f, false, touch, f);
	text = lbrfile__kallsyms(f, &len);
	if (text)
		ksyms__parse(text, len, &ks);
	r.out = null;
	r.file = f;
	r.ks = ks;
	report__run(&r);
	r.json = true;
	r.keep_all = true;
	report__run(&r);
	ksyms__free(ks);
	lbrfile__close(f);
	return 0;
}
