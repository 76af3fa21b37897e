// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libtraceevent plugin for lbrsnap's "lbr" events: prints branch snapshots and stacks with
 * symbols (their u64[] arrays otherwise print as decimal numbers), return values as their
 * type says (lbr_ret__format(), the formatter of every lbrsnap output, built in from
 * lib/lbrfile/ret-value.c) and decodes branch flags. Like lbrsnap report it leaves out the tracing
 * path's entries and says how many; the option lbr:keep-all (trace-cmd report -O
 * lbr:keep-all) shows them too, marked '~'.
 *
 * Loaded by trace-cmd, KernelShark and perf. perf links libtraceevent statically and
 * exports only part of its API to plugins, so this file calls only tep_find_field,
 * tep_find_function, tep_find_function_address, tep_read_number (fields are read through
 * lbr-field.c, bounded by the record), tep_(un)register_event_handler,
 * tep_plugin_add/remove_options and trace_seq_printf/puts. It is built without
 * -ltraceevent so that those symbols bind to the host that loads it. One line per event:
 * KernelShark squeezes an event's output into one cell.
 */
#include <stdint.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "lbr-field.h"
#include "lbrfile/ret-value.h"

#define LBR_SYSTEM "lbr"
#define ENTRY_SIZE 24		/* from, to, flags */

/* struct perf_branch_entry flag bits (linux/perf_event.h) */
#define BR_MISPRED	(1ULL << 0)
#define BR_PREDICTED	(1ULL << 1)
#define BR_IN_TX	(1ULL << 2)
#define BR_ABORT	(1ULL << 3)
#define BR_CYCLES(f)	(((f) >> 4) & 0xffff)
#define BR_TYPE(f)	(((f) >> 20) & 0xf)

static struct tep_plugin_option plugin_options[] = {
	{
		.name = "keep-all",
		.plugin_alias = LBR_SYSTEM,
		.description = "show the tracing path's branch entries and stack frames (marked ~)",
	},
	{ .name = NULL },
};

static struct tep_plugin_option *keep_all = &plugin_options[0];

static void print_sym(struct trace_seq *s, struct tep_handle *tep, unsigned long long addr)
{
	const char *name = tep_find_function(tep, addr);

	if (name)
		trace_seq_printf(s, "%s+0x%llx", name, addr - tep_find_function_address(tep, addr));
	else
		trace_seq_printf(s, "0x%llx", addr);
}

static void print_flags(struct trace_seq *s, unsigned long long flags)
{
	/* what the hardware did not fill in stays unprinted */
	if (flags & BR_MISPRED)
		trace_seq_printf(s, " M");
	if (flags & BR_PREDICTED)
		trace_seq_printf(s, " P");
	if (flags & BR_IN_TX)
		trace_seq_printf(s, " TX");
	if (flags & BR_ABORT)
		trace_seq_printf(s, " ABORT");
	if (BR_CYCLES(flags))
		trace_seq_printf(s, " cycles=%llu", BR_CYCLES(flags));
	if (BR_TYPE(flags))
		trace_seq_printf(s, " type=%llu", BR_TYPE(flags));
}

static const char *get_str(struct trace_seq *s, struct tep_event *ev, struct tep_record *r,
			   const char *name)
{
	int len = 0;
	const char *str = lbr_field__raw(ev, r, name, &len);

	return str && len > 0 && !str[len - 1] ? str : "?";
}

static unsigned long long get_val(struct trace_seq *s, struct tep_event *ev,
				  struct tep_record *r, const char *name)
{
	unsigned long long v = 0;

	lbr_field__val(ev, r, name, &v);
	return v;
}

/* A u64[] field: its bytes and its element count, or NULL when absent or empty. */
static const unsigned char *get_array(struct trace_seq *s, struct tep_event *ev,
				      struct tep_record *r, const char *name, int el, int *n)
{
	const unsigned char *p;
	int len = 0;

	p = lbr_field__raw(ev, r, name, &len);
	*n = p ? len / el : 0;
	return *n ? p : NULL;
}

/* Branch entries, most recent first, after ": " and then separated by " | ". */
static void print_entries(struct trace_seq *s, struct tep_handle *tep, const unsigned char *e,
			  int n, const char *mark, int *printed)
{
	int i;

	for (i = 0; i < n; i++, e += ENTRY_SIZE) {
		trace_seq_puts(s, (*printed)++ ? " | " : ": ");
		trace_seq_puts(s, mark);
		print_sym(s, tep, tep_read_number(tep, e, 8));
		trace_seq_puts(s, " -> ");
		print_sym(s, tep, tep_read_number(tep, e + 8, 8));
		print_flags(s, tep_read_number(tep, e + 16, 8));
	}
}

