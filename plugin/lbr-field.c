// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Record-bounded field access for both viewer plugins. Calls only tep_find_field() and
 * tep_read_number(), which perf exports to its plugins.
 */
#include "lbr-field.h"

/* Whether [off, off + len) lies inside a record of size bytes. */
static int in_record(long long off, long long len, int size)
{
	return off >= 0 && len >= 0 && off <= size && len <= size - off;
}

const void *lbr_field__raw(struct tep_event *ev, struct tep_record *r, const char *name,
			   int *len)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	const char *data = r ? r->data : NULL;
	unsigned long long loc;
	long long off, size;

	if (!f || !data || !in_record(f->offset, f->size, r->size))
		return NULL;
	off = f->offset;
	size = f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* __data_loc: offset in the low 16 bits, length in the high ones */
		if (size != 2 && size != 4)
			return NULL;
		loc = tep_read_number(ev->tep, data + off, size);
		off = (loc & 0xffff) + (f->flags & TEP_FIELD_IS_RELATIVE ? f->offset + f->size : 0);
		size = loc >> 16;
		if (!in_record(off, size, r->size))
			return NULL;
	}
	*len = size;
	return data + off;
}

int lbr_field__val(struct tep_event *ev, struct tep_record *r, const char *name,
		   unsigned long long *val)
{
	const void *p;
	int len = 0;

	p = lbr_field__raw(ev, r, name, &len);
	if (!p || (len != 1 && len != 2 && len != 4 && len != 8))
		return -1;
	*val = tep_read_number(ev->tep, p, len);
	return 0;
}

const char *lbr_field__name(struct tep_event *ev, const char *name, const char *old)
{
	return ev && !tep_find_field(ev, name) && tep_find_field(ev, old) ? old : name;
}
