// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The spec forms are those attach-spec.c, uprobe-spec.c and mem-spec.c parse. Until the kind
 * table carries its own help line, the lines live here, one row per kind.
 */
#include <stdio.h>
#include "attach-kinds-help.h"

static const struct {
	const char *spec;
	const char *meaning;
} kinds[] = {
	{ "fexit:FUNC", "a kernel function returns" },
	{ "raw_tp:NAME", "a tracepoint fires" },
	{ "tp_btf:NAME", "a BTF tracepoint fires" },
	{ "kprobe:GLOB", "a kernel function starts" },
	{ "kretprobe:GLOB", "a kernel function returns" },
	{ "uprobe:PATH:FUNC[+OFF]", "a user function starts" },
	{ "uretprobe:PATH:FUNC", "a user function returns" },
	{ "usdt:PATH:PROVIDER:NAME", "a USDT probe fires" },
	{ "mem:ADDR[/LEN][:ACCESS]", "a hardware watchpoint hits" },
};

const char *attach_kinds__help(void)
{
	static char text[1024];
	size_t i, len = 0;

	if (text[0])
		return text;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && len < sizeof(text); i++)
		len += snprintf(text + len, sizeof(text) - len, "  %-24s %s\n", kinds[i].spec,
				kinds[i].meaning);
	return text;
}