static int snapshot_handler(struct trace_seq *s, struct tep_record *r, struct tep_event *ev,
			    void *ctx)
{
	struct tep_handle *tep = ev->tep;
	const unsigned char *e, *t;
	const char *trim;
	char ret[LBR_RET_LEN];
	int kind, n, nt, printed = 0;

	trace_seq_puts(s, get_str(s, ev, r, lbr_field__name(ev, "attach", "hook")));
	/* the call with its arguments, in files that have them */
	if (tep_find_field(ev, "has_call") && get_val(s, ev, r, "has_call")) {
		trace_seq_putc(s, ' ');
		trace_seq_puts(s, get_str(s, ev, r, "call"));
	}
	/* files from before typed return values: a signed value in every snapshot */
	kind = tep_find_field(ev, "ret_kind") ? (int)get_val(s, ev, r, "ret_kind") :
						LBRSNAP_RET_SIGNED;
	if (kind) {
		lbr_ret__format(kind, get_val(s, ev, r, "ret"), ret, sizeof(ret));
		trace_seq_printf(s, " ret=%s", ret);
	}
	trace_seq_printf(s, " nr=%llu", get_val(s, ev, r, "nr"));
	trim = lbr_field__name(ev, "trim_branches", "trimmed");
	if (tep_find_field(ev, trim))
		trace_seq_printf(s, " trim_branches=%llu", get_val(s, ev, r, trim));
	e = get_array(s, ev, r, "entries", ENTRY_SIZE, &n);
	t = get_array(s, ev, r, "tracing_entries", ENTRY_SIZE, &nt);
	/* the tracing path's entries are the newest: first, as in the snapshot */
	if (keep_all->set)
		print_entries(s, tep, t, nt, "~", &printed);
	print_entries(s, tep, e, n, "", &printed);
	return 0;
}

static int branch_handler(struct trace_seq *s, struct tep_record *r, struct tep_event *ev,
			  void *ctx)
{
	struct tep_handle *tep = ev->tep;

	trace_seq_printf(s, "[%llu/%llu] ", get_val(s, ev, r, "idx"), get_val(s, ev, r, "nr"));
	print_sym(s, tep, get_val(s, ev, r, "from"));
	trace_seq_puts(s, " -> ");
	print_sym(s, tep, get_val(s, ev, r, "to"));
	print_flags(s, get_val(s, ev, r, "flags"));
	return 0;
}

/* Return addresses, innermost first, read as "called from". */
static void print_frames(struct trace_seq *s, struct tep_handle *tep, const unsigned char *ip,
			 int n, const char *mark, int *printed)
{
	int i;

	for (i = 0; i < n; i++, ip += 8) {
		trace_seq_puts(s, (*printed)++ ? " <- " : ": ");
		trace_seq_puts(s, mark);
		print_sym(s, tep, tep_read_number(tep, ip, 8));
	}
}

static int stack_handler(struct trace_seq *s, struct tep_record *r, struct tep_event *ev,
			 void *ctx)
{
	struct tep_handle *tep = ev->tep;
	const unsigned char *ip, *t;
	const char *trim;
	int n, nt, printed = 0;

	trace_seq_printf(s, "%s nr=%llu", get_str(s, ev, r, lbr_field__name(ev, "attach", "hook")),
			 get_val(s, ev, r, "nr"));
	trim = lbr_field__name(ev, "trim_stack", "trimmed");
	if (tep_find_field(ev, trim))
		trace_seq_printf(s, " trim_stack=%llu", get_val(s, ev, r, trim));
	ip = get_array(s, ev, r, "ips", 8, &n);
	t = get_array(s, ev, r, "tracing_ips", 8, &nt);
	/* the tracing path's frames are the innermost: first */
	if (keep_all->set)
		print_frames(s, tep, t, nt, "~", &printed);
	print_frames(s, tep, ip, n, "", &printed);
	return 0;
}

/*
 * The user frames were named when the trace was written (trace-cmd has no user symbols):
 * the same line as the format's, with its strings read within the record
 */
static int user_stack_handler(struct trace_seq *s, struct tep_record *r, struct tep_event *ev,
			      void *ctx)
{
	long long err = (int)get_val(s, ev, r, "ustack_err");

	trace_seq_printf(s, "%s nr=%llu", get_str(s, ev, r, lbr_field__name(ev, "attach", "hook")),
			 get_val(s, ev, r, "nr"));
	if (err)
		trace_seq_printf(s, " err=%lld", err);
	trace_seq_printf(s, ": %s", get_str(s, ev, r, "frames"));
	return 0;
}

static const struct {
	const char *name;
	tep_event_handler_func fn;
} handlers[] = {
	{ "branch_snapshot", snapshot_handler },
	{ "branch", branch_handler },
	{ "stack", stack_handler },
	{ "user_stack", user_stack_handler },
};

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		tep_register_event_handler(tep, -1, LBR_SYSTEM, handlers[i].name, handlers[i].fn,
					   NULL);
	/* `trace-cmd report -O lbr:keep-all` sets the option before the plugin loads */
	tep_plugin_add_options(LBR_SYSTEM, plugin_options);
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		tep_unregister_event_handler(tep, -1, LBR_SYSTEM, handlers[i].name,
					     handlers[i].fn, NULL);
	tep_plugin_remove_options(plugin_options);
}
