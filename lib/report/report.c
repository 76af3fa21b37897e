// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Rendering of capture records as text (retsnoop-like branch listings, oldest first) or
 * JSON Lines (one object per record, then one summary object).
 *
 * JSON strings carry arbitrary bytes (comm is whatever the task set): bytes outside
 * printable ASCII become \u00XX, i.e. each byte is read as a Latin-1 code point, which
 * keeps the output valid UTF-8 and loses nothing. Addresses are hex strings because
 * kernel addresses do not fit a double.
 */
#include <errno.h>
#include <string.h>
#include "lbr-stale.h"
#include "report.h"
#include "arg-value.h"
#include "ret-value.h"
#include "trim.h"

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
};

/* printf formats taking the count and a plural "s" */
static const char *const loss_texts[LBRSNAP_LOSS__MAX] = {
	[LBRSNAP_LOSS_RINGBUF] = "ring buffer full: %llu record%s lost",
	[LBRSNAP_LOSS_CLOBBERED] = "snapshot slot reused: %llu record%s kept without branches",
	[LBRSNAP_LOSS_RECURSION] = "program already running: %llu invocation%s skipped by the "
				   "kernel",
	[LBRSNAP_LOSS_UNREAD] = "submitted but never read: %llu record%s missing from the file",
};

void report__json_str(FILE *out, const char *s, size_t len)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_cstr(FILE *out, const char *s)
{
	if (s)
		report__json_str(out, s, strlen(s));
	else
		fputs("null", out);
}

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

static const struct lbr_attach_point *rec_ap(const struct report *r, const struct lbr_record *rec)
{
	return r->file ? lbrfile__attach(r->file, rec->ev->ap) : NULL;
}

/*
 * Symbolizes addr. Stack entries are return addresses: they are looked up one byte back so
 * that a call at the very end of a function is not credited to the next one.
 */
static void lookup(struct report *r, __u64 addr, bool ret_addr, struct symbolize_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	if (r->sym) {
		symbolizer__lookup(r->sym, ret_addr ? addr - 1 : addr, loc);
	} else if (r->ks) {
		loc->sym = ksyms__find(r->ks, ret_addr ? addr - 1 : addr);
		if (loc->sym)
			loc->off = addr - (ret_addr ? 1 : 0) - loc->sym->addr;
	}
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

/* inlined frames, outermost first: ". func (file:line)" */
static void text_inline(FILE *out, const struct symbolize_loc *loc, const char *indent)
{
	int i;

	for (i = loc->nr_frames - 2; i >= 0; i--) {
		const struct symbolize_frame *f = &loc->frames[i];

		fprintf(out, "%s. %s (%s:%d)\n", indent, f->func ?: "??", f->file ?: "??", f->line);
	}
}

static void text_header(struct report *r, const struct lbr_record *rec)
{
	const struct lbrsnap_event *ev = rec->ev;
	const struct lbr_attach_point *ap = rec_ap(r, rec);
	struct lbr_args view;
	FILE *out = r->out;
	bool has_args;

	fprintf(out, "%llu.%06llu [%03u] ", (unsigned long long)(ev->time_ns / 1000000000),
		(unsigned long long)(ev->time_ns % 1000000000 / 1000), ev->cpu);
	text_comm(out, ev);
	fprintf(out, "/%u/%u ", ev->pid, ev->tid);
	if (ap)
		fputs(ap->spec, out);
	else
		fprintf(out, "ap#%u", ev->ap);
	/* with arguments, the call as C reads it: openat(dfd=-100, ...) = -2 (ENOENT) */
	has_args = lbr_args__view(r->file, ap, rec, &view);
	if (has_args) {
		lbr_args__format_call(&view, args_buf, sizeof(args_buf));
		fprintf(out, " %s", args_buf);
	}
	if (ev->flags & LBRSNAP_EV_HAS_RET) {
		enum lbrsnap_ret_kind kind = lbr_ret__record_kind(ap, ev->flags);
		const char *name = lbr_errno__name(lbr_ret__errno(kind, ev->ret));
		char val[LBR_RET_LEN];

		lbr_ret__format(kind, ev->ret, val, sizeof(val));
		fprintf(out, has_args ? " = %s" : " ret=%s", val);
		if (name)
			fprintf(out, " (%s)", name);
	}
	fputc('\n', out);
}

static void text_branches(struct report *r, const struct lbr_record *rec, unsigned int trimmed)
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
		text_loc(out, &from, b->from);
		fputs(" -> ", out);
		text_loc(out, &to, b->to);
		if (BR_MISPRED(b->flags))
			fputs(" [mispred]", out);
		if (BR_CYCLES(b->flags))
			fprintf(out, " [%llu cycles]", (unsigned long long)BR_CYCLES(b->flags));
		fputc('\n', out);
		text_inline(out, &from, "            ");
		if (to.nr_frames > 1) {
			fputs("         -> inlined at the target:\n", out);
			text_inline(out, &to, "            ");
		}
	}
	if (!trimmed)
		return;
	if (r->keep_all)
		fprintf(out, "    [the %u newest entries, marked ~, are the tracing path]\n",
			trimmed);
	else
		fprintf(out, "    [%u tracing-path entries trimmed, --keep-all shows them]\n",
			trimmed);
}

