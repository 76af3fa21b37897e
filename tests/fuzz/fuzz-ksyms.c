// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* kallsyms copies (a capture's KALLSYMS section, --kallsyms FILE): parse, then look up. */
#include <stdint.h>
#include <string.h>
#include "symbols/ksyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksyms *ks;
	__u64 addr = 0;
	size_t i, n;

	if (ksyms__parse((const char *)data, size, &ks))
		return 0;
	n = ksyms__count(ks);
	for (i = 0; i < n; i++) {
		const struct ksym *s = ksyms__at(ks, i);

		ksyms__by_name(ks, s->name);
		ksyms__find(ks, s->addr + 1);
	}
	if (size >= 8)
		memcpy(&addr, data, 8);
	ksyms__find(ks, addr);
	ksyms__free(ks);
	return 0;
}
