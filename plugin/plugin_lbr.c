// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libtraceevent plugin for lbrsnap's "lbr" events: prints branch snapshots and stacks with
 * symbols (their u64[] arrays otherwise print as decimal numbers) and decodes branch flags.
 *
 * Loaded by trace-cmd, KernelShark and perf. perf links libtraceevent statically and
 * exports only part of its API to plugins, so this file calls only tep_find_function,
 * tep_find_function_address, tep_get_field_raw, tep_get_field_val, tep_read_number,
 * tep_(un)register_event_handler and trace_seq_printf/puts. It is built without
 * -ltraceevent so that those symbols bind to the host that loads it. One line per event:
 * KernelShark squeezes an event's output into one cell.
 */
#include <stdint.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#define LBR_SYSTEM "lbr"
#define ENTRY_SIZE 24		/* from, to, flags */

/* struct perf_branch_entry flag bits (linux/perf_event.h) */
#define BR_MISPRED	(1ULL << 0)
#define BR_PREDICTED	(1ULL << 1)
#define BR_IN_TX	(1ULL << 2)
#define BR_ABORT	(1ULL << 3)
#define BR_CYCLES(f)	(((f) >> 4) & 0xffff)
#define BR_TYPE(f)	(((f) >> 20) & 0xf)

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
	const char *str = tep_get_field_raw(s, ev, name, r, &len, 0);

	return str && len > 0 && !str[len - 1] ? str : "?";
}

static unsigned long long get_val(struct trace_seq *s, struct tep_event *ev,
				  struct tep_record *r, const char *name)
{
	unsigned long long v = 0;

	tep_get_field_val(s, ev, name, r, &v, 0);
	return v;
}

static int snapshot_handler(struct trace_seq *s, struct tep_record *r, struct tep_event *ev,
			    void *ctx)
{
	struct tep_handle *tep = ev->tep;
	unsigned long long from, to, flags;
	const unsigned char *e;
	int len = 0, i, n;

	trace_seq_printf(s, "%s ret=%lld nr=%llu", get_str(s, ev, r, "hook"),
			 (long long)get_val(s, ev, r, "ret"), get_val(s, ev, r, "nr"));
	e = tep_get_field_raw(s, ev, "entries", r, &len, 0);
	n = e ? len / ENTRY_SIZE : 0;
	for (i = 0; i < n; i++, e += ENTRY_SIZE) {
		from = tep_read_number(tep, e, 8);
		to = tep_read_number(tep, e + 8, 8);
		flags = tep_read_number(tep, e + 16, 8);
		trace_seq_puts(s, i ? " | " : ": ");
		print_sym(s, tep, from);
		trace_seq_puts(s, " -> ");
		print_sym(s, tep, to);
		print_flags(s, flags);
	}
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

static int stack_handler(struct trace_seq *s, struct tep_record *r, struct tep_event *ev,
			 void *ctx)
{
	struct tep_handle *tep = ev->tep;
	const unsigned char *ip;
	int len = 0, i, n;

	trace_seq_printf(s, "%s nr=%llu", get_str(s, ev, r, "hook"), get_val(s, ev, r, "nr"));
	ip = tep_get_field_raw(s, ev, "ips", r, &len, 0);
	n = ip ? len / 8 : 0;
	/* innermost first, read as "called from" */
	for (i = 0; i < n; i++, ip += 8) {
		trace_seq_puts(s, i ? " <- " : ": ");
		print_sym(s, tep, tep_read_number(tep, ip, 8));
	}
	return 0;
}

static const struct {
	const char *name;
	tep_event_handler_func fn;
} handlers[] = {
	{ "branch_snapshot", snapshot_handler },
	{ "branch", branch_handler },
	{ "stack", stack_handler },
};

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		tep_register_event_handler(tep, -1, LBR_SYSTEM, handlers[i].name, handlers[i].fn,
					   NULL);
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		tep_unregister_event_handler(tep, -1, LBR_SYSTEM, handlers[i].name,
					     handlers[i].fn, NULL);
}
