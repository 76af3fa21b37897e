// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Which functions make up the tracing path, from the LBR listings of retsnoop on fentry
 * and kprobe-multi (bpf-next "Inline two LBR-related helpers", March 2024), the
 * raw tracepoint path (__traceiter_* -> __bpf_trace_* -> bpf_trace_runN -> program) and
 * the thunks every indirect call and return goes through on mitigated x86 kernels.
 */
#include <string.h>
#include "lbrfile/lbr-kind.h"
#include "symbols/trim.h"

/* Function names that are tracing path exactly. */
static const char *const exact_names[] = {
	"migrate_disable",
	"migrate_enable",
	"bpf_get_branch_snapshot",
	"bpf_get_smp_processor_id",	/* called before the snapshot until v6.10 inlined it */
	"__rcu_read_lock",		/* rcu_read_lock() around the program run */
	"__rcu_read_unlock",
	"rcu_is_watching",		/* fprobe and kprobe handlers check it */
	"preempt_count_add",		/* CONFIG_DEBUG_PREEMPT or tracer builds */
	"preempt_count_sub",
	"debug_smp_processor_id",
	"check_preemption_disabled",
	"trace_call_bpf",
	"kprobe_perf_func",
	"kretprobe_perf_func",
	"kprobe_dispatcher",
	"kretprobe_dispatcher",
	"trampoline_handler",
	"return_to_handler",
	"prepare_ftrace_return",
	"function_graph_enter",
	"function_graph_enter_regs",	/* 6.14+: fprobe (kprobe-multi) entries run over fgraph */
	"bpf_get_current_task_btf",	/* kprobe.session's --calls program, before its snapshot */
	"__SCT__perf_snapshot_branch_stack",
	/* uprobes: the breakpoint's handling on the way back to user mode, to the program */
	"uprobe_notify_resume",
	"handle_swbp",
	"handler_chain",
	"uprobe_dispatcher",
	"uretprobe_dispatcher",
	"__uprobe_perf_func",
	"uprobe_perf_func",
	"uretprobe_perf_func",
	"uprobe_handle_trampoline",
	"handle_trampoline",
	"arch_uprobe_ignore",
	/* kprobes of one function each (6.1 has no kprobe-multi) */
	"get_kprobe",
	"aggr_pre_handler",
	"aggr_post_handler",
	"opt_pre_handler",
	"optimized_callback",
	/* the traps: int3 (uprobes, kprobes without ftrace), debug exceptions (mem:) */
	"asm_exc_int3",
	"exc_int3",
	"do_int3",
	"do_int3_user",
	"asm_exc_debug",
	"exc_debug",
	"exc_debug_kernel",
	"exc_debug_user",
	"noist_exc_debug",
	"notify_debug",
	"notify_die",
	"hw_breakpoint_handler",
	"perf_bp_event",
	"bpf_overflow_handler",
};

/* Name prefixes of tracing-path function families. */
static const char *const prefixes[] = {
	"bpf_prog_",			/* JITed programs; also bpf_prog_run* glue */
	"bpf_trampoline_",		/* fentry/fexit trampolines */
	"bpf_dispatcher_",
	"__bpf_prog_enter",		/* __bpf_prog_enter_recur, _sleepable, ... */
	"__bpf_prog_exit",
	"__bpf_tramp_enter",
	"__bpf_tramp_exit",
	"__bpf_trace_",			/* per-tracepoint stubs and __bpf_trace_run */
	"bpf_trace_run",		/* bpf_trace_run1 .. bpf_trace_run12 */
	"__traceiter_",
	"__probestub_",
	"__SCT__tp_func_",		/* static-call trampolines of tracepoints */
	"rcu_read_lock",		/* rcu_read_lock_held and friends on debug kernels */
	"rcu_read_unlock",
	"kprobe_multi_link_",
	"fprobe_",			/* fprobe_fgraph_entry, fprobe_return (6.14+), ... */
	"fgraph_",			/* fgraph_do_direct, fgraph_retrieve_data, ... (6.14+) */
	"__SCT__fgraph_",		/* static calls fgraph_func, fgraph_retfunc (6.14+) */
	"rethook_",
	"arch_rethook_",
	"kretprobe_",
	"__kretprobe_",
	"kprobe_",			/* kprobe_ftrace_handler, kprobe_int3_handler, ... */
	"ftrace_",			/* ftrace_caller, ftrace_regs_caller, ... */
	"arch_ftrace_",
	"__ftrace_",
	"__x86_return_thunk",
	"__x86_indirect_",		/* retpoline, call-depth and ITS thunks */
	"srso_",			/* AMD SRSO return thunks */
	"retbleed_return_thunk",
	"call_depth_return_thunk",
	"its_return_thunk",
};

/* Name suffixes: PMU callbacks behind the perf_snapshot_branch_stack static call. */
static const char *const suffixes[] = {
	"_snapshot_branch_stack",	/* intel_pmu_, amd_pmu_v2_ */
	"_snapshot_arch_branch_stack",	/* intel_pmu_ (arch LBR) */
};

