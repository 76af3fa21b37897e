// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* -e SPEC: the spelling of an attach point (resolving it needs BTF and is not fuzzed). */
#include <stdlib.h>
#include "attach-spec.h"
#include "fuzz-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_file__str(data, size);
	enum lbrsnap_kind kind;
	const char *name;

	if (!attach_spec__parse(spec, &kind, &name))
		lbrsnap_kind__name(kind);
	free(spec);
	return 0;
}
