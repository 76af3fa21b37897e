/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * tracing_multi (7.2): one fentry.multi, fexit.multi or fsession.multi program attached to
 * many kernel functions by one link, each function named by its BTF id and handed a cookie.
 * Debian 12's libbpf 1.1 and UAPI headers predate it, so links are made with the raw
 * BPF_LINK_CREATE command (call-traces.md 2 gives the layout).
 *
 * The kernel refuses a whole link for one bad id (ENOENT: notrace; EINVAL: duplicates, the
 * migrate_* helpers, noreturn functions under fexit.multi). tracing_multi__filter() drops
 * what is known to be refused beforehand; tracing_multi__attach() finds the rest by halving
 * the list, names them in -v notes and attaches without them.
 */
#ifndef LBRSNAP_TRACING_MULTI_H
#define LBRSNAP_TRACING_MULTI_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct bpf_insn;
struct btf;

/* enum bpf_attach_type values of 7.2 (its BTF; libbpf HEAD's bpf.h) */
#define TRACING_MULTI_FENTRY	59
#define TRACING_MULTI_FEXIT	60
#define TRACING_MULTI_FSESSION	61

/*
 * 1 if the running kernel attaches fentry.multi programs (a trivial one loaded and attached
 * to bpf_fentry_test1: the kernel's answer, never its version), else 0. The first call
 * probes; later calls return its answer. tracing_multi__why() describes what the probe
 * found ("attach to bpf_fentry_test1: Invalid argument"), for -v and skip reasons.
 */
int tracing_multi__supported(void);
const char *tracing_multi__why(void);

/*
 * Loads insns as a TRACING program of attach_type (TRACING_MULTI_*), attach_btf_id 0: the
 * targets come with the link. Returns the program fd, or a negative errno; on a verifier
 * refusal log (if log_len) holds the verifier's log.
 */
int tracing_multi__load(const struct bpf_insn *insns, size_t n, int attach_type,
			const char *name, char *log, size_t log_len);

/*
 * Keeps in ids (and cookies, if not NULL, alongside) the functions a tracing_multi link may
 * be given, in order, and returns how many: a FUNC of btf whose name is listed once in
 * available_filter_functions (notrace functions are refused; a name listed twice is two
 * functions, and the link would take the first), that is not denied (the migrate_* helpers
 * the trampoline itself calls, the noreturn functions whose exit never comes), whose
 * prototype a trampoline can take (at most 12 arguments of at most 16 bytes, no varargs, no
 * struct return) and that no earlier entry names (a duplicate fails the link). A negative
 * errno if available_filter_functions cannot be read. nr_out counts what was left out, and
 * example names one "name: why" (may be NULL).
 */
int tracing_multi__filter(const struct btf *btf, __u32 *ids, __u64 *cookies, size_t cnt,
			  size_t *nr_out, char *example, size_t example_len);

/*
 * Attaches entry_prog_fd (fentry.multi, or -1 for none) and exit_prog_fd (fexit.multi or
 * fsession.multi, or -1) to the cnt functions of btf_ids, function i with cookies[i]
 * (cookies may be NULL: 0). Both links take the same functions: a function either link
 * refuses (EINVAL or ENOENT) is found by halving the list, named in a -v note and left out
 * of both. The links' fds go to *entry_link_fd and *exit_link_fd (-1 where no program was
 * given). Returns how many functions are attached, or a negative errno with a message
 * naming the refused step in err (no link is left open then).
 */
int tracing_multi__attach(int entry_prog_fd, int exit_prog_fd, const __u32 *btf_ids,
			  const __u64 *cookies, size_t cnt, int *entry_link_fd,
			  int *exit_link_fd, char *err, size_t err_len);

#endif /* LBRSNAP_TRACING_MULTI_H */
