// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Rendering of capture records as text (retsnoop-like branch listings, oldest first) or
 * JSON Lines (one object per record, then one summary object) through json-writer.h, which
 * escapes strings. Addresses are hex strings because kernel addresses do not fit a double.
 */
#include <errno.h>
#include <string.h>
#include "report/lbr-stale.h"
#include "report/report.h"
#include "lbrfile/arg-value.h"
#include "lbrfile/lbr-kind.h"
#include "util/json-writer.h"
#include "view/record-fields.h"
#include "view/record-view.h"
#include "report/user-frames.h"

/* A record's arguments as text: six strings of up to 1024 characters, escaped */
static char args_buf[6 * (4 * LBRSNAP_MAX_STRING_LEN + 64)];

#define SYM_LEN 256

/* perf_branch_entry bitfield (include/uapi/linux/perf_event.h) */
#define BR_MISPRED(f)	((f) & 1)
#define BR_PREDICTED(f)	(((f) >> 1) & 1)
#define BR_CYCLES(f)	(((f) >> 4) & 0xffff)
#define BR_TYPE(f)	(((f) >> 20) & 0xf)

static const char *const branch_types[16] = {
	"unknown", "cond", "uncond", "ind", "call", "ind_call", "ret", "syscall",
	"sysret", "cond_call", "cond_ret", "eret", "irq", "serror", "no_tx", "extend_abi",
};

static const char *const loss_keys[LBRSNAP_LOSS__MAX] = {
	[LBRSNAP_LOSS_RINGBUF] = "ringbuf",
	[LBRSNAP_LOSS_CLOBBERED] = "clobbered",
	[LBRSNAP_LOSS_RECURSION] = "recursion",
	[LBRSNAP_LOSS_UNREAD] = "unread",
	[LBRSNAP_LOSS_NESTED] = "nested",
	[LBRSNAP_LOSS_PROBE_MISSED] = "probe_missed",
	[LBRSNAP_LOSS_PERF_SKIPPED] = "perf_skipped",
};

/* printf formats taking the count and a plural "s" */
static const char *const loss_texts[LBRSNAP_LOSS__MAX] = {
	[LBRSNAP_LOSS_RINGBUF] = "ring buffer full: %llu record%s lost",
	[LBRSNAP_LOSS_CLOBBERED] = "snapshot slot reused: %llu record%s kept without branches",
	[LBRSNAP_LOSS_RECURSION] =
		"program already running: %llu invocation%s skipped by the kernel",
	[LBRSNAP_LOSS_UNREAD] = "submitted but never read: %llu record%s missing from the file",
	[LBRSNAP_LOSS_NESTED] = "programs nested too deep on a CPU: %llu record%s lost",
	[LBRSNAP_LOSS_PROBE_MISSED] = "the kprobe or fprobe missed %llu hit%s (its link's "
				      "missed count): not run",
	[LBRSNAP_LOSS_PERF_SKIPPED] = "%llu breakpoint hit%s counted by perf, program not run",
};

static size_t comm_len(const struct lbrsnap_event *ev)
{
	const char *nul = memchr(ev->comm, 0, sizeof(ev->comm));

	return nul ? (size_t)(nul - ev->comm) : sizeof(ev->comm);
}