static void text_stack(struct report *r, const struct lbr_record *rec, unsigned int trimmed)
{
	unsigned int i, nr = rec->ev->nr_stack;
	FILE *out = r->out;

	fputs("    kernel stack, innermost first:\n", out);
	if (trimmed && !r->keep_all)
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
		if (ev->lbr_ret < 0)
			fprintf(out, "    [no branches: bpf_get_branch_snapshot() returned %d "
				"(%s)]\n", ev->lbr_ret, lbr_errno__name(-ev->lbr_ret) ?: "?");
		else
			fputs("    [no branches, no stack]\n", out);
	}
}

/* LBR was off on the record's CPU when it was taken (lbr-stale.h) */
static bool rec_lbr_stale(const struct report *r, const struct lbr_record *rec)
{
	return r->file && lbrfile__lbr_stale(r->file, rec->ev->cpu, rec->ev->time_ns);
}

static void text_lbr_stale(struct report *r, const struct lbr_record *rec)
{
	if (rec_lbr_stale(r, rec))
		fputs("    [LBR was off on this CPU: branches may be stale]\n", r->out);
}

static void json_lbr_stale(struct report *r, const struct lbr_record *rec)
{
	fprintf(r->out, ",\"lbr_stale\":%s", rec_lbr_stale(r, rec) ? "true" : "false");
}

/* Summary: per CPU, how long LBR was off and how many records fall in that time. */
static int lbr_off_summary(struct report *r)
{
	struct lbr_stale s = {};
	FILE *out = r->out;
	char dur[32];
	size_t i;
	int err;

	err = r->file ? lbr_stale__tally(r->file, &s) : 0;
	if (err)
		return err;
	if (r->json)
		fputs(",\"lbr_off\":[", out);
	for (i = 0; i < s.nr_cpus; i++) {
		const struct lbr_stale_cpu *c = &s.cpus[i];

		if (r->json)
			fprintf(out, "%s{\"cpu\":%u,\"intervals\":%u,\"off_ns\":%llu,"
				"\"stale_records\":%llu}", i ? "," : "", c->cpu, c->nr_gaps,
				(unsigned long long)c->off_ns, (unsigned long long)c->records);
		else
			fprintf(out, "[ lbrsnap: cpu %u: LBR was off for up to %s (%u interval%s): "
				"%llu record%s may have stale branches ]\n", c->cpu,
				lbr_stale__duration(c->off_ns, dur, sizeof(dur)), c->nr_gaps,
				c->nr_gaps == 1 ? "" : "s", (unsigned long long)c->records,
				c->records == 1 ? "" : "s");
	}
	if (r->json)
		fprintf(out, "],\"lbr_stale_records\":%llu", (unsigned long long)s.records);
	lbr_stale__free(&s);
	return 0;
}

static void json_loc(FILE *out, const char *key, const struct symbolize_loc *loc, __u64 addr)
{
	char buf[SYM_LEN];

	fprintf(out, ",\"%s_sym\":", key);
	json_cstr(out, loc->sym ? symbolize__format(loc, addr, buf, sizeof(buf)) : NULL);
	fprintf(out, ",\"%s_src\":", key);
	json_cstr(out, src_str(loc, buf, sizeof(buf)));
}

static void json_branches(struct report *r, const struct lbr_record *rec, unsigned int trimmed)
{
	unsigned int i;
	FILE *out = r->out;

	fputs(",\"branches\":[", out);
	for (i = 0; i < rec->ev->nr_branches; i++) {
		const struct lbrsnap_branch *b = &rec->branches[i];
		struct symbolize_loc from, to;

		lookup(r, b->from, false, &from);
		lookup(r, b->to, false, &to);
		fprintf(out, "%s{\"from\":\"0x%llx\",\"to\":\"0x%llx\"", i ? "," : "",
			(unsigned long long)b->from, (unsigned long long)b->to);
		/* from_sym/from_src, then to_sym/to_src */
		json_loc(out, "from", &from, b->from);
		json_loc(out, "to", &to, b->to);
		fprintf(out, ",\"flags\":%llu,\"mispred\":%s,\"predicted\":%s,\"cycles\":%llu,"
			"\"type\":\"%s\",\"trimmed\":%s}", (unsigned long long)b->flags,
			BR_MISPRED(b->flags) ? "true" : "false",
			BR_PREDICTED(b->flags) ? "true" : "false",
			(unsigned long long)BR_CYCLES(b->flags), branch_types[BR_TYPE(b->flags)],
			i < trimmed ? "true" : "false");
	}
	fputc(']', out);
}

