/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Rounding up to a power of two, as the kernel's ALIGN(). */
#ifndef LBRSNAP_ALIGN_H
#define LBRSNAP_ALIGN_H

#define ALIGN(x, a)	(((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))

#endif /* LBRSNAP_ALIGN_H */