/* comm with anything but printable ASCII as \xNN, so a hostile name cannot forge lines */
static void text_comm(FILE *out, const struct lbrsnap_event *ev)
{
	size_t i, n = comm_len(ev);

	for (i = 0; i < n; i++) {
		unsigned char c = ev->comm[i];

		if (c < 0x20 || c >= 0x7f || c == '\\')
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

/*
 * Symbolizes addr. Stack entries are return addresses: they are looked up one byte back so
 * that a call at the very end of a function is not credited to the next one.
 */
static const struct ksym *ks_lookup(const struct ksyms *ks, __u64 addr, bool ret_addr,
				    __u64 *off)
{
	const struct ksym *sym = ks ? ksyms__find(ks, ret_addr ? addr - 1 : addr) : NULL;

	if (sym)
		*off = addr - sym->addr;
	return sym;
}

static void lookup(struct report *r, __u64 addr, bool ret_addr, struct symbolize_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	if (!r->sym) {
		loc->sym = ks_lookup(r->ks, addr, ret_addr, &loc->off);
		return;
	}
	symbolizer__lookup(r->sym, ret_addr ? addr - 1 : addr, loc);
	if (loc->sym && ret_addr)
		loc->off++;
}

static const char *src_str(const struct symbolize_loc *loc, char *buf, size_t size)
{
	const struct symbolize_frame *f;

	if (!loc->nr_frames)
		return NULL;
	f = &loc->frames[loc->nr_frames - 1];
	snprintf(buf, size, "%s:%d", f->file ?: "??", f->line);
	return buf;
}

/* "sym+0xoff (file:line)" */
static void text_loc(FILE *out, const struct symbolize_loc *loc, __u64 addr)
{
	char sym[SYM_LEN], src[SYM_LEN];

	fputs(symbolize__format(loc, addr, sym, sizeof(sym)), out);
	if (src_str(loc, src, sizeof(src)))
		fprintf(out, " (%s)", src);
}

/* A branch address: user ones (-j u) are named from the process's maps */
static void text_branch_loc(struct report *r, const struct lbr_record *rec,
			    const struct symbolize_loc *loc, __u64 addr)
{
	char buf[SYM_LEN + 4096];
	struct usym_loc u;

	if (!user_frames__is_user(addr) || !r->file) {
		text_loc(r->out, loc, addr);
		return;
	}
	user_frames__lookup(&r->usyms, r->file, rec->ev->pid, addr, false, &u);
	fputs(usym__format(&u, addr, buf, sizeof(buf)), r->out);
}

/* inlined frames, outermost first: ". func (file:line)" */
static void text_inline(FILE *out, const struct symbolize_loc *loc, const char *indent)
{
	int i;

	for (i = loc->nr_frames - 2; i >= 0; i--) {
		const struct symbolize_frame *f = &loc->frames[i];

		fprintf(out, "%s. %s (%s:%d)\n", indent, f->func ?: "??", f->file ?: "??", f->line);
	}
}

/* when and who: "1.000002 [001] cat/1234/1235" */
static void text_when(FILE *out, const struct lbrsnap_event *ev)
{
	fprintf(out, "%llu.%06llu [%03u] ", (unsigned long long)(ev->time_ns / 1000000000),
		(unsigned long long)(ev->time_ns % 1000000000 / 1000), ev->cpu);
	text_comm(out, ev);
	fprintf(out, "/%u/%u", ev->pid, ev->tid);
}

/* where and what: "fexit:do_sys_openat2 ret=-2 (ENOENT)" */
/*
 * A return value read from a register whose type nothing says: a user function without
 * debug info (uretprobe), printed as the whole 64-bit register.
 */
static bool ret_type_unknown(const struct lbr_attach_point *ap, enum lbrsnap_ret_kind kind)
{
	return kind && ap && lbr_kind__is_user(ap->kind) && lbr_kind__is_return(ap->kind) &&
	       (!ap->ret_type || !*ap->ret_type);
}

/*
 * The attach point, the call and the return value. A group's line (with_args false) names
 * the syscall but not the example's arguments, which its other records need not share.
 */
static void text_what(struct report *r, const struct lbr_record_view *v, bool with_args)
{
	FILE *out = r->out;

	if (v->ap)
		fputs(v->attach, out);
	else
		fprintf(out, "ap#%u", v->ev->ap);
	/* with arguments, the call as C reads it: openat(dfd=-100, ...) = -2 (ENOENT) */
	if (v->has_args && with_args)
		fprintf(out, " %s", v->call);
	else if (v->syscall)
		fprintf(out, " %s", v->syscall);
	if (v->ret_kind) {
		fprintf(out, v->has_args ? " = %s" : " ret=%s", v->ret_str);
		if (v->errno_name)
			fprintf(out, " (%s)", v->errno_name);
		if (ret_type_unknown(v->ap, v->ret_kind))
			fputs(" (type unknown)", out);
	}
}

static void text_header(struct report *r, const struct lbr_record_view *v)
{
	text_when(r->out, v->ev);
	fputc(' ', r->out);
	text_what(r, v, true);
	fputc('\n', r->out);
}

/*
 * path: a group's path (report__groups): what all its records share, so no per-record flags
 * and no trimming notes
 */
static void text_branches(struct report *r, const struct lbr_record *rec, unsigned int trimmed,
			  bool path)
{
	unsigned int i, nr = rec->ev->nr_branches;
	unsigned int first = r->keep_all ? 0 : trimmed;
	FILE *out = r->out;

	/* oldest first: the way the code ran */
	for (i = nr; i-- > first;) {
		const struct lbrsnap_branch *b = &rec->branches[i];
		struct symbolize_loc from, to;

		lookup(r, b->from, false, &from);
		lookup(r, b->to, false, &to);
		fprintf(out, "    %c[#%02u] ", i < trimmed ? '~' : ' ', i);
		text_branch_loc(r, rec, &from, b->from);
		fputs(" -> ", out);
		text_branch_loc(r, rec, &to, b->to);
		if (BR_MISPRED(b->flags) && !path)
			fputs(" [mispred]", out);
		if (BR_CYCLES(b->flags) && !path)
			fprintf(out, " [%llu cycles]", (unsigned long long)BR_CYCLES(b->flags));
		fputc('\n', out);
		text_inline(out, &from, "            ");
		if (to.nr_frames > 1) {
			fputs("         -> inlined at the target:\n", out);
			text_inline(out, &to, "            ");
		}
	}
	if (!trimmed || path)
		return;
	if (r->keep_all)
		fprintf(out, "    [the %u newest entries, marked ~, are the tracing path]\n",
			trimmed);
	else
		fprintf(out, "    [%u tracing-path entries trimmed, --keep-all shows them]\n",
			trimmed);
}

static void text_stack(struct report *r, const struct lbr_record *rec, unsigned int trimmed,
		       bool path)
{
	unsigned int i, nr = rec->ev->nr_stack;
	FILE *out = r->out;

	fputs("    kernel stack, innermost first:\n", out);
	if (trimmed && !r->keep_all && !path)
		fprintf(out, "      [%u tracing-path frames trimmed, --keep-all shows them]\n",
			trimmed);
	for (i = r->keep_all ? 0 : trimmed; i < nr; i++) {
		struct symbolize_loc loc;

		lookup(r, rec->stack[i], true, &loc);
		fprintf(out, "     %c", i < trimmed ? '~' : ' ');
		text_loc(out, &loc, rec->stack[i]);
		fputc('\n', out);
		text_inline(out, &loc, "          ");
	}
}

/* Whether err is the first of its kind in the report: a capture's LBR fails the same way */
static bool lbr_ret_first(struct report *r, int err)
{
	unsigned int i;

	for (i = 0; i < r->nr_lbr_errs; i++) {
		if (r->lbr_errs[i] == err)
			return false;
	}
	if (r->nr_lbr_errs < sizeof(r->lbr_errs) / sizeof(r->lbr_errs[0]))
		r->lbr_errs[r->nr_lbr_errs++] = err;
	return true;
}

static void text_notes(struct report *r, const struct lbr_record *rec)
{
	const struct lbrsnap_event *ev = rec->ev;
	FILE *out = r->out;

	if (ev->flags & LBRSNAP_EV_CLOBBERED)
		fputs("    [clobbered: the snapshot slot was reused before the copy finished; "
		      "branches dropped]\n", out);
	if (ev->flags & LBRSNAP_EV_STACK_ERR)
		fprintf(out, "    [no stack: bpf_get_stack() failed: %d (%s)]\n", ev->stack_err,
			lbr_errno__name(-ev->stack_err) ?: "?");
	if (!ev->nr_branches && !ev->nr_stack && !(ev->flags & LBRSNAP_EV_CLOBBERED)) {
		if (ev->lbr_ret < 0 && lbr_ret_first(r, ev->lbr_ret))
			fprintf(out, "    [no branches: bpf_get_branch_snapshot() returned %d "
				"(%s); said once, for this record and the later ones]\n",
				ev->lbr_ret, lbr_errno__name(-ev->lbr_ret) ?: "?");
		else if (ev->lbr_ret >= 0)
			fputs("    [no branches, no stack]\n", out);
	}
}

/*
 * --calls: the scope's call tree, one line per call in entry order, indented by depth, with
 * its duration and result; the error's origin marked.
 */
static void text_calls(struct report *r, const struct lbr_record_view *v)
{
	const struct lbrsnap_calls *cb = v->calls;
	char name[128], val[LBR_RET_LEN + 24];
	FILE *out = r->out;
	unsigned int i;

	if (!cb)
		return;
	if (v->origin >= 0)
		fprintf(out, "  calls (origin %s):\n",
			lbr_record_view__call_name(v, v->origin, name, sizeof(name)));
	else
		fputs("  calls (no error origin):\n", out);
	for (i = 0; i < cb->nr; i++) {
		const struct lbrsnap_call *c = &cb->call[i];
		int indent = 2 * (c->depth < 20 ? c->depth : 20);

		lbr_record_view__call_name(v, i, name, sizeof(name));
		if (!(c->flags & LBRSNAP_CALL_RETURNED)) {
			fprintf(out, "    %*s%-*s %13s  (no return seen)\n", indent, "",
				32 - indent, name, "");
			continue;
		}
		/* the result as the record's own line says it: "-2 (ENOENT)" */
		fprintf(out, "    %*s%-*s %10.3f us  %s%s\n", indent, "", 32 - indent, name,
			(c->end_ns - c->start_ns) / 1000.0,
			lbr_record_view__call_result(v, i, val, sizeof(val)),
			(int)i == v->origin ? "  <- origin" : "");
	}
	if (cb->dropped)
		fprintf(out, "    [%u calls of the scope not recorded: deeper than %d or past %d "
			"calls]\n", cb->dropped, LBRSNAP_CALLS_DEPTH, LBRSNAP_MAX_CALLS);
}

static void json_ret(struct json_writer *w, enum lbrsnap_ret_kind kind, __s64 value);

/* "calls": [{func, depth, start_ns, duration_ns, ret, errno}], "origin": {...} or null */
static void json_call(struct json_writer *w, const struct lbr_record_view *v, unsigned int i,
		      bool origin)
{
	const struct lbrsnap_call *c = &v->calls->call[i];
	bool returned = c->flags & LBRSNAP_CALL_RETURNED;
	char name[128];

	json__begin_object(w);
	json__field_string(w, "func", lbr_record_view__call_name(v, i, name, sizeof(name)));
	json__field_u64(w, "depth", c->depth);
	if (!origin) {
		json__key(w, "start_ns");
		json__stringf(w, "%llu", (unsigned long long)c->start_ns);
		json__key(w, "duration_ns");
		if (returned)
			json__u64(w, c->end_ns - c->start_ns);
		else
			json__null(w);
	}
	json__key(w, "ret");
	json_ret(w, returned && (c->flags & LBRSNAP_CALL_HAS_RET) ? c->ret_kind : 0, c->ret);
	json__field_string(w, "errno", lbr_errno__name(lbr_record_view__call_errno(v, i)));
	json__end_object(w);
}

static void json_calls(struct json_writer *w, const struct lbr_record_view *v)
{
	unsigned int i;

	if (!v->calls)
		return;
	json__key(w, LBR_KEY(CALLS));
	json__begin_array(w);
	for (i = 0; i < v->calls->nr; i++)
		json_call(w, v, i, false);
	json__end_array(w);
	json__key(w, LBR_KEY(ORIGIN));
	if (v->origin >= 0)
		json_call(w, v, v->origin, true);
	else
		json__null(w);
	json__field_u64(w, LBR_KEY(CALLS_DROPPED), v->calls->dropped);
	json__field_string(w, LBR_KEY(SNAPSHOT_AT), v->snap_at_origin ? "origin" : "scope");
}

/* --calls: where the branches and stacks below were taken, before they are shown */
static void text_snap_at(struct report *r, const struct lbr_record_view *v)
{
	char name[128];

	if (!v->calls)
		return;
	if (v->snap_at_origin)
		fprintf(r->out, "  [snapshot and stacks at the origin %s's return]\n",
			lbr_record_view__call_name(v, v->origin, name, sizeof(name)));
	else if (v->calls->nr)
		fprintf(r->out, "  [snapshot and stacks at the scope %s's return]\n",
			lbr_record_view__call_name(v, 0, name, sizeof(name)));
}

/* LBR was off on the record's CPU when it was taken (lbr-stale.h) */
static void text_lbr_stale(struct report *r, const struct lbr_record_view *v)
{
	if (v->lbr_stale)
		fputs("    [LBR was off on this CPU: branches may be stale]\n", r->out);
}

static void json_lbr_stale(struct json_writer *w, const struct lbr_record_view *v)
{
	json__field_bool(w, LBR_KEY(LBR_STALE), v->lbr_stale);
}

/* The 0x0 -> 0x0 entries a context switch left (record-view.h): not shown, counted */
static void text_zero_branches(struct report *r, const struct lbr_record_view *v)
{
	if (v->zero_branches)
		fprintf(r->out, "    [%u zero entries left out: LBR was cleared at a context "
			"switch]\n", v->zero_branches);
}

/*
 * Summary: per CPU, how long LBR was off and how many records fall in that time; as members
 * of the JSON summary object in w, or (w NULL) as text lines.
 */
static int lbr_off_summary(struct report *r, struct json_writer *w)
{
	struct lbr_stale s = {};
	FILE *out = r->out;
	char dur[32];
	size_t i;
	int err;

	err = r->file ? lbr_stale__tally(r->file, &s) : 0;
	if (err)
		return err;
	if (w) {
		json__key(w, "lbr_off");
		json__begin_array(w);
	}
	for (i = 0; i < s.nr_cpus; i++) {
		const struct lbr_stale_cpu *c = &s.cpus[i];

		if (w) {
			json__begin_object(w);
			json__field_u64(w, "cpu", c->cpu);
			json__field_u64(w, "intervals", c->nr_gaps);
			json__field_u64(w, "off_ns", c->off_ns);
			json__field_u64(w, "stale_records", c->records);
			json__end_object(w);
		} else {
			fprintf(out, "[ lbrsnap: cpu %u: LBR was off for up to %s (%u interval%s): "
				"%llu record%s may have stale branches ]\n", c->cpu,
				lbr_stale__duration(c->off_ns, dur, sizeof(dur)), c->nr_gaps,
				c->nr_gaps == 1 ? "" : "s", (unsigned long long)c->records,
				c->records == 1 ? "" : "s");
		}
	}
	if (w) {
		json__end_array(w);
		json__field_u64(w, "lbr_stale_records", s.records);
	}
	lbr_stale__free(&s);
	return 0;
}

/* the keys of a location's symbol and source position */
struct loc_keys {
	const char *sym;
	const char *src;
};

static const struct loc_keys from_keys = { "from_sym", "from_src" };
static const struct loc_keys to_keys = { "to_sym", "to_src" };

static void json_loc(struct json_writer *w, const struct loc_keys *keys,
		     const struct symbolize_loc *loc, __u64 addr)
{
	char buf[SYM_LEN];

	json__field_string(w, keys->sym, loc->sym ? symbolize__format(loc, addr, buf, sizeof(buf)) :
			   NULL);
	json__field_string(w, keys->src, src_str(loc, buf, sizeof(buf)));
}

/* user addresses (-j u): "func+0xoff (path)" as the text has it, no source position */
static void json_branch_loc(struct report *r, struct json_writer *w, const struct lbr_record *rec,
			    const struct loc_keys *keys, const struct symbolize_loc *loc,
			    __u64 addr)
{
	char buf[SYM_LEN + 4096];
	struct usym_loc u;

	if (!user_frames__is_user(addr) || !r->file) {
		json_loc(w, keys, loc, addr);
		return;
	}
	user_frames__lookup(&r->usyms, r->file, rec->ev->pid, addr, false, &u);
	json__field_string(w, keys->sym, u.path ? usym__format(&u, addr, buf, sizeof(buf)) : NULL);
	json__field_string(w, keys->src, NULL);
}

/* path: a group's path, the entries of its key (no per-record flags) */
static void json_branches(struct report *r, struct json_writer *w, const struct lbr_record *rec,
			  unsigned int trimmed, bool path)
{
	unsigned int i, first = path && !r->keep_all ? trimmed : 0;

	json__key(w, "branches");
	json__begin_array(w);
	for (i = first; i < rec->ev->nr_branches; i++) {
		const struct lbrsnap_branch *b = &rec->branches[i];
		struct symbolize_loc from, to;

		lookup(r, b->from, false, &from);
		lookup(r, b->to, false, &to);
		json__begin_object(w);
		json__key(w, "from");
		json__stringf(w, "0x%llx", (unsigned long long)b->from);
		json__key(w, "to");
		json__stringf(w, "0x%llx", (unsigned long long)b->to);
		/* from_sym/from_src, then to_sym/to_src */
		json_branch_loc(r, w, rec, &from_keys, &from, b->from);
		json_branch_loc(r, w, rec, &to_keys, &to, b->to);
		if (!path) {
			json__field_u64(w, "flags", b->flags);
			json__field_bool(w, "mispred", BR_MISPRED(b->flags));
			json__field_bool(w, "predicted", BR_PREDICTED(b->flags));
			json__field_u64(w, "cycles", BR_CYCLES(b->flags));
			json__field_string(w, "type", branch_types[BR_TYPE(b->flags)]);
		}
		json__field_bool(w, "trimmed", i < trimmed);
		json__end_object(w);
	}
	json__end_array(w);
}

static void json_stack(struct report *r, struct json_writer *w, const struct lbr_record *rec,
		       unsigned int trimmed, bool path)
{
	unsigned int i, first = path && !r->keep_all ? trimmed : 0;
	char buf[SYM_LEN];

	json__key(w, "stack");
	json__begin_array(w);
	for (i = first; i < rec->ev->nr_stack; i++) {
		struct symbolize_loc loc;

		lookup(r, rec->stack[i], true, &loc);
		json__begin_object(w);
		json__key(w, "addr");
		json__stringf(w, "0x%llx", (unsigned long long)rec->stack[i]);
		json__field_string(w, "sym", loc.sym ? symbolize__format(&loc, rec->stack[i], buf,
									 sizeof(buf)) : NULL);
		json__field_string(w, "src", src_str(&loc, buf, sizeof(buf)));
		json__field_bool(w, "trimmed", i < trimmed);
		json__end_object(w);
	}
	json__end_array(w);
}

/*
 * "ret" as its type says: integers as JSON numbers while a double holds them exactly (jq
 * reads numbers as doubles), else as a string of their digits; bools as true/false;
 * pointers as the formatted string ("0xffff888103a4c000", "NULL", "ERR_PTR(-ENOENT)").
 */
static void json_ret(struct json_writer *w, enum lbrsnap_ret_kind kind, __s64 value)
{
	const __u64 exact = 1ULL << 53;
	char val[LBR_RET_LEN];
	bool number;

	lbr_ret__format(kind, value, val, sizeof(val));
	switch (kind) {
	case LBRSNAP_RET_NONE:
		json__null(w);
		return;
	case LBRSNAP_RET_BOOL:
		json__bool(w, value);
		return;
	case LBRSNAP_RET_POINTER:
		number = false;
		break;
	case LBRSNAP_RET_UNSIGNED:
		number = (__u64)value < exact;
		break;
	default:
		number = value > -(__s64)exact && value < (__s64)exact;
		break;
	}
	if (number)
		json__raw(w, val);
	else
		json__string(w, val);
}

/*
 * "syscall" (sys_enter, sys_exit: its name, null otherwise) and "args": name to value,
 * numbers as JSON numbers where exact, enums, flags, modes and pointers as their text,
 * strings as strings ("args_truncated" names those cut at --string-len).
 */
static void json_args(struct json_writer *w, const struct lbr_record_view *v, bool with_args)
{
	const struct lbr_args *view = &v->args;
	struct lbr_arg arg;
	bool any = false;
	__u32 i;

	if (!v->has_args)
		return;
	json__field_string(w, LBR_KEY(SYSCALL), v->syscall);
	if (!with_args)
		return;
	json__key(w, LBR_KEY(ARGS));
	json__begin_object(w);
	for (i = 0; i < view->nr; i++) {
		lbr_args__get(view, i, &arg);
		json__key(w, arg.name);
		if (arg.kind == LBRSNAP_ARG_STRING && arg.str) {
			json__string_len(w, arg.str, arg.str_len);
		} else if (arg.base == 'd' && arg.kind != LBRSNAP_ARG_STRING && !*arg.enums &&
			   !arg.unavailable) {
			json_ret(w, arg.kind, arg.value);
		} else {
			lbr_arg__format(&arg, args_buf, sizeof(args_buf));
			json__string(w, args_buf);
		}
	}
	json__end_object(w);
	for (i = 0; i < view->nr; i++) {
		lbr_args__get(view, i, &arg);
		if (!arg.truncated)
			continue;
		if (!any) {
			json__key(w, LBR_KEY(ARGS_TRUNCATED));
			json__begin_array(w);
		}
		json__string(w, arg.name);
		any = true;
	}
	if (any)
		json__end_array(w);
}

/* "time_ns", "cpu", "pid", "tid", "comm" */
static void json_when(struct json_writer *w, const struct lbrsnap_event *ev)
{
	/* a string: nanoseconds since boot pass 2^53 after 104 days, and jq rounds them */
	json__key(w, "time_ns");
	json__stringf(w, "%llu", (unsigned long long)ev->time_ns);
	json__field_u64(w, "cpu", ev->cpu);
	json__field_u64(w, "pid", ev->pid);
	json__field_u64(w, "tid", ev->tid);
	json__key(w, "comm");
	json__string_len(w, ev->comm, comm_len(ev));
}

/* "ap", "attach", "target", "ret", "ret_type", "errno" */
static void json_what(struct json_writer *w, const struct lbr_record_view *v)
{
	const struct lbr_attach_point *ap = v->ap;

	json__field_u64(w, LBR_KEY(AP), v->ev->ap);
	json__field_string(w, LBR_KEY(ATTACH), ap ? v->attach : NULL);
	json__field_string(w, LBR_KEY(TARGET), v->target);
	json__key(w, LBR_KEY(RET));
	json_ret(w, v->ret_kind, v->ret);
	json__field_string(w, LBR_KEY(RET_TYPE), ret_type_unknown(ap, v->ret_kind) ? "unknown" :
			   v->ret_kind && ap && ap->ret_type && *ap->ret_type ? ap->ret_type : NULL);
	json__field_string(w, LBR_KEY(ERRNO), v->errno_name);
}

static void json_record(struct report *r, const struct lbr_record_view *v)
{
	const struct lbrsnap_event *ev = v->ev;
	struct json_writer w, *json = &w;

	json_writer__init(&w, r->out);
	json__begin_object(&w);
	json_when(&w, ev);
	json_what(&w, v);
	json_args(&w, v, true);
	json__field_u64(&w, LBR_KEY(FLAGS), ev->flags);
	json__field_bool(&w, LBR_KEY(CLOBBERED), ev->flags & LBRSNAP_EV_CLOBBERED);
	json__field_s64(&w, LBR_KEY(LBR_RET), ev->lbr_ret);
	json__field_s64(&w, LBR_KEY(STACK_ERR), ev->stack_err);
	LBR_JSON_FIELDS(LBR_F_JSON)
	json_lbr_stale(&w, v);
	json__field_u64(&w, "zero_branches", v->zero_branches);
	json_branches(r, &w, v->rec, v->trim_branches, false);
	json_stack(r, &w, v->rec, v->trim_stack, false);
	user_frames__json(&w, &r->usyms, r->file, v->rec);
	json_calls(&w, v);
	json__end_object(&w);
}

/* The record's view: what every line of it shows (record-view.h) */
static const struct lbr_record_view *rec_view(struct report *r, const struct lbr_record *rec)
{
	lbr_record_view__init(&r->view, r->file, r->ks, rec, r->keep_all ? LBR_VIEW_KEEP_ALL : 0);
	return &r->view;
}

static void rec_count(struct report *r, const struct lbr_record *rec)
{
	r->nr_records++;
	r->nr_with_branches += rec->ev->nr_branches > 0;
	r->nr_with_stack += rec->ev->nr_stack > 0;
}

int report__record(struct report *r, const struct lbr_record *rec)
{
	const struct lbr_record_view *v = rec_view(r, rec);
	const struct lbrsnap_event *ev = v->ev;

	rec = v->rec;	/* as shown: its branches end before a zero entry (record-view.h) */
	rec_count(r, rec);
	if (r->json) {
		json_record(r, v);
	} else {
		text_header(r, v);
		text_snap_at(r, v);
		if (ev->nr_branches)
			text_branches(r, rec, v->trim_branches, false);
		if (ev->nr_stack)
			text_stack(r, rec, v->trim_stack, false);
		user_frames__text(r->out, &r->usyms, r->file, rec);
		text_calls(r, v);
		text_notes(r, rec);
		text_zero_branches(r, v);
		text_lbr_stale(r, v);
		fputc('\n', r->out);
	}
	return ferror(r->out) ? -EIO : 0;
}

/* META "lbr" is "STATE[: details]"; STATE yes/available/on means LBR was recorded. */
static bool lbr_available(const char *lbr)
{
	static const char *const yes[] = { "yes", "available", "on", "enabled" };
	size_t i, n = strcspn(lbr, ":; (");

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (n == strlen(yes[i]) && !strncmp(lbr, yes[i], n))
			return true;
	}
	return false;
}

static void text_summary(struct report *r)
{
	const struct lbrfile_counts *counts = r->file ? lbrfile__counts(r->file) : NULL;
	const char *lbr = r->file ? lbrfile__meta(r->file, "lbr") : NULL;
	const char *uncounted = r->file ? lbrfile__meta(r->file, "uncounted") : NULL;
	const char *order = r->file ? lbrfile__meta(r->file, "order") : NULL;
	size_t ap, nr_ap = r->file ? lbrfile__nr_attach(r->file) : 0;
	FILE *out = r->out;
	__u64 procs, gone;
	bool lost = false;
	int c;

	for (ap = 0; ap < nr_ap; ap++) {
		const struct lbr_attach_point *a = lbrfile__attach(r->file, ap);

		for (c = 0; c < LBRSNAP_LOSS__MAX; c++) {
			__u64 n = lbrfile__loss(r->file, ap, c);

			if (!n || !loss_texts[c])
				continue;
			fprintf(out, "[ lbrsnap: %s: ", a->spec);
			fprintf(out, loss_texts[c], (unsigned long long)n, n == 1 ? "" : "s");
			fputs(" ]\n", out);
			lost = true;
		}
	}
	fprintf(out, "[ lbrsnap: %llu record%s", (unsigned long long)r->nr_records,
		r->nr_records == 1 ? "" : "s");
	if (r->group)
		fprintf(out, " in %llu group%s", (unsigned long long)r->nr_groups,
			r->nr_groups == 1 ? "" : "s");
	fprintf(out, "%s ]\n", lost ? "" : ", none lost");
	if (counts)
		fprintf(out, "[ lbrsnap: the capture counted %llu hook hits: %llu recorded, %llu "
			"filtered, %llu sampled out ]\n", (unsigned long long)counts->hits,
			(unsigned long long)counts->records, (unsigned long long)counts->filtered,
			(unsigned long long)counts->sampled_out);
	if (uncounted)
		fprintf(out, "[ lbrsnap: not counted by the capturing kernel: %s ]\n", uncounted);
	/* snapshot-first is the rule, said by the JSON summary; the exception is said here too */
	if (order && !strncmp(order, "filter-first", strlen("filter-first")))
		fprintf(out, "[ lbrsnap: order of every attach point: %s ]\n", order);
	if (r->file && lbrfile__meta(r->file, "calls_mechanism"))
		fprintf(out, "[ lbrsnap: calls traced by %s ]\n",
			lbrfile__meta(r->file, "calls_mechanism"));
	user_frames__count(r->file, &procs, &gone);
	if (gone)
		fprintf(out, "[ lbrsnap: %llu of %llu processes exited before their maps were read: "
			"their user addresses stay unnamed ]\n", (unsigned long long)gone,
			(unsigned long long)procs);
	if (!lbr)
		return;
	if (lbr_available(lbr))
		fprintf(out, "LBR: %s\n", lbr);
	else
		fprintf(out, "LBR: not available on this machine (%s)%s\n", lbr,
			r->nr_with_stack ? "; kernel stacks captured instead" : "");
}

static int json_summary(struct report *r)
{
	const struct lbrfile_counts *counts = r->file ? lbrfile__counts(r->file) : NULL;
	size_t ap, nr_ap = r->file ? lbrfile__nr_attach(r->file) : 0;
	struct json_writer w;
	__u64 procs, gone;
	int c, err;

	json_writer__init(&w, r->out);
	json__begin_object(&w);
	json__key(&w, "losses");
	json__begin_array(&w);
	for (ap = 0; ap < nr_ap; ap++) {
		const struct lbr_attach_point *a = lbrfile__attach(r->file, ap);

		json__begin_object(&w);
		json__field_u64(&w, LBR_KEY(AP), ap);
		json__field_string(&w, LBR_KEY(ATTACH), a->spec);
		for (c = 0; c < LBRSNAP_LOSS__MAX; c++)
			json__field_u64(&w, loss_keys[c], lbrfile__loss(r->file, ap, c));
		json__end_object(&w);
	}
	json__end_array(&w);
	json__field_u64(&w, "records", r->nr_records);
	if (r->group)
		json__field_u64(&w, "groups", r->nr_groups);
	if (counts) {
		json__key(&w, "counts");
		json__begin_object(&w);
		json__field_u64(&w, "hits", counts->hits);
		json__field_u64(&w, "records", counts->records);
		json__field_u64(&w, "filtered", counts->filtered);
		json__field_u64(&w, "sampled_out", counts->sampled_out);
		json__field_u64(&w, "emitted", counts->emitted);
		json__field_u64(&w, "follow_overflow", counts->follow_overflow);
		json__end_object(&w);
	}
	user_frames__count(r->file, &procs, &gone);
	json__field_u64(&w, "procs", procs);
	json__field_u64(&w, "procs_gone", gone);
	json__field_string(&w, "lbr", r->file ? lbrfile__meta(r->file, "lbr") : NULL);
	if (r->file && lbrfile__meta(r->file, "uncounted"))
		json__field_string(&w, "uncounted", lbrfile__meta(r->file, "uncounted"));
	if (r->file && lbrfile__meta(r->file, "order"))
		json__field_string(&w, "order", lbrfile__meta(r->file, "order"));
	if (r->file && lbrfile__meta(r->file, "calls_mechanism"))
		json__field_string(&w, "calls_mechanism", lbrfile__meta(r->file, "calls_mechanism"));
	err = lbr_off_summary(r, &w);
	json__end_object(&w);
	return err;
}

int report__summary(struct report *r)
{
	int err;

	if (r->json) {
		err = json_summary(r);
	} else {
		text_summary(r);
		err = lbr_off_summary(r, NULL);
	}
	return err ?: ferror(r->out) ? -EIO : 0;
}

/*
 * Tags of the grouping key's fields (group.h). A field that identifies a path and is added
 * to records later (syscall name, arguments) is one more tag and one more
 * group_key__add() in rec_key().
 */
enum {
	KEY_AP = 'a',		/* attach point spec: ids differ between captures */
	KEY_AP_ID = 'A',	/* attach point id, for a record whose attach point is unknown */
	KEY_RET = 'r',		/* return value, already extended by its type */
	KEY_FLAGS = 'f',	/* the flags the record's notes depend on */
	KEY_STACK_ERR = 'e',
	KEY_LBR_RET = 'l',	/* for a record without branches or stack: why */
	KEY_BRANCH = 'b',	/* a branch: its from and to locations follow */
	KEY_FRAME = 's',	/* a stack frame: its location follows */
	KEY_SYM = 'n',		/* location: symbol name, */
	KEY_MODULE = 'm',	/*   module if any, */
	KEY_OFF = 'o',		/*   offset */
	KEY_ADDR = 'x',		/* location without a symbol: the address */
	KEY_SYSCALL = 'c',	/* sys_enter/sys_exit: the syscall's number */
	KEY_CALL = 'k',		/* --calls: a function of the path from the scope to the origin */
	KEY_NO_ORIGIN = 'K',	/* --calls: a scope without an error origin */
};

/*
 * By symbol+offset, so that the key does not depend on where the kernel was loaded; an
 * address without a symbol (no kallsyms) stays an address.
 */
static void key_loc(struct report *r, struct group_key *k, __u64 addr, bool ret_addr)
{
	__u64 off = 0;
	const struct ksym *sym = ks_lookup(r->ks, addr, ret_addr, &off);

	if (!sym) {
		group_key__add_u64(k, KEY_ADDR, addr);
		return;
	}
	group_key__add_str(k, KEY_SYM, sym->name);
	if (sym->module)
		group_key__add_str(k, KEY_MODULE, sym->module);
	group_key__add_u64(k, KEY_OFF, off);
}

/*
 * --calls: the scope, the origin and the calls between, by name (ids differ between captures);
 * the path's last function is the origin.
 */
static void key_calls(struct group_key *k, const struct lbr_record_view *v)
{
	unsigned int idx[LBRSNAP_CALLS_DEPTH], n, i;
	char name[128];

	n = lbr_record_view__origin_path(v, idx, LBRSNAP_CALLS_DEPTH);
	if (!n) {
		group_key__add(k, KEY_NO_ORIGIN, "", 0);
		return;
	}
	for (i = 0; i < n; i++)
		group_key__add_str(k, KEY_CALL, lbr_record_view__call_name(v, idx[i], name,
									     sizeof(name)));
}

/*
 * What makes two records the same path: attach point, syscall, return value, and the branches and
 * stack without the tracing path (it differs between BPF program loads; --keep-all keeps
 * it). The flags and errors text_notes() prints are in it too, so that the group's example
 * speaks for all of its records.
 */
static void rec_key(struct report *r, const struct lbr_record *rec, struct group_key *k)
{
	const struct lbr_record_view *v = rec_view(r, rec);
	const struct lbrsnap_event *ev = v->ev;
	unsigned int i;

	group_key__reset(k);
	if (v->ap)
		group_key__add_str(k, KEY_AP, v->attach);
	else
		group_key__add_u64(k, KEY_AP_ID, ev->ap);
	if (v->syscall)
		group_key__add_u64(k, KEY_SYSCALL, v->args.syscall_nr);
	if (ev->flags & LBRSNAP_EV_HAS_RET)
		group_key__add_u64(k, KEY_RET, ev->ret);
	group_key__add_u64(k, KEY_FLAGS, ev->flags & (LBRSNAP_EV_CLOBBERED | LBRSNAP_EV_STACK_ERR));
	if (ev->flags & LBRSNAP_EV_STACK_ERR)
		group_key__add_u64(k, KEY_STACK_ERR, ev->stack_err);
	if (!ev->nr_branches && !ev->nr_stack)
		group_key__add_u64(k, KEY_LBR_RET, ev->lbr_ret);
	for (i = v->skip_branches; i < ev->nr_branches; i++) {
		group_key__add(k, KEY_BRANCH, "", 0);
		key_loc(r, k, rec->branches[i].from, false);
		key_loc(r, k, rec->branches[i].to, false);
	}
	for (i = v->skip_stack; i < ev->nr_stack; i++) {
		group_key__add(k, KEY_FRAME, "", 0);
		key_loc(r, k, rec->stack[i], true);
	}
	if (v->calls)
		key_calls(k, v);
}

struct group_ctx {
	struct report *r;
	struct group_table *t;
	struct group_key key;
};

static int group_cb(const struct lbr_record *rec, void *ctx)
{
	struct group_ctx *c = ctx;

	rec_count(c->r, rec);
	rec_key(c->r, rec, &c->key);
	return group_table__add(c->t, &c->key, rec);
}

int report__group(struct report *r, struct group_table *t)
{
	struct group_ctx c = { .r = r, .t = t };
	int err;

	/* in time order: each group's example is its first record */
	err = lbrfile__for_each(r->file, true, group_cb, &c);
	group_key__free(&c.key);
	if (err)
		return err;
	group_table__sort(t);
	r->nr_groups = t->nr;
	return 0;
}

static double group_percent(const struct group_table *t, const struct group *g)
{
	return t->total ? 100.0 * g->count / t->total : 0;
}

/* --calls: the group's path of calls, "  origin fail_leaf: top > mid > fail_leaf" */
static void text_group_calls(struct report *r, const struct lbr_record_view *v)
{
	unsigned int idx[LBRSNAP_CALLS_DEPTH], n, i;
	char name[128];

	if (!v->calls)
		return;
	n = lbr_record_view__origin_path(v, idx, LBRSNAP_CALLS_DEPTH);
	if (!n) {
		fputs("  (no error origin)", r->out);
		return;
	}
	fprintf(r->out, "  origin %s:", lbr_record_view__call_name(v, v->origin, name,
								    sizeof(name)));
	for (i = 0; i < n; i++)
		fprintf(r->out, "%s%s", i ? " > " : " ",
			lbr_record_view__call_name(v, idx[i], name, sizeof(name)));
}

/* "  42.31%  11 records  raw_tp:sys_exit ret=-2 (ENOENT)", counts right-aligned */
static void text_group_line(struct report *r, const struct group_table *t, const struct group *g)
{
	int width = snprintf(NULL, 0, "%llu", (unsigned long long)t->groups[0].count);

	fprintf(r->out, " %6.2f%%  %*llu record%s  ", group_percent(t, g), width,
		(unsigned long long)g->count, g->count == 1 ? " " : "s");
	text_what(r, rec_view(r, &g->example), false);
	text_group_calls(r, &r->view);
	fputc('\n', r->out);
}

static void text_group(struct report *r, const struct group_table *t, const struct group *g)
{
	const struct lbr_record *ex = &g->example;
	const struct lbr_record_view *v;
	FILE *out = r->out;

	text_group_line(r, t, g);
	v = rec_view(r, ex);
	text_snap_at(r, v);
	if (v->ev->nr_branches)
		text_branches(r, v->rec, v->trim_branches, true);
	if (ex->ev->nr_stack)
		text_stack(r, ex, v->trim_stack, true);
	text_notes(r, ex);
	fputs("    first: ", out);
	text_when(out, ex->ev);
	fputs("\n\n", out);
}

/* --calls: "origin" ({func, depth, ret, errno} or null) and "call_path" (scope to origin) */
static void json_group_calls(struct json_writer *w, const struct lbr_record_view *v)
{
	unsigned int idx[LBRSNAP_CALLS_DEPTH], n, i;
	char name[128];

	if (!v->calls)
		return;
	json__key(w, LBR_KEY(ORIGIN));
	if (v->origin >= 0)
		json_call(w, v, v->origin, true);
	else
		json__null(w);
	n = lbr_record_view__origin_path(v, idx, LBRSNAP_CALLS_DEPTH);
	json__key(w, "call_path");
	json__begin_array(w);
	for (i = 0; i < n; i++)
		json__string(w, lbr_record_view__call_name(v, idx[i], name, sizeof(name)));
	json__end_array(w);
	json__field_string(w, LBR_KEY(SNAPSHOT_AT), v->snap_at_origin ? "origin" : "scope");
}

static void json_group(struct report *r, const struct group_table *t, const struct group *g,
		       size_t index)
{
	const struct lbr_record *ex = &g->example;
	const struct lbr_record_view *v = rec_view(r, ex);
	struct json_writer w;

	json_writer__init(&w, r->out);
	json__begin_object(&w);
	json__field_u64(&w, "group", index + 1);
	json__field_u64(&w, "count", g->count);
	json__key(&w, "percent");
	json__double(&w, group_percent(t, g), 2);
	json__key(&w, "key");
	json__stringf(&w, "%016llx", (unsigned long long)g->hash);
	json_what(&w, v);
	/* a group shares its syscall, not its example's arguments */
	json_args(&w, v, false);
	json__field_bool(&w, LBR_KEY(CLOBBERED), ex->ev->flags & LBRSNAP_EV_CLOBBERED);
	json__field_u64(&w, LBRF_trim_branches(LBR_F_STR), v->trim_branches);
	json__field_u64(&w, LBRF_trim_stack(LBR_F_STR), v->trim_stack);
	json_branches(r, &w, v->rec, v->trim_branches, true);
	json_stack(r, &w, ex, v->trim_stack, true);
	json_group_calls(&w, v);
	json__key(&w, "first");
	json__begin_object(&w);
	json_when(&w, ex->ev);
	json__field_u64(&w, LBRF_seq(LBR_F_STR), v->seq);
	json__end_object(&w);
	json__end_object(&w);
}

static int group_render(struct report *r, const struct group_table *t, size_t index)
{
	if (r->json)
		json_group(r, t, &t->groups[index], index);
	else
		text_group(r, t, &t->groups[index]);
	return ferror(r->out) ? -EIO : 0;
}

/* The largest groups, one line each, before the records (top_groups). */
static int text_top_groups(struct report *r)
{
	/* a copy: the records are counted again when they are rendered */
	struct report g = *r;
	struct group_table t = {};
	__u64 rest = 0;
	size_t i;
	int err;

	err = report__group(&g, &t);
	if (err)
		goto cleanup;
	fprintf(r->out, "[ lbrsnap: %llu records in %zu group%s of identical paths%s ]\n",
		(unsigned long long)t.total, t.nr, t.nr == 1 ? "" : "s",
		t.nr > REPORT_TOP_NR ? ", the largest" : "");
	for (i = 0; i < t.nr; i++) {
		if (i < REPORT_TOP_NR)
			text_group_line(r, &t, &t.groups[i]);
		else
			rest += t.groups[i].count;
	}
	if (t.nr > REPORT_TOP_NR)
		fprintf(r->out, "    ... %zu more group%s, %llu record%s\n", t.nr - REPORT_TOP_NR,
			t.nr - REPORT_TOP_NR == 1 ? "" : "s", (unsigned long long)rest,
			rest == 1 ? "" : "s");
	fputs("[ lbrsnap: --group shows each group's path once, --no-summary hides this ]\n\n",
	      r->out);
	err = ferror(r->out) ? -EIO : 0;
cleanup:
	group_table__free(&t);
	return err;
}

static int record_cb(const struct lbr_record *rec, void *ctx)
{
	return report__record(ctx, rec);
}

void report__release(struct report *r)
{
	user_frames__release(&r->usyms);
}

int report__run(struct report *r)
{
	struct group_table t = {};
	size_t i;
	int err;

	if (!r->group) {
		err = 0;
		if (r->top_groups && !r->json && lbrfile__nr_records(r->file) > REPORT_TOP_MIN)
			err = text_top_groups(r);
		err = err ?: lbrfile__for_each(r->file, true, record_cb, r);
		err = err ?: report__summary(r);
		report__release(r);
		return err;
	}
	err = report__group(r, &t);
	for (i = 0; !err && i < t.nr; i++)
		err = group_render(r, &t, i);
	group_table__free(&t);
	err = err ?: report__summary(r);
	report__release(r);
	return err;
}