static void json_stack(struct report *r, const struct lbr_record *rec, unsigned int trimmed)
{
	unsigned int i;
	FILE *out = r->out;
	char buf[SYM_LEN];

	fputs(",\"stack\":[", out);
	for (i = 0; i < rec->ev->nr_stack; i++) {
		struct symbolize_loc loc;

		lookup(r, rec->stack[i], true, &loc);
		fprintf(out, "%s{\"addr\":\"0x%llx\",\"sym\":", i ? "," : "",
			(unsigned long long)rec->stack[i]);
		json_cstr(out, loc.sym ? symbolize__format(&loc, rec->stack[i], buf, sizeof(buf)) :
			  NULL);
		fputs(",\"src\":", out);
		json_cstr(out, src_str(&loc, buf, sizeof(buf)));
		fprintf(out, ",\"trimmed\":%s}", i < trimmed ? "true" : "false");
	}
	fputc(']', out);
}

/*
 * "ret" as its type says: integers as JSON numbers while a double holds them exactly (jq
 * reads numbers as doubles), else as a string of their digits; bools as true/false;
 * pointers as the formatted string ("0xffff888103a4c000", "NULL", "ERR_PTR(-ENOENT)").
 */
static void json_ret(FILE *out, enum lbrsnap_ret_kind kind, __s64 value)
{
	const __u64 exact = 1ULL << 53;
	char val[LBR_RET_LEN];
	bool number;

	lbr_ret__format(kind, value, val, sizeof(val));
	switch (kind) {
	case LBRSNAP_RET_NONE:
		fputs("null", out);
		return;
	case LBRSNAP_RET_BOOL:
		fputs(val, out);
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
		fputs(val, out);
	else
		json_cstr(out, val);
}

/*
 * "syscall" (sys_enter, sys_exit: its name, null otherwise) and "args": name to value,
 * numbers as JSON numbers where exact, enums, flags, modes and pointers as their text,
 * strings as strings ("args_truncated" names those cut at --string-len).
 */
static void json_args(struct report *r, const struct lbr_record *rec,
		      const struct lbr_attach_point *ap)
{
	struct lbr_args view;
	struct lbr_arg arg;
	FILE *out = r->out;
	bool any = false;
	__u32 i;

	if (!lbr_args__view(r->file, ap, rec, &view))
		return;
	fputs(",\"syscall\":", out);
	json_cstr(out, view.syscall_nr >= 0 ? view.call : NULL);
	fputs(",\"args\":{", out);
	for (i = 0; i < view.nr; i++) {
		lbr_args__get(&view, i, &arg);
		fprintf(out, "%s", i ? "," : "");
		json_cstr(out, arg.name);
		fputc(':', out);
		if (arg.kind == LBRSNAP_ARG_STRING && arg.str) {
			report__json_str(out, arg.str, arg.str_len);
		} else if (arg.base == 'd' && arg.kind != LBRSNAP_ARG_STRING && !*arg.enums) {
			json_ret(out, arg.kind, arg.value);
		} else {
			lbr_arg__format(&arg, args_buf, sizeof(args_buf));
			json_cstr(out, args_buf);
		}
	}
	fputc('}', out);
	for (i = 0; i < view.nr; i++) {
		lbr_args__get(&view, i, &arg);
		if (!arg.truncated)
			continue;
		fputs(any ? "," : ",\"args_truncated\":[", out);
		json_cstr(out, arg.name);
		any = true;
	}
	if (any)
		fputc(']', out);
}

static void json_record(struct report *r, const struct lbr_record *rec, unsigned int trimmed,
			unsigned int stack_trimmed)
{
	const struct lbrsnap_event *ev = rec->ev;
	const struct lbr_attach_point *ap = rec_ap(r, rec);
	enum lbrsnap_ret_kind kind = lbr_ret__record_kind(ap, ev->flags);
	FILE *out = r->out;

	/* a string: nanoseconds since boot pass 2^53 after 104 days, and jq rounds them */
	fprintf(out, "{\"time_ns\":\"%llu\",\"cpu\":%u,\"pid\":%u,\"tid\":%u,\"comm\":",
		(unsigned long long)ev->time_ns, ev->cpu, ev->pid, ev->tid);
	report__json_str(out, ev->comm, comm_len(ev));
	fprintf(out, ",\"ap\":%u,\"spec\":", ev->ap);
	json_cstr(out, ap ? ap->spec : NULL);
	fputs(",\"target\":", out);
	json_cstr(out, ap ? ap->target : NULL);
	fputs(",\"ret\":", out);
	json_ret(out, kind, ev->ret);
	fputs(",\"ret_type\":", out);
	json_cstr(out, kind && ap && ap->ret_type && *ap->ret_type ? ap->ret_type : NULL);
	fputs(",\"errno\":", out);
	json_cstr(out, lbr_errno__name(lbr_ret__errno(kind, ev->ret)));
	json_args(r, rec, ap);
	fprintf(out, ",\"flags\":%u,\"clobbered\":%s,\"lbr_ret\":%d,\"stack_err\":%d,"
		"\"seq\":%llu,\"trimmed\":%u,\"stack_trimmed\":%u", ev->flags,
		ev->flags & LBRSNAP_EV_CLOBBERED ? "true" : "false", ev->lbr_ret, ev->stack_err,
		(unsigned long long)ev->seq, trimmed, stack_trimmed);
	json_lbr_stale(r, rec);
	json_branches(r, rec, trimmed);
	json_stack(r, rec, stack_trimmed);
	fputs("}\n", out);
}

int report__record(struct report *r, const struct lbr_record *rec)
{
	const struct lbrsnap_event *ev = rec->ev;
	const struct lbr_attach_point *ap = rec_ap(r, rec);
	const char *target = ap ? ap->target : NULL;
	unsigned int trimmed = 0, stack_trimmed = 0;

	if (r->ks) {
		trimmed = trim__branches(r->ks, rec->branches, ev->nr_branches, target);
		stack_trimmed = trim__stack(r->ks, rec->stack, ev->nr_stack, target);
	}
	r->nr_records++;
	r->nr_with_branches += ev->nr_branches > 0;
	r->nr_with_stack += ev->nr_stack > 0;
	if (r->json) {
		json_record(r, rec, trimmed, stack_trimmed);
	} else {
		text_header(r, rec);
		if (ev->nr_branches)
			text_branches(r, rec, trimmed);
		if (ev->nr_stack)
			text_stack(r, rec, stack_trimmed);
		text_notes(r, rec);
		text_lbr_stale(r, rec);
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
	size_t ap, nr_ap = r->file ? lbrfile__nr_attach(r->file) : 0;
	FILE *out = r->out;
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
	fprintf(out, "[ lbrsnap: %llu record%s%s ]\n", (unsigned long long)r->nr_records,
		r->nr_records == 1 ? "" : "s", lost ? "" : ", none lost");
	if (counts)
		fprintf(out, "[ lbrsnap: the capture counted %llu hook hits: %llu recorded, %llu "
			"filtered, %llu sampled out ]\n", (unsigned long long)counts->hits,
			(unsigned long long)counts->records, (unsigned long long)counts->filtered,
			(unsigned long long)counts->sampled_out);
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
	FILE *out = r->out;
	int c, err;

	fputs("{\"losses\":[", out);
	for (ap = 0; ap < nr_ap; ap++) {
		const struct lbr_attach_point *a = lbrfile__attach(r->file, ap);

		fprintf(out, "%s{\"ap\":%zu,\"spec\":", ap ? "," : "", ap);
		json_cstr(out, a->spec);
		for (c = 0; c < LBRSNAP_LOSS__MAX; c++)
			fprintf(out, ",\"%s\":%llu", loss_keys[c],
				(unsigned long long)lbrfile__loss(r->file, ap, c));
		fputc('}', out);
	}
	fprintf(out, "],\"records\":%llu", (unsigned long long)r->nr_records);
	if (counts)
		fprintf(out, ",\"counts\":{\"hits\":%llu,\"records\":%llu,\"filtered\":%llu,"
			"\"sampled_out\":%llu,\"emitted\":%llu,\"follow_overflow\":%llu}",
			(unsigned long long)counts->hits, (unsigned long long)counts->records,
			(unsigned long long)counts->filtered,
			(unsigned long long)counts->sampled_out,
			(unsigned long long)counts->emitted,
			(unsigned long long)counts->follow_overflow);
	fputs(",\"lbr\":", out);
	json_cstr(out, r->file ? lbrfile__meta(r->file, "lbr") : NULL);
	err = lbr_off_summary(r);
	fputs("}\n", out);
	return err;
}

int report__summary(struct report *r)
{
	int err;

	if (r->json) {
		err = json_summary(r);
	} else {
		text_summary(r);
		err = lbr_off_summary(r);
	}
	return err ?: ferror(r->out) ? -EIO : 0;
}

static int record_cb(const struct lbr_record *rec, void *ctx)
{
	return report__record(ctx, rec);
}

int report__run(struct report *r)
{
	int err;

	err = lbrfile__for_each(r->file, true, record_cb, r);
	if (err)
		return err;
	return report__summary(r);
}
