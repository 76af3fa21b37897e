// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "util/print.h"
#include "util/sig-defer.h"

static const int held[] = { SIGINT, SIGTERM, SIGHUP };

void sig_defer__begin(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		sigaddset(&set, held[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void sig_defer__end(const sigset_t *old, const char *who, const char *output)
{
	struct sigaction sa;
	sigset_t pending;
	size_t i;

	if (!sigpending(&pending)) {
		for (i = 0; i < sizeof(held) / sizeof(held[0]); i++) {
			/* one ignored (a background job's SIGINT) stays without effect */
			if (!sigismember(&pending, held[i]) || sigismember(old, held[i]) ||
			    sigaction(held[i], NULL, &sa) || sa.sa_handler == SIG_IGN)
				continue;
			pr_warn("%s: SIG%s received while writing %s: finished it first\n",
				who, sigabbrev_np(held[i]), output);
			break;
		}
	}
	fflush(stderr);
	sigprocmask(SIG_SETMASK, old, NULL);
}
