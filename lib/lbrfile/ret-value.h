/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Return values as their type says (enum lbrsnap_ret_kind): the one place that decides how
 * a value reads, so report, JSON, perf.data and trace.dat print the same thing.
 *
 *	int		-17		(errno: EEXIST)
 *	unsigned int	4294967279
 *	bool		true, false
 *	pointer		0xffff888103a4c000, NULL, ERR_PTR(-ENOMEM)	(errno: ENOMEM)
 */
#ifndef LBRSNAP_RET_VALUE_H
#define LBRSNAP_RET_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "capture.h"

struct lbr_attach_point;

/* Largest errno a kernel return value carries (MAX_ERRNO) */
#define LBR_MAX_ERRNO 4095
/* Room for any lbr_ret__format() text, "ERR_PTR(-ERESTART_RESTARTBLOCK)" the longest */
#define LBR_RET_LEN 48

/* The errno a value stands for: -4095..-1 for signed integers, IS_ERR() pointers; else 0. */
int lbr_ret__errno(enum lbrsnap_ret_kind kind, __s64 value);
/* Formats value as its type; returns what snprintf() returns. */
int lbr_ret__format(enum lbrsnap_ret_kind kind, __s64 value, char *buf, size_t len);
/*
 * How a record's ret reads: its attach point's kind when the record holds a return value
 * (LBRSNAP_EV_HAS_RET in ev_flags), else LBRSNAP_RET_NONE. Without a kind from the attach
 * point (ap NULL or NONE) a return value reads as a signed long, as in version-1 files.
 */
enum lbrsnap_ret_kind lbr_ret__record_kind(const struct lbr_attach_point *ap, __u32 ev_flags);
/* "signed", "unsigned", "bool", "pointer" or "none": the kind's name in JSON and formats. */
const char *lbr_ret__kind_name(enum lbrsnap_ret_kind kind);
/*
 * Symbolic name of an errno, kernel-internal codes (ERESTARTSYS, ENOTSUPP, ...) included;
 * NULL when err has none.
 */
const char *lbr_errno__name(int err);
/* The errno a name stands for ("EEXIST": 17), kernel-internal ones included; 0 if none. */
int lbr_errno__from_name(const char *name);

#endif /* LBRSNAP_RET_VALUE_H */
