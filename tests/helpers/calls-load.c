// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * calls-load - a known call tree for the --calls tests (uretprobe scopes).
 *
 *   calls-load [--rounds N] [--die] [--paths]
 *
 * Round i = 1..N (default 4) calls lbrsnap_top(i), which calls lbrsnap_mid(i), which calls
 * lbrsnap_ok_leaf(i) (returns 0) and, in odd rounds, lbrsnap_fail_leaf(i) (returns -ENOENT,
 * which mid and top pass up); even rounds return 0. So with --errors half the scopes are
 * kept, each with the tree top > mid > {ok_leaf, fail_leaf} and the origin fail_leaf.
 * --die: round 1's mid calls lbrsnap_die_leaf(), which kills the process (SIGKILL) inside
 * the scope. --paths: rounds 3, 7, 11... reach the failing leaf through lbrsnap_mid2 instead
 * of lbrsnap_mid (a second failing path for report --group). Built with -g -O1, its functions
 * noipa: each keeps its symbol and its DWARF.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, used))

volatile long lbrsnap_sink;
static bool die, paths;

static NOIPA int lbrsnap_ok_leaf(int i)
{
	lbrsnap_sink += i;
	return 0;
}

static NOIPA int lbrsnap_fail_leaf(int i)
{
	lbrsnap_sink += i;
	return -ENOENT;
}

static NOIPA int lbrsnap_die_leaf(int i)
{
	lbrsnap_sink += i;
	kill(getpid(), SIGKILL);
	pause();
	return 0;
}

static NOIPA int lbrsnap_mid(int i)
{
	int r = lbrsnap_ok_leaf(i);

	if (die)
		r = lbrsnap_die_leaf(i);
	if (i & 1)
		r = lbrsnap_fail_leaf(i);
	return r;
}

static NOIPA int lbrsnap_mid2(int i)
{
	return lbrsnap_fail_leaf(i);
}

static NOIPA int lbrsnap_top(int i)
{
	if (paths && i % 4 == 3)
		return lbrsnap_mid2(i);
	return lbrsnap_mid(i);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'n' },
		{ "die", no_argument, NULL, 'd' },
		{ "paths", no_argument, NULL, 'p' },
		{}
	};
	long rounds = 4, i;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			rounds = atol(optarg);
			break;
		case 'd':
			die = true;
			break;
		case 'p':
			paths = true;
			break;
		default:
			fprintf(stderr, "usage: calls-load [--rounds N] [--die] [--paths]\n");
			return 2;
		}
	}
	for (i = 1; i <= rounds; i++)
		lbrsnap_sink += lbrsnap_top(i);
	return 0;
}
