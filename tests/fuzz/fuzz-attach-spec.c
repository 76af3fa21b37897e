// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * -e SPEC: the spelling of an attach point (resolving it needs BTF and is not fuzzed), of a
 * watchpoint, whose variables are looked up in a small kallsyms text, and a USDT argument
 * spec as an SDT note spells it (the name of a usdt: spec stands in for one).
 */
#include <stdlib.h>
#include <string.h>
#include "capture/attach-spec.h"
#include "fuzz-file.h"
#include "lbrfile/lbr-kind.h"
#include "capture/mem-spec.h"
#include "capture/usdt-notes.h"

static const char kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff83f830c8 D panic_timeout\n"
	"ffffffff84000000 b local_var\n"
	"0000000000001234 D percpu_var\n"
	"ffffffffc0000000 d mod_var\t[mod]\n"
	"ffffffff8400";	/* a cut last line */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_file__str(data, size), err[256];
	enum lbrsnap_kind kind;
	struct usdt_arg ua;
	struct mem_spec m;
	const char *name;

	if (!attach_spec__parse(spec, &kind, &name)) {
		lbr_kind__name(kind);
		if (kind == LBRSNAP_KIND_MEM)
			mem_spec__parse(name, kallsyms, strlen(kallsyms), &m, err, sizeof(err));
		if (kind == LBRSNAP_KIND_USDT)
			usdt_arg__parse(name, strlen(name), &ua);
	}
	free(spec);
	return 0;
}
