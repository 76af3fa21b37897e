// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trim: the listings are the real LBR snapshots from retsnoop quoted in bpf-next
 * "Inline two LBR-related helpers" (Andrii Nakryiko, March 2024), fentry and kprobe-multi,
 * before and after the inlining, PERF_SAMPLE_BRANCH_ANY and ANY_RETURN; a hand-made
 * kallsyms holds their symbols. Then each kind on 6.1, 6.12 and 7.2 (trim-listings.h,
 * made by trim-listings.py from tests/vm/t-trim-kinds' guests): the kernel stacks the
 * guests recorded, and, as guests have no LBR, branch paths built from each kernel's own
 * functions and addresses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "symbols/trim.h"

/* A listing of a kernel the guests boot: its symbols, a recorded stack or built branches */
struct trim_listing {
	const char *name;
	const char *kallsyms;	/* the lines it needs, and the line after each (its end) */
	unsigned int kind;	/* enum lbrsnap_kind */
	const char *target;
	__u64 ip;		/* mem: where the access trapped, 0 */
	const char *stack;	/* as recorded, innermost first: "sym+0xoff" or "0xaddr" */
	const char *branches;	/* "[#NN] from -> to" lines, newest first */
	unsigned int trim;	/* the frames or entries that are tracing path */
};
#include "trim-listings.h"

/* vmlinux symbols, then BPF ones ("[bpf]" in kallsyms) */
static const char *const vmlinux_syms[] = {
	"__sys_bpf", "__x64_sys_bpf", "__bpf_prog_enter_recur", "migrate_disable",
	"bpf_get_smp_processor_id", "bpf_get_branch_snapshot", "intel_pmu_snapshot_branch_stack",
	"arch_rethook_trampoline", "arch_rethook_trampoline_callback",
	"rethook_trampoline_handler", "fprobe_exit_handler", "rcu_is_watching",
	"kprobe_multi_link_exit_handler", "kprobe_multi_link_prog_run", "__schedule",
	"__SCT__tp_func_sched_switch", "__traceiter_sched_switch", "__x86_indirect_thunk_rax",
	"__bpf_trace_sched_switch", "bpf_trace_run4", "__rcu_read_lock", "__x86_return_thunk",
	"do_sys_openat2", "schedule",
};
static const char *const bpf_syms[] = {
	"bpf_trampoline_6442508684", "bpf_trampoline_6442508829",
	"bpf_prog_dc54a596b39d4177_fexit1", "bpf_prog_2b455b4f8a8d48c5_kexit",
	"bpf_prog_6deef7357e7b4530_rawtp",
};

static struct ksyms *ks;

static int suite_init(void)
{
	size_t i, n = 0, cap = 8192;
	char *text = malloc(cap);
	int err;

	if (!text)
		return -1;
	for (i = 0; i < sizeof(vmlinux_syms) / sizeof(vmlinux_syms[0]); i++)
		n += snprintf(text + n, cap - n, "%016llx T %s\n", 0xffffffff81000000ull +
			      i * 0x10000, vmlinux_syms[i]);
	for (i = 0; i < sizeof(bpf_syms) / sizeof(bpf_syms[0]); i++)
		n += snprintf(text + n, cap - n, "%016llx t %s\t[bpf]\n", 0xffffffffc0000000ull +
			      i * 0x1000, bpf_syms[i]);
	err = ksyms__parse(text, n, &ks);
	free(text);
	return err ? -1 : 0;
}

static int suite_clean(void)
{
	ksyms__free(ks);
	return 0;
}

static __u64 resolve_in(const struct ksyms *in, const char *s)
{
	char name[128];
	unsigned long long off;
	const struct ksym *k;

	if (!strncmp(s, "0x", 2))
		return strtoull(s, NULL, 16);
	if (sscanf(s, "%127[^+]+%llx", name, &off) != 2)
		return 0;
	k = ksyms__by_name(in, name);
	return k ? k->addr + off : 0;
}

static __u64 resolve(const char *s)
{
	char name[128];
	unsigned long long off;
	const struct ksym *k;

	if (sscanf(s, "%127[^+]+%llx", name, &off) != 2)
		return 0;
	k = ksyms__by_name(ks, name);
	return k ? k->addr + off : 0;
}

/*
 * Turns a listing ("[#NN] from+0xoff -> to+0xoff" lines, newest first as printed by
 * retsnoop from the highest number down) into branch entries, entries[0] the newest.
 */
static unsigned int parse_listing_in(const struct ksyms *in, const char *listing,
				     struct lbrsnap_branch *br)
{
	char from[128], to[128];
	unsigned int idx, nr = 0;
	const char *p;

	for (p = listing; (p = strstr(p, "[#")); p++) {
		if (sscanf(p, "[#%u] %127s -> %127s", &idx, from, to) != 3)
			continue;
		CU_ASSERT_FATAL(idx < LBRSNAP_MAX_BRANCHES);
		br[idx].from = resolve_in(in, from);
		br[idx].to = resolve_in(in, to);
		br[idx].flags = 0;
		if (!br[idx].from || !br[idx].to)
			fprintf(stderr, "unresolved: %s -> %s\n", from, to);
		CU_ASSERT(br[idx].from && br[idx].to);
		nr++;
	}
	return nr;
}

static unsigned int parse_listing(const char *listing, struct lbrsnap_branch *br)
{
	return parse_listing_in(ks, listing, br);
}

/* The branches of a listing trimmed as a record of a kernel function (func) has them */
static unsigned int trim_listing(const char *listing, const char *func)
{
	struct lbrsnap_branch br[LBRSNAP_MAX_BRANCHES];
	unsigned int nr = parse_listing(listing, br);
	struct trim_rule r;

	trim__rule_func(&r, ks, func);
	CU_ASSERT_EQUAL(r.how, func ? TRIM_BY_RANGE : TRIM_BY_NAME);
	return trim__branches(ks, &r, br, nr);
}

/* ... as a tracepoint's record (the name list) */
static unsigned int trim_listing_tp(const char *listing, const char *tp)
{
	struct lbrsnap_branch br[LBRSNAP_MAX_BRANCHES];
	unsigned int nr = parse_listing(listing, br);
	struct trim_rule r;

	trim__rule_names(&r, tp);
	return trim__branches(ks, &r, br, nr);
}

static void test_fentry_any(void)
{
	static const char before[] =
	"[#10] __sys_bpf+0x270 -> __x64_sys_bpf+0x18\n"
	"[#09] __x64_sys_bpf+0x1a -> bpf_trampoline_6442508684+0x7f\n"
	"[#08] bpf_trampoline_6442508684+0x9c -> __bpf_prog_enter_recur+0x0\n"
	"[#07] __bpf_prog_enter_recur+0x9 -> migrate_disable+0x0\n"
	"[#06] migrate_disable+0x37 -> __bpf_prog_enter_recur+0xe\n"
	"[#05] __bpf_prog_enter_recur+0x43 -> bpf_trampoline_6442508684+0xa1\n"
	"[#04] bpf_trampoline_6442508684+0xad -> bpf_prog_dc54a596b39d4177_fexit1+0x0\n"
	"[#03] bpf_prog_dc54a596b39d4177_fexit1+0x32 -> bpf_get_smp_processor_id+0x0\n"
	"[#02] bpf_get_smp_processor_id+0xe -> bpf_prog_dc54a596b39d4177_fexit1+0x37\n"
	"[#01] bpf_prog_dc54a596b39d4177_fexit1+0xe0 -> bpf_get_branch_snapshot+0x0\n"
	"[#00] bpf_get_branch_snapshot+0x13 -> intel_pmu_snapshot_branch_stack+0x0\n";
	static const char after[] =
	"[#07] __sys_bpf+0xdfc -> __x64_sys_bpf+0x18\n"
	"[#06] __x64_sys_bpf+0x1a -> bpf_trampoline_6442508829+0x7f\n"
	"[#05] bpf_trampoline_6442508829+0x9c -> __bpf_prog_enter_recur+0x0\n"
	"[#04] __bpf_prog_enter_recur+0x9 -> migrate_disable+0x0\n"
	"[#03] migrate_disable+0x37 -> __bpf_prog_enter_recur+0xe\n"
	"[#02] __bpf_prog_enter_recur+0x43 -> bpf_trampoline_6442508829+0xa1\n"
	"[#01] bpf_trampoline_6442508829+0xad -> bpf_prog_dc54a596b39d4177_fexit1+0x0\n"
	"[#00] bpf_prog_dc54a596b39d4177_fexit1+0x101 -> intel_pmu_snapshot_branch_stack+0x0\n";

	/* everything newer than the traced function's own return into the trampoline */
	CU_ASSERT_EQUAL(trim_listing(before, "__x64_sys_bpf"), 9);
	CU_ASSERT_EQUAL(trim_listing(after, "__x64_sys_bpf"), 6);
	CU_ASSERT_EQUAL(trim_listing_tp(after, NULL), 6);
}

static void test_kprobe_multi_any(void)
{
	static const char before[] =
	"[#14] __sys_bpf+0x270 -> arch_rethook_trampoline+0x0\n"
	"[#13] arch_rethook_trampoline+0x27 -> arch_rethook_trampoline_callback+0x0\n"
	"[#12] arch_rethook_trampoline_callback+0x31 -> rethook_trampoline_handler+0x0\n"
	"[#11] rethook_trampoline_handler+0x6f -> fprobe_exit_handler+0x0\n"
	"[#10] fprobe_exit_handler+0x3d -> rcu_is_watching+0x0\n"
	"[#09] rcu_is_watching+0x17 -> fprobe_exit_handler+0x42\n"
	"[#08] fprobe_exit_handler+0xb4 -> kprobe_multi_link_exit_handler+0x0\n"
	"[#07] kprobe_multi_link_exit_handler+0x4 -> kprobe_multi_link_prog_run+0x0\n"
	"[#06] kprobe_multi_link_prog_run+0x2d -> migrate_disable+0x0\n"
	"[#05] migrate_disable+0x37 -> kprobe_multi_link_prog_run+0x32\n"
	"[#04] kprobe_multi_link_prog_run+0x58 -> bpf_prog_2b455b4f8a8d48c5_kexit+0x0\n"
	"[#03] bpf_prog_2b455b4f8a8d48c5_kexit+0x32 -> bpf_get_smp_processor_id+0x0\n"
	"[#02] bpf_get_smp_processor_id+0xe -> bpf_prog_2b455b4f8a8d48c5_kexit+0x37\n"
	"[#01] bpf_prog_2b455b4f8a8d48c5_kexit+0x82 -> bpf_get_branch_snapshot+0x0\n"
	"[#00] bpf_get_branch_snapshot+0x13 -> intel_pmu_snapshot_branch_stack+0x0\n";
	static const char after[] =
	"[#10] __sys_bpf+0xdfc -> arch_rethook_trampoline+0x0\n"
	"[#09] arch_rethook_trampoline+0x27 -> arch_rethook_trampoline_callback+0x0\n"
	"[#08] arch_rethook_trampoline_callback+0x31 -> rethook_trampoline_handler+0x0\n"
	"[#07] rethook_trampoline_handler+0x6f -> fprobe_exit_handler+0x0\n"
	"[#06] fprobe_exit_handler+0x3d -> rcu_is_watching+0x0\n"
	"[#05] rcu_is_watching+0x17 -> fprobe_exit_handler+0x42\n"
	"[#04] fprobe_exit_handler+0xb4 -> kprobe_multi_link_exit_handler+0x0\n"
	"[#03] kprobe_multi_link_exit_handler+0x31 -> migrate_disable+0x0\n"
	"[#02] migrate_disable+0x37 -> kprobe_multi_link_exit_handler+0x36\n"
	"[#01] kprobe_multi_link_exit_handler+0x5c -> bpf_prog_2b455b4f8a8d48c5_kexit+0x0\n"
	"[#00] bpf_prog_2b455b4f8a8d48c5_kexit+0xa3 -> intel_pmu_snapshot_branch_stack+0x0\n";

	CU_ASSERT_EQUAL(trim_listing(before, "__sys_bpf"), 14);
	CU_ASSERT_EQUAL(trim_listing(after, "__sys_bpf"), 10);
}

/* PERF_SAMPLE_BRANCH_ANY_RETURN: only returns are recorded */
static void test_any_return(void)
{
	static const char fentry_before[] =
	"[#04] __sys_bpf+0x270 -> __x64_sys_bpf+0x18\n"
	"[#03] __x64_sys_bpf+0x1a -> bpf_trampoline_6442508684+0x7f\n"
	"[#02] migrate_disable+0x37 -> __bpf_prog_enter_recur+0xe\n"
	"[#01] __bpf_prog_enter_recur+0x43 -> bpf_trampoline_6442508684+0xa1\n"
	"[#00] bpf_get_smp_processor_id+0xe -> bpf_prog_dc54a596b39d4177_fexit1+0x37\n";
	static const char fentry_after[] =
	"[#03] __sys_bpf+0xdfc -> __x64_sys_bpf+0x18\n"
	"[#02] __x64_sys_bpf+0x1a -> bpf_trampoline_6442508829+0x7f\n"
	"[#01] migrate_disable+0x37 -> __bpf_prog_enter_recur+0xe\n"
	"[#00] __bpf_prog_enter_recur+0x43 -> bpf_trampoline_6442508829+0xa1\n";
	static const char multi_before[] =
	"[#03] __sys_bpf+0x270 -> arch_rethook_trampoline+0x0\n"
	"[#02] rcu_is_watching+0x17 -> fprobe_exit_handler+0x42\n"
	"[#01] migrate_disable+0x37 -> kprobe_multi_link_prog_run+0x32\n"
	"[#00] bpf_get_smp_processor_id+0xe -> bpf_prog_2b455b4f8a8d48c5_kexit+0x37\n";
	static const char multi_after[] =
	"[#02] __sys_bpf+0xdfc -> arch_rethook_trampoline+0x0\n"
	"[#01] rcu_is_watching+0x17 -> fprobe_exit_handler+0x42\n"
	"[#00] migrate_disable+0x37 -> kprobe_multi_link_exit_handler+0x36\n";

	CU_ASSERT_EQUAL(trim_listing(fentry_before, "__x64_sys_bpf"), 3);
	CU_ASSERT_EQUAL(trim_listing(fentry_after, "__x64_sys_bpf"), 2);
	CU_ASSERT_EQUAL(trim_listing(multi_before, "__sys_bpf"), 3);
	CU_ASSERT_EQUAL(trim_listing(multi_after, "__sys_bpf"), 2);
}

/* raw_tp: the tracepoint call site is the traced code's; the path behind it is not */
static void test_raw_tracepoint(void)
{
	static const char listing[] =
	"[#11] schedule+0x20 -> __schedule+0x0\n"
	"[#10] __schedule+0x3a1 -> __SCT__tp_func_sched_switch+0x0\n"
	"[#09] __SCT__tp_func_sched_switch+0x0 -> __traceiter_sched_switch+0x0\n"
	"[#08] __traceiter_sched_switch+0x3e -> __x86_indirect_thunk_rax+0x0\n"
	"[#07] __x86_indirect_thunk_rax+0x0 -> __bpf_trace_sched_switch+0x0\n"
	"[#06] __bpf_trace_sched_switch+0x10 -> bpf_trace_run4+0x0\n"
	"[#05] bpf_trace_run4+0x4a -> __rcu_read_lock+0x0\n"
	"[#04] __rcu_read_lock+0x1e -> __x86_return_thunk+0x0\n"
	"[#03] __x86_return_thunk+0x0 -> bpf_trace_run4+0x4f\n"
	"[#02] bpf_trace_run4+0x90 -> __x86_indirect_thunk_rax+0x0\n"
	"[#01] __x86_indirect_thunk_rax+0x0 -> bpf_prog_6deef7357e7b4530_rawtp+0x0\n"
	"[#00] bpf_prog_6deef7357e7b4530_rawtp+0x40 -> intel_pmu_snapshot_branch_stack+0x0\n";

	CU_ASSERT_EQUAL(trim_listing_tp(listing, "sched_switch"), 10);
}

/* fexit on a function that is itself on the tracing path: its return is the event */
static void test_target_never_trimmed(void)
{
	static const char listing[] =
	"[#03] do_sys_openat2+0x10 -> migrate_disable+0x0\n"
	"[#02] migrate_disable+0x37 -> bpf_trampoline_6442508829+0x7f\n"
	"[#01] bpf_trampoline_6442508829+0xad -> bpf_prog_dc54a596b39d4177_fexit1+0x0\n"
	"[#00] bpf_prog_dc54a596b39d4177_fexit1+0x101 -> intel_pmu_snapshot_branch_stack+0x0\n";

	CU_ASSERT_EQUAL(trim_listing(listing, "migrate_disable"), 2);
	CU_ASSERT_EQUAL(trim_listing_tp(listing, NULL), 3);
}

static void test_edges(void)
{
	struct lbrsnap_branch br[2] = {
		{ .from = 0x1000, .to = resolve("schedule+0x0") },	/* below every symbol */
		{ .from = resolve("migrate_disable+0x1"), .to = resolve("schedule+0x0") },
	};
	struct trim_rule r;

	trim__rule_names(&r, NULL);
	CU_ASSERT_EQUAL(trim__branches(ks, &r, br, 2), 0);
	CU_ASSERT_EQUAL(trim__branches(ks, &r, br + 1, 1), 1);
	CU_ASSERT_EQUAL(trim__branches(ks, &r, br, 0), 0);
	/* no range: a function kallsyms lacks, the last symbol (no end), a user address */
	trim__rule_func(&r, ks, "no_such_function");
	CU_ASSERT_EQUAL(r.how, TRIM_BY_NAME);
	trim__rule_func(&r, ks, "bpf_prog_6deef7357e7b4530_rawtp");
	CU_ASSERT_EQUAL(r.how, TRIM_BY_NAME);
	trim__rule_addr(&r, ks, 0x401000);
	CU_ASSERT_EQUAL(r.how, TRIM_BY_NAME);
	trim__rule_addr(&r, ks, resolve("schedule+0x20"));
	CU_ASSERT_EQUAL(r.how, TRIM_BY_RANGE);
	CU_ASSERT_EQUAL(r.start, resolve("schedule+0x0"));
	CU_ASSERT_STRING_EQUAL(r.func, "schedule");
}

static void test_names(void)
{
	CU_ASSERT(trim__is_tracing_func("__pfx_migrate_disable", NULL));
	CU_ASSERT(trim__is_tracing_func("intel_pmu_snapshot_arch_branch_stack", NULL));
	CU_ASSERT(trim__is_tracing_func("amd_pmu_v2_snapshot_branch_stack", NULL));
	CU_ASSERT(trim__is_tracing_func("__bpf_prog_exit_recur", NULL));
	CU_ASSERT(trim__is_tracing_func("bpf_trace_run12", NULL));
	CU_ASSERT(trim__is_tracing_func("handle_swbp", NULL));
	CU_ASSERT(trim__is_tracing_func("uretprobe_dispatcher", NULL));
	CU_ASSERT_FALSE(trim__is_tracing_func("uprobe_register", NULL));
	CU_ASSERT(trim__is_tracing_func("any_name", "bpf"));
	CU_ASSERT(trim__is_tracing_func("ftrace_trampoline", "__builtin__ftrace"));
	CU_ASSERT_FALSE(trim__is_tracing_func("schedule", NULL));
	CU_ASSERT_FALSE(trim__is_tracing_func("do_sys_openat2", NULL));
	CU_ASSERT_FALSE(trim__is_tracing_func("ext4_lookup", "ext4"));
	CU_ASSERT_FALSE(trim__is_tracing_func("migrate_disable_switch", NULL));
	/* kprobe-multi over fgraph (6.14+), as 7.2.13's kallsyms names them */
	CU_ASSERT(trim__is_tracing_func("function_graph_enter_regs", NULL));
	CU_ASSERT(trim__is_tracing_func("__pfx_function_graph_enter_regs", NULL));
	CU_ASSERT(trim__is_tracing_func("fgraph_do_direct", NULL));
	CU_ASSERT(trim__is_tracing_func("__SCT__fgraph_func", NULL));
	CU_ASSERT(trim__is_tracing_func("__SCT__fgraph_retfunc", NULL));
	CU_ASSERT(trim__is_tracing_func("fprobe_fgraph_entry", NULL));
	CU_ASSERT(trim__is_tracing_func("fprobe_return", NULL));
	CU_ASSERT(trim__is_tracing_func("ftrace_return_to_handler", NULL));
	CU_ASSERT_FALSE(trim__is_tracing_func("filename_mkdirat", NULL));
	/* kprobe.session's --calls program asks before its exit's snapshot (6.12's kallsyms) */
	CU_ASSERT(trim__is_tracing_func("bpf_get_current_task_btf", NULL));
	CU_ASSERT_FALSE(trim__is_tracing_func("bpf_get_current_task", NULL));
}

/* bpf_get_stack() from a raw_tp program: the tracepoint glue is innermost */
static void test_stack(void)
{
	__u64 stack[] = {
		resolve("bpf_prog_6deef7357e7b4530_rawtp+0x60"),
		resolve("bpf_trace_run4+0x95"),
		resolve("__bpf_trace_sched_switch+0x15"),
		resolve("__traceiter_sched_switch+0x43"),
		resolve("__schedule+0x3a6"),
		resolve("schedule+0x25"),
	};
	struct trim_rule r;

	trim__rule_names(&r, "sched_switch");
	CU_ASSERT_EQUAL(trim__stack(ks, &r, stack, 6), 4);
	CU_ASSERT_EQUAL(trim__stack(ks, &r, stack + 4, 2), 0);
}

/* A record's arguments as a watchpoint's program writes them: address, value, ip */
struct mem_args {
	struct lbrsnap_args a;
	__u64 v[3];
};

static unsigned int trim_one(const struct trim_listing *l, bool names_only)
{
	struct lbrsnap_branch br[LBRSNAP_MAX_BRANCHES];
	__u64 stack[LBRSNAP_MAX_STACK];
	struct mem_args m = { .a = { .nr_args = 3 } };
	struct trim_rule r;
	struct ksyms *lks;
	unsigned int nr = 0, n;
	char frame[128];
	const char *p;
	int len;

	CU_ASSERT_FATAL(ksyms__parse(l->kallsyms, strlen(l->kallsyms), &lks) == 0);
	if (l->stack) {
		for (p = l->stack; nr < LBRSNAP_MAX_STACK &&
		     sscanf(p, "%127s%n", frame, &len) == 1; p += len) {
			stack[nr] = resolve_in(lks, frame);
			CU_ASSERT(stack[nr] != 0);
			nr++;
		}
	} else {
		nr = parse_listing_in(lks, l->branches, br);
	}
	/* the watched address: user memory, or kernel data (a listing's kernel address) */
	m.v[0] = strstr(l->name, "mem-user") ? 0x55555555b010ull : ksyms__at(lks, 0)->addr;
	/* where the access trapped: the recorded ip, or the source of the trap's entry */
	m.v[2] = l->ip ? l->ip : !l->stack && l->trim < nr ? br[l->trim].from : 0;
	if (names_only)
		trim__rule_names(&r, l->target);
	else
		trim__rule(&r, lks, l->kind, l->target,
			   l->kind == LBRSNAP_KIND_MEM ? &m.a : NULL);
	n = l->stack ? trim__stack(lks, &r, stack, nr) : trim__branches(lks, &r, br, nr);
	ksyms__free(lks);
	return n;
}

/*
 * Each kind on 6.1, 6.12 and 7.2 (trim-listings.h): the stacks the guests recorded and
 * the paths built from each kernel's functions, trimmed to the traced code exactly.
 */
static void test_kernel_listings(void)
{
	unsigned int i, n, kernels = 0;

	for (i = 0; i < sizeof(trim_listings) / sizeof(trim_listings[0]); i++) {
		const struct trim_listing *l = &trim_listings[i];

		n = trim_one(l, false);
		if (n != l->trim)
			fprintf(stderr, "%s: %u trimmed, want %u\n", l->name, n, l->trim);
		CU_ASSERT_EQUAL(n, l->trim);
		if (!strncmp(l->name, "6.1 ", 4))
			kernels |= 1;
		else if (!strncmp(l->name, "6.12 ", 5))
			kernels |= 2;
		else if (!strncmp(l->name, "7.2 ", 4))
			kernels |= 4;
	}
	CU_ASSERT_EQUAL(kernels, 7);
	CU_ASSERT(i >= 3 * 9 + 3 * 7);
}

/*
 * Where a name list cannot follow (issue 20 item 12): the way back to user mode after an
 * int3 (irqentry_exit_to_user_mode, find_active_uprobe, rwlock helpers), the perf event
 * path of a debug exception (perf_swevent_event, __perf_event_overflow) and the endbr read
 * of kprobe-multi's entry with IBT (copy_from_kernel_nofault) are on no list, so the list
 * stops short; the address rules do not depend on one.
 */
static void test_names_fall_short(void)
{
	static const char *const wrong[] = {
		"6.1 uprobe branches", "6.12 uprobe branches", "7.2 uprobe branches",
		"6.1 mem branches", "6.12 mem branches", "7.2 mem branches",
		"6.12 kprobe-ibt branches",	/* copy_from_kernel_nofault */
	};
	unsigned int i, j, found = 0;

	for (i = 0; i < sizeof(trim_listings) / sizeof(trim_listings[0]); i++) {
		const struct trim_listing *l = &trim_listings[i];

		for (j = 0; j < sizeof(wrong) / sizeof(wrong[0]); j++) {
			if (strcmp(l->name, wrong[j]))
				continue;
			found++;
			CU_ASSERT_EQUAL(trim_one(l, false), l->trim);
			CU_ASSERT(trim_one(l, true) < l->trim);
		}
	}
	CU_ASSERT_EQUAL(found, sizeof(wrong) / sizeof(wrong[0]));
}

/* Legacy LBR after a context switch: the older entries read 0x0 -> 0x0 (item 13) */
static void test_zero_entries(void)
{
	struct lbrsnap_branch br[LBRSNAP_MAX_BRANCHES] = {};
	static const char listing[] =
	"[#03] __sys_bpf+0xdfc -> __x64_sys_bpf+0x18\n"
	"[#02] __x64_sys_bpf+0x1a -> bpf_trampoline_6442508829+0x7f\n"
	"[#01] bpf_trampoline_6442508829+0xad -> bpf_prog_dc54a596b39d4177_fexit1+0x0\n"
	"[#00] bpf_prog_dc54a596b39d4177_fexit1+0x101 -> intel_pmu_snapshot_branch_stack+0x0\n";
	unsigned int nr = parse_listing(listing, br);
	struct trim_rule r;

	/* a switch just before the traced function returned: 28 entries wiped */
	CU_ASSERT_EQUAL(nr, 4);
	CU_ASSERT_EQUAL(trim__valid_branches(br, 32), 4);
	CU_ASSERT_EQUAL(trim__valid_branches(br, 4), 4);
	trim__rule_func(&r, ks, "__x64_sys_bpf");
	CU_ASSERT_EQUAL(trim__branches(ks, &r, br, trim__valid_branches(br, 32)), 2);
	/* a zero entry ends the snapshot even when non-zero ones follow it */
	br[6].from = br[0].from;
	br[6].to = br[0].to;
	CU_ASSERT_EQUAL(trim__valid_branches(br, 8), 4);
	/* wiped before anything was recorded again */
	CU_ASSERT_EQUAL(trim__valid_branches(br + 4, 2), 0);
	/* only both addresses zero is the wiped entry; one zero address is not */
	br[4].to = 0x1000;
	CU_ASSERT_EQUAL(trim__valid_branches(br, 8), 5);
}

/* User probes: the kernel's handling of the trap, everything newer than the user entry */
static void test_user_rule(void)
{
	struct lbrsnap_branch br[3] = {
		{ .from = resolve("bpf_prog_6deef7357e7b4530_rawtp+0x40"),
		  .to = resolve("intel_pmu_snapshot_branch_stack+0x0") },
		{ .from = 0x55555555a100ull, .to = resolve("schedule+0x0") },
		{ .from = 0x55555555a0c0ull, .to = 0x55555555a0e0ull },
	};
	__u64 stack[2] = { resolve("schedule+0x10"), resolve("__schedule+0x10") };
	struct trim_rule r;

	trim__rule(&r, ks, LBRSNAP_KIND_URETPROBE, "f", NULL);
	CU_ASSERT_EQUAL(r.how, TRIM_TO_USER);
	CU_ASSERT_EQUAL(trim__branches(ks, &r, br, 3), 1);
	/* no user entry left: all of it came after the trap */
	CU_ASSERT_EQUAL(trim__branches(ks, &r, br, 1), 1);
	CU_ASSERT_EQUAL(trim__stack(ks, &r, stack, 2), 2);
	/* tracepoints and unknown kinds keep the name list */
	trim__rule(&r, ks, LBRSNAP_KIND_TP_BTF, "sched_switch", NULL);
	CU_ASSERT_EQUAL(r.how, TRIM_BY_NAME);
	trim__rule(&r, ks, 0, NULL, NULL);
	CU_ASSERT_EQUAL(r.how, TRIM_BY_NAME);
	/* a watchpoint without its arguments (--no-args): no trap address, the name list */
	trim__rule(&r, ks, LBRSNAP_KIND_MEM, "x", NULL);
	CU_ASSERT_EQUAL(r.how, TRIM_BY_NAME);
}

static CU_TestInfo trim_tests[] = {
	{ "kernel_listings", test_kernel_listings },
	{ "names_fall_short", test_names_fall_short },
	{ "zero_entries", test_zero_entries },
	{ "user_rule", test_user_rule },
	{ "fentry_any", test_fentry_any },
	{ "kprobe_multi_any", test_kprobe_multi_any },
	{ "any_return", test_any_return },
	{ "raw_tracepoint", test_raw_tracepoint },
	{ "target_never_trimmed", test_target_never_trimmed },
	{ "edges", test_edges },
	{ "names", test_names },
	{ "stack", test_stack },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "trim", suite_init, suite_clean, NULL, NULL, trim_tests },
	CU_SUITE_INFO_NULL,
};
