// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The kinds of attach point (API in lbr-kind.h): one row each, by enum lbrsnap_kind. */
#include <string.h>
#include "lbrfile/lbr-kind.h"

static const struct lbr_kind kinds[LBRSNAP_KIND__MAX] = {
	[LBRSNAP_KIND_FEXIT] = { "fexit", LBR_KIND_KFUNC | LBR_KIND_RETURN | LBR_KIND_ARGS },
	[LBRSNAP_KIND_KPROBE] = { "kprobe", LBR_KIND_KFUNC | LBR_KIND_ARGS },
	[LBRSNAP_KIND_KRETPROBE] = { "kretprobe", LBR_KIND_KFUNC | LBR_KIND_RETURN },
	[LBRSNAP_KIND_RAW_TP] = { "raw_tp", LBR_KIND_TRACEPOINT | LBR_KIND_ARGS },
	[LBRSNAP_KIND_TP_BTF] = { "tp_btf", LBR_KIND_TRACEPOINT | LBR_KIND_ARGS },
	[LBRSNAP_KIND_MEM] = { "mem", LBR_KIND_WATCH | LBR_KIND_ARGS },
	[LBRSNAP_KIND_UPROBE] = { "uprobe", LBR_KIND_USER | LBR_KIND_ARGS },
	[LBRSNAP_KIND_URETPROBE] = { "uretprobe", LBR_KIND_USER | LBR_KIND_RETURN },
	[LBRSNAP_KIND_USDT] = { "usdt", LBR_KIND_USER | LBR_KIND_SDT | LBR_KIND_ARGS },
};

/* Other tools' names for a kind, accepted in specs */
static const struct {
	const char *name;
	enum lbrsnap_kind kind;
} aliases[] = {
	{ "rawtrace", LBRSNAP_KIND_RAW_TP },		/* perf's */
	{ "raw_tracepoint", LBRSNAP_KIND_RAW_TP },	/* bpftrace's */
};

const struct lbr_kind *lbr_kind__get(unsigned int kind)
{
	if (kind >= LBRSNAP_KIND__MAX || !kinds[kind].name)
		return NULL;
	return &kinds[kind];
}

const char *lbr_kind__name(unsigned int kind)
{
	const struct lbr_kind *k = lbr_kind__get(kind);

	return k ? k->name : "unknown";
}

enum lbrsnap_kind lbr_kind__by_prefix(const char *prefix, size_t len)
{
	size_t i;

	for (i = 0; i < LBRSNAP_KIND__MAX; i++) {
		if (kinds[i].name && strlen(kinds[i].name) == len &&
		    !strncmp(prefix, kinds[i].name, len))
			return i;
	}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strlen(aliases[i].name) == len && !strncmp(prefix, aliases[i].name, len))
			return aliases[i].kind;
	}
	return 0;
}

bool lbr_kind__is(unsigned int kind, unsigned int flags)
{
	const struct lbr_kind *k = lbr_kind__get(kind);

	return k && (k->flags & flags);
}
