/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How --calls probes a scope's functions: a table of mechanisms, one row each (its name, the
 * kernel feature it needs and how that is probed, attach, detach), the first whose probe
 * passes on the running kernel chosen, never a version number. Kernel functions take the
 * programs lbrsnap_kcall_* of bpf/capture.bpf.c: each reads the function id from its link's
 * cookie and the return value from bpf_get_func_ret() (fexit) or the registers (kretprobe,
 * kprobe.session).
 */
#ifndef LBRSNAP_CALL_MECH_H
#define LBRSNAP_CALL_MECH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct bpf_link;
struct bpf_program;
struct call_funcs;

/* What a mechanism attaches and what it holds until detach */
struct call_mech_ctx {
	const struct call_funcs *funcs;	/* ids index it; addrs are BTF ids for the kernel */
	/* the loaded programs of the object (those of the chosen mechanism only) */
	struct bpf_program *entry;
	struct bpf_program *exit;
	struct bpf_link **links;	/* libbpf links */
	size_t nr_links, cap_links;
	int *fds;			/* raw program and link descriptors (clones) */
	size_t nr_fds, cap_fds;
	const char *spec;		/* --calls as given: a function it names must attach */
	/* functions a glob matched that the kernel refused to attach (-v names them) */
	size_t nr_refused;
	char refused[512];
};

/* The skeleton's programs a mechanism loads */
enum call_progs {
	CALL_PROGS_FENTRY,	/* kcall_fentry and kcall_fexit (clones per function, or multi) */
	CALL_PROGS_KPROBE,	/* kcall_kprobe and kcall_kretprobe */
	CALL_PROGS_SESSION,	/* kcall_kprobe for the scope's own entry, kcall_session */
};

struct call_mech {
	const char *key;		/* as --calls-via names it */
	const char *name;		/* as -v prints it and META calls_mechanism keeps it */
	const char *needs;		/* what the probe looks for */
	/* 0 if the running kernel takes it, else a negative errno and why */
	int (*probe)(char *why, size_t why_len);
	/*
	 * Probes functions [first, first + nr) of funcs: entries, and with exits their returns
	 * too, each function's id as its cookie. A function refused is an error naming it.
	 */
	int (*attach)(struct call_mech_ctx *m, size_t first, size_t nr, bool exits, char *err,
		      size_t err_len);
	void (*detach)(struct call_mech_ctx *m);
	enum call_progs progs;
};

/*
 * The mechanism for kernel functions on this kernel: the first row whose probe passes, or
 * with only (a key) that row if its probe passes. why collects what each row skipped found
 * (for -v, and the error). NULL if none.
 */
const struct call_mech *call_mech__choose_kernel(const char *only, char *why, size_t why_len);
/* Whether key names a row; the keys, ", "-separated in table order, into buf */
bool call_mech__known(const char *key);
const char *call_mech__keys(char *buf, size_t len);

/*
 * Attaches funcs' calls (ids 1..) with entries and exits, then the scope's own entry (id 0)
 * unless scope_entry is false (raw_tp:sys_exit: its sys_enter program opens the scope).
 * Entries and returns first, the scope's entry last: no scope starts half traced.
 */
int call_mech__attach(const struct call_mech *mech, struct call_mech_ctx *m, bool scope_entry,
		      char *err, size_t err_len);
void call_mech__detach(const struct call_mech *mech, struct call_mech_ctx *m);

#endif /* LBRSNAP_CALL_MECH_H */
