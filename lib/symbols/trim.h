/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The tracing path's own branches: between the traced event (a function return, a
 * tracepoint call) and bpf_get_branch_snapshot(), the kernel runs trampolines, kprobe or
 * tracepoint glue, migrate_disable(), the BPF program itself... and the LBR records those
 * branches too, as the newest entries. They say nothing about the traced code, so reports
 * hide them by default.
 */
#ifndef LBRSNAP_TRIM_H
#define LBRSNAP_TRIM_H

#include <stdbool.h>
#include <linux/types.h>
#include "capture.h"
#include "symbols/ksyms.h"

/* True when a function of that name (module may be NULL) runs only for the tracing path. */
bool trim__is_tracing_func(const char *name, const char *module);

/**
 * trim__branches() - Count the tracing path's entries at the newest end of a snapshot.
 * @ks: kernel symbols of the capture
 * @br: branch entries, br[0] the most recent
 * @nr: number of entries
 * @target: the traced function (never counted as tracing path), or NULL
 *
 * An entry belongs to the tracing path when the branch was taken in tracing-path code
 * (its source address). Counting stops at the first entry that was not, which is the traced
 * function's own return or the call into the tracepoint: that entry and everything older
 * is the traced code's. Unknown addresses stop the count.
 *
 * Return: the number of entries br[0..n-1] to hide.
 */
unsigned int trim__branches(const struct ksyms *ks, const struct lbrsnap_branch *br,
			    unsigned int nr, const char *target);

/**
 * trim__stack() - Count the tracing path's frames at the innermost end of a kernel stack.
 * @ks: kernel symbols of the capture
 * @stack: return addresses, innermost first
 * @nr: number of addresses
 * @target: the traced function (never counted as tracing path), or NULL
 *
 * Return: the number of frames stack[0..n-1] that belong to the tracing path.
 */
unsigned int trim__stack(const struct ksyms *ks, const __u64 *stack, unsigned int nr,
			 const char *target);

#endif /* LBRSNAP_TRIM_H */
