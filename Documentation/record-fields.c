// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * record-fields: the output field schema (record-fields.h) as the build needs it.
 *
 *   record-fields perf		the perf.data event's field names, in RAW order, one a line
 *				(what perf-scripts/lbrsnap_perf.py's FIELDS must say)
 *   record-fields perf-call	the same for lbr:call (what lbrsnap_perf.call_fields() reads
 *				from a converted file: t-perf-calls)
 *   record-fields doc-perf	asciidoc tables of the fields, for the man pages
 *   record-fields doc-tracedat
 *   record-fields doc-json
 */
#include <stdio.h>
#include <string.h>
#include "view/record-fields.h"

static void print_names(const struct lbr_event_schema *sc)
{
	size_t i;

	for (i = 0; i < sc->nr; i++) {
		if (sc->fields[i].kind != LBR_FIELD_PAD)
			printf("%s\n", sc->fields[i].name);
	}
}

/* An asciidoc table of one event's fields: name, tracefs type, meaning */
static void print_table(const struct lbr_event_schema *sc, bool perf)
{
	size_t i;

	printf("*%s*::\n+\n[cols=\"2,3,7\",options=\"header\"]\n|===\n|Field |Type |Meaning\n",
	       sc->name);
	for (i = 0; i < sc->nr; i++) {
		const struct lbr_field_desc *f = &sc->fields[i];

		if (f->kind == LBR_FIELD_PAD)
			continue;
		printf("|%s |%s |%s\n", f->name,
		       f->kind == LBR_FIELD_RET && perf ? "the return type's" : lbr_field__type(f, true),
		       f->meaning);
	}
	printf("|===\n\n");
}

#define JSON_ROW(id, key, doc) printf("|%s |%s\n", key, doc);
#define JSON_FIELD(kind, ctype, name, src, doc) printf("|%s |%s\n", #name, doc);

int main(int argc, char **argv)
{
	const char *what = argc == 2 ? argv[1] : "";
	int i;

	if (!strcmp(what, "perf")) {
		print_names(&lbr_event_schemas[LBR_SCHEMA_PERF]);
	} else if (!strcmp(what, "perf-call")) {
		print_names(&lbr_event_schemas[LBR_SCHEMA_PERF_CALL]);
	} else if (!strcmp(what, "doc-perf")) {
		print_table(&lbr_event_schemas[LBR_SCHEMA_PERF], true);
		print_table(&lbr_event_schemas[LBR_SCHEMA_PERF_CALL], false);
	} else if (!strcmp(what, "doc-tracedat")) {
		for (i = LBR_SCHEMA_TD_SNAPSHOT; i < LBR_SCHEMA__MAX; i++)
			print_table(&lbr_event_schemas[i], false);
	} else if (!strcmp(what, "doc-json")) {
		printf("[cols=\"2,7\",options=\"header\"]\n|===\n|Key |Meaning\n");
		LBR_JSON_RECORD_KEYS(JSON_ROW)
		LBR_JSON_FIELDS(JSON_FIELD)
		printf("|===\n");
	} else {
		fprintf(stderr, "usage: record-fields perf|perf-call|doc-perf|doc-tracedat|doc-json\n");
		return 2;
	}
	return ferror(stdout) ? 1 : 0;
}
