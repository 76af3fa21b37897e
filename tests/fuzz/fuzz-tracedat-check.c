// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fuzz-tracedat-struct's edits to a real recording, given to the checks alone
 * (tracedat_input__read_meta(): the walk that refuses a damaged file before libtracecmd sees
 * it). The whole merge runs about 40 inputs a second; this runs thousands, so that its long
 * run reaches ten million edited files in well under an hour.
 */
#define FUZZ_CHECK_ONLY
#include "fuzz-tracedat-struct.c"
