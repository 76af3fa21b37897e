/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Field access for the viewer plugins, bounded by the record: libtraceevent's
 * tep_get_field_raw() and tep_get_field_val() trust the format's offsets and a dynamic
 * array's offset and length as the record states them, and a damaged trace.dat would have
 * the plugins read past the record.
 */
#ifndef LBRSNAP_LBR_FIELD_H
#define LBRSNAP_LBR_FIELD_H

#include <traceevent/event-parse.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The bytes of field name in record r, their count in *len; NULL when the event has no such
 * field or the field (or a dynamic array's data) does not lie inside the record.
 */
const void *lbr_field__raw(struct tep_event *ev, struct tep_record *r, const char *name,
			   int *len);
/* A scalar field (1, 2, 4 or 8 bytes) of r into *val. Returns 0, or -1 as lbr_field__raw(). */
int lbr_field__val(struct tep_event *ev, struct tep_record *r, const char *name,
		   unsigned long long *val);

/*
 * The name a field has in ev: name, or old in files written before the rename (see
 * "Renamed fields" in trace-cmd-lbr(1): hook is attach, trimmed trim_branches/trim_stack).
 */
const char *lbr_field__name(struct tep_event *ev, const char *name, const char *old);

#ifdef __cplusplus
}
#endif

#endif /* LBRSNAP_LBR_FIELD_H */
