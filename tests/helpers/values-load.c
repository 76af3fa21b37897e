// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * values-load - calls functions whose values lbrsnap has been seen to get wrong, for
 * t-values: a function returning char * (a pointer, never a string), one returning a struct
 * in memory (its hidden result pointer takes rdi), two static functions of one name in two
 * files (each typed from its own DWARF), and USDT probes whose sites give their arguments
 * different types.
 *
 *   values-load [--calls N]
 *   values-load --sys
 *
 * For i = 1..N (default 3) it calls lbrsnap_str_ret(i) and prints "str_ret PTR" with the
 * pointer it returned, calls lbrsnap_mk(11 * i, 22 * i), lbrsnap_twin(7 * i, -8 * i) and,
 * in values-load-twin.c, the other lbrsnap_twin (symbol lbrsnap_twin_b) with 200 + i; then
 * fires lbrsnap:mixed at three sites, with (int)-5 * i, (long)i << 40 and
 * (unsigned char)(250 + i), and lbrsnap:clash at two, with (unsigned long)1 << 63 | i and
 * (int)-i. Built with -g -O1, its functions noipa.
 *
 * --sys: makes syscalls whose argument types tracefs names with types lbrsnap once lacked,
 * each value with garbage in its register's upper half, which the kernel ignores:
 * clock_gettime(0xffffffff00000001: CLOCK_MONOTONIC), msgget(key 0x80001234 with upper
 * bits set, flags 0: fails, ENOENT) and semop(-1, NULL, nsops 0xffffffff00000002: fails,
 * EINVAL).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/sdt.h>
#include <sys/syscall.h>

#define NOIPA __attribute__((noipa, used))

/* 32 bytes: returned in memory (System V x86-64 class MEMORY) */
struct lbrsnap_big {
	long a, b, sum, diff;
};

static char names[8][8] = { "zero", "one", "two", "three", "four", "five", "six", "seven" };
volatile long lbrsnap_sink;

int lbrsnap_twin_b_call(int c);

static NOIPA char *lbrsnap_str_ret(int i)
{
	return names[i & 7];
}

static NOIPA struct lbrsnap_big lbrsnap_mk(long a, long b)
{
	return (struct lbrsnap_big){ .a = a, .b = b, .sum = a + b, .diff = a - b };
}

static NOIPA long lbrsnap_twin(long a, int b)
{
	return a + b;
}

static int sys_calls(void)
{
	struct timespec ts;

	if (syscall(SYS_clock_gettime, 0xffffffff00000001UL, &ts))
		return 1;
	syscall(SYS_msgget, 0xffffffff80001234UL, 0UL);
	syscall(SYS_semop, -1L, NULL, 0xffffffff00000002UL);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "calls", required_argument, NULL, 'n' },
		{ "sys", no_argument, NULL, 's' },
		{}
	};
	long calls = 3, i;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 's')
			return sys_calls();
		if (c != 'n')
			return 2;
		calls = atol(optarg);
	}
	for (i = 1; i <= calls; i++) {
		int neg = -5 * (int)i;
		long wide = i << 40;
		unsigned char narrow = 250 + i;
		unsigned long top = 1UL << 63 | i;
		int minus = -(int)i;

		printf("str_ret %p\n", (void *)lbrsnap_str_ret(i));
		lbrsnap_sink += lbrsnap_mk(11 * i, 22 * i).sum;
		lbrsnap_sink += lbrsnap_twin(7 * i, -8 * (int)i);
		lbrsnap_sink += lbrsnap_twin_b_call(200 + i);
		DTRACE_PROBE1(lbrsnap, mixed, neg);
		DTRACE_PROBE1(lbrsnap, mixed, wide);
		DTRACE_PROBE1(lbrsnap, mixed, narrow);
		DTRACE_PROBE1(lbrsnap, clash, top);
		DTRACE_PROBE1(lbrsnap, clash, minus);
	}
	return 0;
}
