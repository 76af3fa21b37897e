// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "lbrfile/branch-filter.h"

static const struct {
	const char *name;
	__u64 bit;
} branch_words[] = {
	/* perf's own names (tools/perf/util/parse-branch-options.c) */
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "ind_jump", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "no_flags", PERF_SAMPLE_BRANCH_NO_FLAGS },
	{ "no_cycles", PERF_SAMPLE_BRANCH_NO_CYCLES },
};

#define PRIV_BITS (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

int branch_filter__parse(const char *spec, __u64 *bits, char *err, size_t err_len)
{
	char *copy, *word, *save = NULL;
	__u64 v = 0;
	size_t i;
	int ret = 0;

	copy = strdup(spec);
	if (!copy)
		return -ENOMEM;
	for (word = strtok_r(copy, ",", &save); word; word = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(branch_words) / sizeof(branch_words[0]); i++) {
			if (!strcmp(word, branch_words[i].name))
				break;
		}
		if (i == sizeof(branch_words) / sizeof(branch_words[0])) {
			snprintf(err, err_len, "unknown branch filter '%s' in '%s' (use any, "
				 "any_call, any_ret, ind_call, cond, call, ind_jmp, call_stack, "
				 "abort_tx, in_tx, no_tx, save_type, u, k, hv)", word, spec);
			ret = -EINVAL;
			goto cleanup;
		}
		v |= branch_words[i].bit;
	}
	if (!(v & ~PRIV_BITS)) {
		snprintf(err, err_len, "branch filter '%s' names no branch type (e.g. any)", spec);
		ret = -EINVAL;
		goto cleanup;
	}
	/* the snapshot is taken in the kernel: kernel branches unless told otherwise */
	if (!(v & PRIV_BITS))
		v |= PERF_SAMPLE_BRANCH_KERNEL;
	*bits = v;
cleanup:
	free(copy);
	return ret;
}
