/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The recorder's table of attach kinds, one row per kind as libbpf's section definitions:
 * the spec's form and help line, the BPF programs that serve it, what the kernel must have,
 * how a program is prepared before load and how it is attached. What a kind is (its prefix,
 * kernel function or tracepoint, at a return or not) is lbrfile/lbr-kind.h, which the
 * capture file's readers share. Each kind's attach code lives in its own file
 * (attach-fexit.c, attach-tp.c, attach-uprobe.c, kprobe-multi.c, mem-watch.c).
 */
#ifndef LBRSNAP_ATTACH_KIND_H
#define LBRSNAP_ATTACH_KIND_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "capture/btf-types.h"
#include "lbrfile/lbr-kind.h"

struct bpf_link;
struct bpf_program;
struct attach_target;
struct kprobe_refused;
struct mem_watch;

enum attach_kind_flag {
	ATTACH_KIND_GLOB = 1 << 0,	/* the name may be a glob or a list "A,B*,C" */
	ATTACH_KIND_MULTI = 1 << 1,	/* the functions of a spec share one program */
	ATTACH_KIND_TRAMPOLINE = 1 << 2, /* runs in a BPF trampoline: a function it can type */
};

/* What the engine hands an attach function: one program and the targets it serves. */
struct attach_req {
	struct bpf_program *prog;
	const struct attach_target *t;	/* t[0..nr): nr > 1 only for ATTACH_KIND_MULTI */
	size_t nr;
	const char *spec;		/* the user's spec of t[0], as typed */
	__u32 first_func;		/* MULTI: t[0]'s entry in the funcs map */
	bool kprobe_single;		/* MULTI: one kprobe link per function */
	pid_t pid, tid;			/* -p, -t, or 0 */
	struct bpf_link **links;	/* out: a link per target (a MULTI link: links[0]) */
	struct mem_watch *watch;	/* out: a watchpoint's breakpoint events */
	struct kprobe_refused *refused;	/* out: functions of globs kprobes refused */
};

struct attach_kind {
	enum lbrsnap_kind kind;
	const char *prog;		/* its programs: lbrsnap_<prog>_N in capture.bpf.c */
	const char *form;		/* the spec's form: "fexit:FUNC" */
	const char *help;		/* what it records, in 28 columns (the -e help) */
	const char *needs;		/* what the kernel must have for it */
	unsigned int flags;		/* enum attach_kind_flag */
	enum btf_args_from args_from;	/* where its programs find the arguments */
	__u32 ap_flags;			/* LBRSNAP_AP_* its programs always take */
	__u32 ap_ret_flag;		/* ... and those of a target with a return value */
	__u32 ap_args_flag;		/* ... and of one with arguments */
	const char *load_refused;	/* why root may still be refused its programs, or NULL */
	const char *scope;		/* --calls: what its scope is, or NULL: none */
	/* before load: where the program goes; NULL: nothing to set */
	int (*prepare)(struct bpf_program *prog, const struct attach_target *t, bool single,
		       char *err, size_t err_len);
	/* 0, or a negative errno with a message naming the spec in err */
	int (*attach)(const struct attach_req *req, char *err, size_t err_len);
};

/* The row of kind, or NULL. */
const struct attach_kind *attach_kind__get(enum lbrsnap_kind kind);
/* Whether kind has any of flags (enum attach_kind_flag). */
bool attach_kind__is(enum lbrsnap_kind kind, unsigned int flags);
/* The functions of a spec share one program, slots and counters (kprobe-multi). */
static inline bool attach_kind__is_multi(enum lbrsnap_kind kind)
{
	return attach_kind__is(kind, ATTACH_KIND_MULTI);
}

/* The LBRSNAP_AP_* flags of target t's program. */
__u32 attach_kind__ap_flags(const struct attach_target *t);
/* "fexit:FUNC, kprobe:FUNC, ... or usdt:PATH:PROVIDER:NAME": every kind's form. */
void attach_kinds__forms(char *buf, size_t len);
/* -e's help: a line per kind, "  FORM  HELP\n" (a static text, built once). */
const char *attach_kinds__help(void);
/* "uretprobe:PATH:FUNC (F's entry to its return)": the kinds with a --calls scope */
void attach_kinds__scopes(char *buf, size_t len);
/* Each kind's form and help line, then a line saying what the kernel needs for it. */
void attach_kinds__print_help(FILE *out);

/* Shared by fexit and tp_btf: their programs load against the BTF of their target. */
int attach_kind__btf_target(struct bpf_program *prog, const struct attach_target *t,
			    bool single, char *err, size_t err_len);
/* A link attached, or the error naming the spec: 0 or a negative errno. */
int attach_kind__link(const struct attach_req *req, struct bpf_link *link, char *err,
		      size_t err_len);

/* The attach functions of the table's rows, each in its kind's file */
int attach_fexit__attach(const struct attach_req *req, char *err, size_t err_len);
int attach_tp__raw(const struct attach_req *req, char *err, size_t err_len);
int attach_tp__btf(const struct attach_req *req, char *err, size_t err_len);
int attach_uprobe__attach(const struct attach_req *req, char *err, size_t err_len);
int kprobe_multi__attach(const struct attach_req *req, char *err, size_t err_len);
int kprobe_multi__prepare(struct bpf_program *prog, const struct attach_target *t,
			  bool single, char *err, size_t err_len);
int mem_watch__attach(const struct attach_req *req, char *err, size_t err_len);

#endif /* LBRSNAP_ATTACH_KIND_H */
