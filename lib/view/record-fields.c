// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include <stdlib.h>
#include "view/record-fields.h"

#define LBR_F_JSON_NAME(id, key, doc) [LBR_JSON_##id] = key,
const char *const lbr_json_keys[LBR_JSON__MAX] = {
	LBR_JSON_RECORD_KEYS(LBR_F_JSON_NAME)
};

#define SCHEMA(st, list) \
	static const struct lbr_field_desc st##_fields[] = { list(LBR_F_DESC) }; \
	list(LBR_F_CHECK)
#define LBR_F_STRUCT struct lbr_perf_raw
SCHEMA(lbr_perf_raw, LBR_PERF_FIELDS)
#undef LBR_F_STRUCT
#define LBR_F_STRUCT struct lbr_perf_call_raw
SCHEMA(lbr_perf_call_raw, LBR_PERF_CALL_FIELDS)
#undef LBR_F_STRUCT
#define LBR_F_STRUCT struct lbr_td_snapshot
SCHEMA(lbr_td_snapshot, LBR_TD_SNAPSHOT_FIELDS)
#undef LBR_F_STRUCT
#define LBR_F_STRUCT struct lbr_td_branch
SCHEMA(lbr_td_branch, LBR_TD_BRANCH_FIELDS)
#undef LBR_F_STRUCT
#define LBR_F_STRUCT struct lbr_td_stack
SCHEMA(lbr_td_stack, LBR_TD_STACK_FIELDS)
#undef LBR_F_STRUCT
#define LBR_F_STRUCT struct lbr_td_user_stack
SCHEMA(lbr_td_user_stack, LBR_TD_USER_STACK_FIELDS)
#undef LBR_F_STRUCT

/* the argument fields follow the fixed part at an 8-byte boundary (event-fields.h) */
_Static_assert(sizeof(struct lbr_perf_raw) % 8 == 0, "perf raw part not 8-aligned");
_Static_assert(sizeof(struct lbr_perf_call_raw) % 8 == 0, "perf call part not 8-aligned");

#define ROW(id, out, ev, st) \
	[id] = { out, ev, st##_fields, sizeof(st##_fields) / sizeof(st##_fields[0]), \
		 sizeof(struct st) }
const struct lbr_event_schema lbr_event_schemas[LBR_SCHEMA__MAX] = {
	ROW(LBR_SCHEMA_PERF, "perf.data", "lbr:<attach point>", lbr_perf_raw),
	ROW(LBR_SCHEMA_PERF_CALL, "perf.data", "lbr:call", lbr_perf_call_raw),
	ROW(LBR_SCHEMA_TD_SNAPSHOT, "trace.dat", "lbr:branch_snapshot", lbr_td_snapshot),
	ROW(LBR_SCHEMA_TD_BRANCH, "trace.dat", "lbr:branch", lbr_td_branch),
	ROW(LBR_SCHEMA_TD_STACK, "trace.dat", "lbr:stack", lbr_td_stack),
	ROW(LBR_SCHEMA_TD_USER_STACK, "trace.dat", "lbr:user_stack", lbr_td_user_stack),
};

const char *const lbr_fields_reserved[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	/* perf.data's lbr formats */
	LBR_PERF_FIELDS(LBR_F_NAME)
	/* a syscall attach point's own */
	"syscall_nr", "syscall", "args",
	/* what libtraceevent's filters read as something else than a field */
	"COMM", "CPU",
	NULL,
};

const char *lbr_field__type(const struct lbr_field_desc *d, bool ret_signed)
{
	static const char *const ints[2][4] = {
		{ "unsigned char", "unsigned short", "unsigned int", "unsigned long long" },
		{ "char", "short", "int", "long long" },
	};
	bool is_signed = d->kind == LBR_FIELD_RET ? ret_signed : d->is_signed;

	switch (d->kind) {
	case LBR_FIELD_STR:
		return "__data_loc char[]";
	case LBR_FIELD_U64S:
		return "__data_loc u64[]";
	default:
		return ints[is_signed][d->size == 1 ? 0 : d->size == 2 ? 1 : d->size == 4 ? 2 : 3];
	}
}

char *lbr_fields__format(const struct lbr_field_desc *d, size_t nr, bool ret_signed)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	fputs("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	      "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	      "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	      "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n", m);
	for (i = 0; i < nr; i++) {
		const struct lbr_field_desc *f = &d[i];
		/* kernel formats call a __data_loc char[] signed, its u64[] not */
		int sign = f->kind == LBR_FIELD_STR ? 1 : f->kind == LBR_FIELD_RET ? ret_signed :
			   f->kind == LBR_FIELD_U64S ? 0 : f->is_signed;

		if (f->kind == LBR_FIELD_PAD)
			continue;
		fprintf(m, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			lbr_field__type(f, ret_signed), f->name, f->offset, f->size, sign);
	}
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}
