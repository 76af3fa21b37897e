/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Whether a capture and a recording (perf.data, trace.dat) were made together: the same
 * kernel release, and time ranges that overlap or lie within a second of each other. CLOCK_MONOTONIC restarts at each boot, so a
 * recording of another boot or build merges into nonsense that looks right; `inject` and
 * `merge` refuse it unless told --force.
 */
#ifndef LBRSNAP_CAPTURE_MATCH_H
#define LBRSNAP_CAPTURE_MATCH_H

#include <stddef.h>
#include <linux/types.h>

/*
 * How far apart the two ranges may lie: each tool's range is that of its own events, and the
 * last syscall a capture records may come after the last sample of a recording made with it
 * (`lbrsnap perf record`: a millisecond); a recording of another time is minutes away.
 */
#define CAPTURE_MATCH_GAP_NS	1000000000ULL

struct capture_origin {
	const char *release;		/* kernel release (uname -r); NULL if not said */
	__u64 first_ns, last_ns;	/* CLOCK_MONOTONIC range of the events; 0, 0 if none */
};

/* The release in a "sysname nodename release machine" uname text, into buf ("" if none). */
void capture_match__uname_release(const char *uname, size_t len, char *buf, size_t buf_len);
/*
 * 0 if capture and recording may be merged; else -EXDEV with the reason in why (one line,
 * naming which differs).
 */
int capture_match__check(const struct capture_origin *cap, const struct capture_origin *rec,
			 char *why, size_t len);

#endif /* LBRSNAP_CAPTURE_MATCH_H */
