// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The attach kinds (API in attach-kind.h). Rows are in the order the help and the error
 * of a bad spec list them: kernel functions, tracepoints, watchpoints, user probes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "capture/attach-kind.h"
#include "capture/attach-target.h"

static const struct attach_kind kinds[] = {
	{
		.kind = LBRSNAP_KIND_FEXIT, .prog = "fexit", .form = "fexit:FUNC",
		.help = "kernel function return, args",
		.needs = "BPF trampolines (5.5+), a function ftrace can hook",
		.flags = ATTACH_KIND_GLOB | ATTACH_KIND_TRAMPOLINE,
		.args_from = BTF_ARGS_CTX,
		.ap_ret_flag = LBRSNAP_AP_RET_FEXIT,
		.load_refused = "this kernel refuses fentry/fexit (kernel lockdown or a locked "
				"function tracer); raw_tp and tp_btf may still work",
		.scope = "the function's entry to its return",
		.prepare = attach_kind__btf_target,
		.attach = attach_fexit__attach,
	},
	{
		.kind = LBRSNAP_KIND_KPROBE, .prog = "kprobe", .form = "kprobe:FUNC",
		.help = "kernel function entry, args",
		.needs = "kprobe-multi links (5.18+, CONFIG_FPROBE), or kprobes",
		.flags = ATTACH_KIND_GLOB | ATTACH_KIND_MULTI,
		.args_from = BTF_ARGS_REGS,
		.ap_flags = LBRSNAP_AP_MULTI,
		.prepare = kprobe_multi__prepare,
		.attach = kprobe_multi__attach,
	},
	{
		.kind = LBRSNAP_KIND_KRETPROBE, .prog = "kretprobe", .form = "kretprobe:FUNC",
		.help = "kernel function return value",
		.needs = "kprobe-multi links (5.18+, CONFIG_FPROBE), or kretprobes",
		.flags = ATTACH_KIND_GLOB | ATTACH_KIND_MULTI,
		.args_from = BTF_ARGS_REGS,
		.ap_flags = LBRSNAP_AP_MULTI | LBRSNAP_AP_RET_REGS,
		.scope = "the function's entry to its return",
		.prepare = kprobe_multi__prepare,
		.attach = kprobe_multi__attach,
	},
	{
		.kind = LBRSNAP_KIND_RAW_TP, .prog = "rawtp", .form = "raw_tp:NAME",
		.help = "tracepoint, raw arguments",
		.needs = "raw tracepoint programs (4.17+)",
		.flags = ATTACH_KIND_GLOB,
		.args_from = BTF_ARGS_RAW,
		.scope = "sys_exit only: the task's sys_enter to its sys_exit",
		.attach = attach_tp__raw,
	},
	{
		.kind = LBRSNAP_KIND_TP_BTF, .prog = "tpbtf", .form = "tp_btf:NAME",
		.help = "tracepoint, BTF-typed args",
		.needs = "BTF-typed tracepoint programs (5.5+)",
		.flags = ATTACH_KIND_GLOB,
		.args_from = BTF_ARGS_CTX,
		.prepare = attach_kind__btf_target,
		.attach = attach_tp__btf,
	},
	{
		.kind = LBRSNAP_KIND_MEM, .prog = "mem", .form = "mem:ADDR",
		.help = "hardware watchpoint",
		.needs = "hardware breakpoints that fire (probed first)",
		.ap_flags = LBRSNAP_AP_MEM,
		.attach = mem_watch__attach,
	},
	{
		.kind = LBRSNAP_KIND_UPROBE, .prog = "uprobe", .form = "uprobe:PATH:FUNC[+OFF]",
		.help = "user function entry, args",
		.needs = "uprobes (CONFIG_UPROBE_EVENTS)",
		.ap_args_flag = LBRSNAP_AP_UREGS,
		.attach = attach_uprobe__attach,
	},
	{
		.kind = LBRSNAP_KIND_URETPROBE, .prog = "uretprobe", .form = "uretprobe:PATH:FUNC",
		.help = "user function return value",
		.needs = "uprobes (CONFIG_UPROBE_EVENTS)",
		.ap_ret_flag = LBRSNAP_AP_RET_UREGS,
		.scope = "the function's entry to its return",
		.attach = attach_uprobe__attach,
	},
	{
		.kind = LBRSNAP_KIND_USDT, .prog = "usdt", .form = "usdt:PATH:PROVIDER:NAME",
		.help = "USDT probe, all sites, args",
		.needs = "uprobes (CONFIG_UPROBE_EVENTS)",
		.ap_flags = LBRSNAP_AP_USDT,
		.attach = attach_uprobe__attach,
	},
};

#define NR_KINDS (sizeof(kinds) / sizeof(kinds[0]))

_Static_assert(NR_KINDS == LBRSNAP_NR_KINDS, "a row per enum lbrsnap_kind");

const struct attach_kind *attach_kind__get(enum lbrsnap_kind kind)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++) {
		if (kinds[i].kind == kind)
			return &kinds[i];
	}
	return NULL;
}

bool attach_kind__is(enum lbrsnap_kind kind, unsigned int flags)
{
	const struct attach_kind *k = attach_kind__get(kind);

	return k && (k->flags & flags);
}

__u32 attach_kind__ap_flags(const struct attach_target *t)
{
	const struct attach_kind *k = attach_kind__get(t->kind);

	if (!k)
		return 0;
	return k->ap_flags | (t->has_ret ? k->ap_ret_flag : 0) |
	       (t->nr_args ? k->ap_args_flag : 0);
}

void attach_kinds__forms(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = 0;
	for (i = 0; i < NR_KINDS && used < len; i++) {
		used += snprintf(buf + used, len - used, "%s%s",
				 !i ? "" : i + 1 < NR_KINDS ? ", " : " or ", kinds[i].form);
	}
}

void attach_kinds__scopes(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = 0;
	for (i = 0; i < NR_KINDS && used < len; i++) {
		if (kinds[i].scope)
			used += snprintf(buf + used, len - used, "%s%s (%s)", used ? ", " : "",
					 kinds[i].form, kinds[i].scope);
	}
}

const char *attach_kinds__help(void)
{
	static char text[NR_KINDS * 80];
	size_t i, used = 0;

	if (text[0])
		return text;
	for (i = 0; i < NR_KINDS && used < sizeof(text); i++)
		used += snprintf(text + used, sizeof(text) - used, "  %-23s %s\n", kinds[i].form,
				 kinds[i].help);
	return text;
}

void attach_kinds__print_help(FILE *out)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		fprintf(out, "  %-23s %s\n  %-23s needs %s\n", kinds[i].form, kinds[i].help, "",
			kinds[i].needs);
}

int attach_kind__btf_target(struct bpf_program *prog, const struct attach_target *t,
			    bool single, char *err, size_t err_len)
{
	int ret = bpf_program__set_attach_target(prog, 0, t->name);

	if (ret)
		snprintf(err, err_len, "cannot target %s: %s", t->spec, strerror(-ret));
	return ret;
}

int attach_kind__link(const struct attach_req *req, struct bpf_link *link, char *err,
		      size_t err_len)
{
	int ret;

	req->links[0] = link;
	if (link)
		return 0;
	ret = -errno;
	snprintf(err, err_len, "cannot attach %s: %s", req->t->spec, strerror(-ret));
	return ret;
}
