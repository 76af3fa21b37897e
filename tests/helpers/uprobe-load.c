// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * uprobe-load - calls its own functions and fires a USDT probe an exact number of times,
 * with known arguments and return values, for the uprobe:, uretprobe: and usdt: tests.
 *
 *   uprobe-load [--calls N] [--gate FIFO]
 *
 * For i = 1..N (default 5) it calls each lbrsnap_* function below once with i, fires
 * lbrsnap:values(-i, i << 33, 0x80000000 + i) and calls getppid(). Built with -g -O1 and
 * with its functions noipa, so each keeps its symbol, its standard calling convention and
 * its DWARF. --gate FIFO: block opening FIFO for reading first (a tracer attaches to the
 * running process with -p).
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/sdt.h>
#include "gate.h"

#define NOIPA __attribute__((noipa, used))

volatile long lbrsnap_sink;

static NOIPA int lbrsnap_up_count(int i)
{
	return i + 1;
}

/* -1000, -2000, ...: a negative int */
static NOIPA int lbrsnap_ret_int(int i)
{
	return -1000 * i;
}

/* 3 * 2^32 + i: a long wider than 32 bits */
static NOIPA long lbrsnap_ret_long(int i)
{
	return 3L * (1L << 32) + i;
}

/* 4294967295 - i: an unsigned int with its top bit set */
static NOIPA unsigned int lbrsnap_ret_uint(int i)
{
	return 4294967295u - i;
}

static NOIPA void *lbrsnap_ret_ptr(int i)
{
	return (void *)(0x7f0000000000UL + 0x1000UL * i);
}

static NOIPA bool lbrsnap_ret_bool(int i)
{
	return i & 1;
}

static NOIPA long lbrsnap_args(int a, long b, unsigned int c, const char *s, bool odd)
{
	return a + b + c + s[0] + odd;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "calls", required_argument, NULL, 'n' },
		{ "gate", required_argument, NULL, 'g' },
		{}
	};
	const char *gate = NULL;
	long calls = 5, i;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			calls = atol(optarg);
			break;
		case 'g':
			gate = optarg;
			break;
		default:
			fprintf(stderr, "usage: uprobe-load [--calls N] [--gate FIFO]\n");
			return 2;
		}
	}
	printf("pid=%d\n", getpid());
	fflush(stdout);
	if (gate__wait(gate))
		return 1;
	for (i = 1; i <= calls; i++) {
		int si = -(int)i;
		long long wide = (long long)i << 33;
		unsigned int top = 0x80000000u + i;

		lbrsnap_sink += lbrsnap_up_count(i);
		lbrsnap_sink += lbrsnap_ret_int(i);
		lbrsnap_sink += lbrsnap_ret_long(i);
		lbrsnap_sink += lbrsnap_ret_uint(i);
		lbrsnap_sink += (long)lbrsnap_ret_ptr(i);
		lbrsnap_sink += lbrsnap_ret_bool(i);
		lbrsnap_sink += lbrsnap_args(-i, i << 36, 0xfffffff0u + i, "hello", i & 1);
		STAP_PROBE3(lbrsnap, values, si, wide, top);
		lbrsnap_sink += getppid();
	}
	return 0;
}