/* Modules ("[name]" in kallsyms) that hold only tracing code. */
static const char *const modules[] = {
	"bpf",				/* programs and trampolines */
	"__builtin__ftrace",		/* ftrace trampolines */
	"__builtin__kprobes",		/* kprobe instruction slots */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

bool trim__is_tracing_func(const char *name, const char *module)
{
	size_t i;

	if (module) {
		for (i = 0; i < ARRAY_SIZE(modules); i++) {
			if (!strcmp(module, modules[i]))
				return true;
		}
	}
	/* padding and CFI preambles in front of a function belong to that function */
	if (!strncmp(name, "__pfx_", 6))
		name += 6;
	else if (!strncmp(name, "__cfi_", 6))
		name += 6;
	for (i = 0; i < ARRAY_SIZE(exact_names); i++) {
		if (!strcmp(name, exact_names[i]))
			return true;
	}
	for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	}
	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		if (has_suffix(name, suffixes[i]))
			return true;
	}
	return false;
}

static bool is_tracing_addr(const struct ksyms *ks, __u64 addr, const char *target)
{
	const struct ksym *k = ksyms__find(ks, addr);

	if (!k)
		return false;
	if (target && !strcmp(k->name, target))
		return false;
	/* asked for the same few symbols in every record: the name is matched once */
	if (!k->trim)
		((struct ksym *)k)->trim = trim__is_tracing_func(k->name, k->module) ? 2 : 1;
	return k->trim == 2;
}

void trim__rule_names(struct trim_rule *r, const char *target)
{
	memset(r, 0, sizeof(*r));
	r->how = TRIM_BY_NAME;
	r->target = target;
}

void trim__rule_user(struct trim_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->how = TRIM_TO_USER;
}

static void rule_range(struct trim_rule *r, const struct ksym *k, const char *target)
{
	/* the last symbol has no size: no end known, so no range */
	if (!k || !k->size || trim__is_user_addr(k->addr)) {
		trim__rule_names(r, target);
		return;
	}
	memset(r, 0, sizeof(*r));
	r->how = TRIM_BY_RANGE;
	r->start = k->addr;
	r->end = k->addr + k->size;
	r->func = k->name;
	r->target = k->name;
}

void trim__rule_func(struct trim_rule *r, const struct ksyms *ks, const char *func)
{
	rule_range(r, func ? ksyms__by_name(ks, func) : NULL, func);
}

void trim__rule_addr(struct trim_rule *r, const struct ksyms *ks, __u64 addr)
{
	rule_range(r, trim__is_user_addr(addr) ? NULL : ksyms__find(ks, addr), NULL);
}

void trim__rule(struct trim_rule *r, const struct ksyms *ks, unsigned int kind,
		const char *target, const struct lbrsnap_args *args)
{
	const __u64 *val = args ? (const __u64 *)(args + 1) : NULL;

	if (lbr_kind__is(kind, LBR_KIND_KFUNC)) {
		trim__rule_func(r, ks, target);
	} else if (lbr_kind__is(kind, LBR_KIND_USER)) {
		trim__rule_user(r);
	} else if (lbr_kind__is(kind, LBR_KIND_WATCH) && args && args->nr_args >= 2) {
		/* the watched address, then (last) the instruction that trapped */
		if (trim__is_user_addr(val[0]))
			trim__rule_user(r);
		else
			trim__rule_addr(r, ks, val[args->nr_args - 1]);
	} else {
		trim__rule_names(r, target);
	}
}

/* In the traced function: its range, or another function kallsyms names the same */
static bool in_func(const struct ksyms *ks, const struct trim_rule *r, __u64 addr)
{
	const struct ksym *k;

	if (addr >= r->start && addr < r->end)
		return true;
	if (trim__is_user_addr(addr))
		return false;
	k = ksyms__find(ks, addr);
	return k && k->addr != r->start && !k->module && !strcmp(k->name, r->func);
}

unsigned int trim__valid_branches(const struct lbrsnap_branch *br, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!br[i].from && !br[i].to)
			break;
	}
	return i;
}

static unsigned int branches_by_name(const struct ksyms *ks, const char *target,
				     const struct lbrsnap_branch *br, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!is_tracing_addr(ks, br[i].from, target))
			break;
	}
	return i;
}

unsigned int trim__branches(const struct ksyms *ks, const struct trim_rule *r,
			    const struct lbrsnap_branch *br, unsigned int nr)
{
	unsigned int i;

	switch (r->how) {
	case TRIM_BY_RANGE:
		/*
		 * A jump into the function from tracing-path code (a helper the program
		 * calls, when that helper is traced) is not the traced code's
		 */
		for (i = 0; i < nr; i++) {
			if (in_func(ks, r, br[i].from) ||
			    (in_func(ks, r, br[i].to) && !is_tracing_addr(ks, br[i].from, NULL)))
				return i;
		}
		break;
	case TRIM_TO_USER:
		for (i = 0; i < nr; i++) {
			if (trim__is_user_addr(br[i].from))
				return i;
		}
		/* the whole snapshot is newer than the trap */
		return nr;
	case TRIM_BY_NAME:
		break;
	}
	return branches_by_name(ks, r->target, br, nr);
}

unsigned int trim__stack(const struct ksyms *ks, const struct trim_rule *r, const __u64 *stack,
			 unsigned int nr)
{
	unsigned int i;

	switch (r->how) {
	case TRIM_BY_RANGE:
		for (i = 0; i < nr; i++) {
			if (in_func(ks, r, stack[i]))
				return i;
		}
		break;
	case TRIM_TO_USER:
		for (i = 0; i < nr; i++) {
			if (trim__is_user_addr(stack[i]))
				return i;
		}
		return nr;
	case TRIM_BY_NAME:
		break;
	}
	for (i = 0; i < nr; i++) {
		if (!is_tracing_addr(ks, stack[i], r->target))
			break;
	}
	return i;
}
