// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Hardware watchpoint specs (API in mem-spec.h). */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include "capture/mem-spec.h"

/* x86-64: user addresses are the canonical lower half */
#define USER_TOP (1ULL << 47)

const char *mem_spec__access_name(__u8 access)
{
	switch (access) {
	case HW_BREAKPOINT_R:
		return "r";
	case HW_BREAKPOINT_W:
		return "w";
	case HW_BREAKPOINT_RW:
		return "rw";
	case HW_BREAKPOINT_X:
		return "x";
	}
	return "?";
}

static int parse_access(const char *s, __u8 *access)
{
	*access = 0;
	for (; *s; s++) {
		__u8 bit = *s == 'r' ? HW_BREAKPOINT_R : *s == 'w' ? HW_BREAKPOINT_W :
			   *s == 'x' ? HW_BREAKPOINT_X : 0;

		if (!bit || (*access & bit))
			return -EINVAL;
		*access |= bit;
	}
	if (!*access || ((*access & HW_BREAKPOINT_X) && *access != HW_BREAKPOINT_X))
		return -EINVAL;
	return 0;
}

/* A whole number in C syntax (decimal, 0x hex), nothing after it. */
static int parse_num(const char *s, __u64 *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/*
 * Looks a variable up in kallsyms' text ("ADDR TYPE NAME[\t[MODULE]]" lines): the symbol
 * tables lbrsnap keeps for code hold functions only. *any_var tells whether the text lists
 * any variable at all, which it does only with CONFIG_KALLSYMS_ALL.
 */
static int kallsyms_var(const char *text, size_t len, const char *name, __u64 *addr,
			bool *any_var)
{
	const char *p = text, *end = text + len, *nl;
	size_t nlen = strlen(name);

	*any_var = false;
	for (; p < end; p = nl + 1) {
		const char *sp = memchr(p, ' ', end - p);
		char type;

		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (!sp || sp + 3 > nl)
			continue;
		type = sp[1];
		if (!strchr("dDbBrR", type))
			continue;
		*any_var |= type == 'd' || type == 'b';
		/* vmlinux only: a module's line goes on with a tab */
		if ((size_t)(nl - (sp + 3)) == nlen && !memcmp(sp + 3, name, nlen)) {
			*addr = strtoull(p, NULL, 16);
			return 0;
		}
	}
	return -ENOENT;
}

static int resolve_symbol(char *target, const char *kallsyms, size_t klen, struct mem_spec *m,
			  const char *text, char *err, size_t err_len)
{
	char *plus = strchr(target, '+');
	bool any_var = false;
	__u64 off = 0, addr = 0;

	if (plus) {
		*plus = 0;
		if (parse_num(plus + 1, &off)) {
			snprintf(err, err_len, "bad offset '%s' in 'mem:%s'", plus + 1, text);
			return -EINVAL;
		}
	}
	if (!kallsyms || kallsyms_var(kallsyms, klen, target, &addr, &any_var)) {
		snprintf(err, err_len, "unknown kernel variable '%s' in 'mem:%s' (not in "
			 "/proc/kallsyms%s)", target, text, kallsyms && !any_var ?
			 ", which lists no variables on this kernel: CONFIG_KALLSYMS_ALL is off; "
			 "give the address" : "");
		return -ENOENT;
	}
	/* per-CPU variables are offsets into each CPU's area: no one address to watch */
	if (addr < USER_TOP) {
		snprintf(err, err_len, "'%s' in 'mem:%s' is a per-CPU variable: watch one CPU's "
			 "copy by its address", target, text);
		return -EOPNOTSUPP;
	}
	m->addr = addr + off;
	if (off)
		snprintf(m->name, sizeof(m->name), "%s+%#llx", target, (unsigned long long)off);
	else
		snprintf(m->name, sizeof(m->name), "%s", target);
	return 0;
}

int mem_spec__parse(const char *text, const char *kallsyms, size_t klen, struct mem_spec *m,
		    char *err, size_t err_len)
{
	char target[160], *colon, *slash;
	__u64 len = 0;
	int ret;

	memset(m, 0, sizeof(*m));
	if (strlen(text) >= sizeof(target) || !*text) {
		snprintf(err, err_len, "bad watchpoint 'mem:%s': expected mem:ADDR[/LEN][:ACCESS] "
			 "or mem:SYMBOL[+OFF][/LEN][:ACCESS]", text);
		return -EINVAL;
	}
	strcpy(target, text);
	m->access = HW_BREAKPOINT_RW;
	colon = strchr(target, ':');
	if (colon) {
		*colon = 0;
		if (parse_access(colon + 1, &m->access)) {
			snprintf(err, err_len, "bad access '%s' in 'mem:%s': r, w, rw or x",
				 colon + 1, text);
			return -EINVAL;
		}
	}
	/* x86 debug registers watch writes, reads and writes, or execution: not reads alone */
	if (m->access == HW_BREAKPOINT_R) {
		snprintf(err, err_len, "'mem:%s': x86 cannot watch reads alone; use rw", text);
		return -EOPNOTSUPP;
	}
	slash = strchr(target, '/');
	if (slash) {
		*slash = 0;
		if (parse_num(slash + 1, &len) || (len != 1 && len != 2 && len != 4 && len != 8)) {
			snprintf(err, err_len, "bad length '%s' in 'mem:%s': 1, 2, 4 or 8 bytes",
				 slash + 1, text);
			return -EINVAL;
		}
	}
	if (m->access == HW_BREAKPOINT_X) {
		if (len && len != 8) {
			snprintf(err, err_len, "'mem:%s': an execution watchpoint covers one "
				 "instruction: no length but 8", text);
			return -EINVAL;
		}
		len = 8;
	}
	m->len = len ?: 4;
	if (isdigit((unsigned char)target[0])) {
		if (parse_num(target, &m->addr)) {
			snprintf(err, err_len, "bad address '%s' in 'mem:%s'", target, text);
			return -EINVAL;
		}
		snprintf(m->name, sizeof(m->name), "%#llx", (unsigned long long)m->addr);
	} else {
		ret = resolve_symbol(target, kallsyms, klen, m, text, err, err_len);
		if (ret)
			return ret;
	}
	if (m->access != HW_BREAKPOINT_X && (m->addr & (m->len - 1))) {
		snprintf(err, err_len, "'mem:%s': %#llx is not aligned to its length %u, as the "
			 "debug registers need", text, (unsigned long long)m->addr, m->len);
		return -EINVAL;
	}
	m->user = m->addr < USER_TOP;
	return 0;
}
