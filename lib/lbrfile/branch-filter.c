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
	unsigned int records;	/* BR_*: what LBR keeps under the word alone */
} branch_words[] = {
	/*
	 * perf's own names (tools/perf/util/parse-branch-options.c). The transaction words
	 * restrict no branch type, so they count as recording jumps; save_type, no_flags and
	 * no_cycles only change what an entry holds.
	 */
	{ "u", PERF_SAMPLE_BRANCH_USER, 0 },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL, 0 },
	{ "hv", PERF_SAMPLE_BRANCH_HV, 0 },
	{ "any", PERF_SAMPLE_BRANCH_ANY, BR_JUMPS | BR_CALLS | BR_RETURNS },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL, BR_CALLS },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN, BR_RETURNS },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL, BR_CALLS },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX, BR_JUMPS },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX, BR_JUMPS },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX, BR_JUMPS },
	{ "cond", PERF_SAMPLE_BRANCH_COND, BR_JUMPS },
	{ "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK, BR_CALLS | BR_RETURNS },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP, BR_JUMPS },
	{ "ind_jump", PERF_SAMPLE_BRANCH_IND_JUMP, BR_JUMPS },
	{ "call", PERF_SAMPLE_BRANCH_CALL, BR_CALLS },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE, 0 },
	{ "no_flags", PERF_SAMPLE_BRANCH_NO_FLAGS, 0 },
	{ "no_cycles", PERF_SAMPLE_BRANCH_NO_CYCLES, 0 },
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

unsigned int branch_filter__records(__u64 bits)
{
	unsigned int rec = 0;
	size_t i;

	for (i = 0; i < sizeof(branch_words) / sizeof(branch_words[0]); i++) {
		if (bits & branch_words[i].bit)
			rec |= branch_words[i].records;
	}
	return rec;
}
