/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef LBRSNAP_MIN_HEAP_H
#define LBRSNAP_MIN_HEAP_H

#include <stddef.h>

/*
 * DEFINE_MIN_HEAP(name, type, less) declares name__push() and name__pop() over an array of
 * type kept as a binary min-heap by less(const type *, const type *). One declaration per
 * element type rather than one function over void *: the merges pop every record through a
 * heap, and the comparison must inline. The caller owns the array and grows it before a push.
 */
#define DEFINE_MIN_HEAP(name, type, less)						\
static inline void name##__push(type *h, size_t *nr, const type *v)			\
{											\
	size_t i;									\
											\
	for (i = (*nr)++; i && less(v, &h[(i - 1) / 2]); i = (i - 1) / 2)		\
		h[i] = h[(i - 1) / 2];							\
	h[i] = *v;									\
}											\
											\
static inline type name##__pop(type *h, size_t *nr)					\
{											\
	type top = h[0], last = h[--*nr];						\
	size_t i = 0, k;								\
											\
	while ((k = 2 * i + 1) < *nr) {							\
		if (k + 1 < *nr && less(&h[k + 1], &h[k]))				\
			k++;								\
		if (!less(&h[k], &last))						\
			break;								\
		h[i] = h[k];								\
		i = k;									\
	}										\
	if (*nr)									\
		h[i] = last;								\
	return top;									\
}

#endif /* LBRSNAP_MIN_HEAP_H */
