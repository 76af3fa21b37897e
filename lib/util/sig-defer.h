/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The file converters (lbrsnap perf and inject, trace-cmd-lbr convert and merge) finish the
 * file they are writing before SIGINT, SIGTERM or SIGHUP take effect: such a signal is held
 * while they write, and acted on (the process ends by it, as the shell expects) once the
 * output is complete under its final name and its counts are printed. SIGKILL and SIGQUIT
 * still end them at once, leaving nothing under the final name (out_file).
 */
#ifndef LBRSNAP_SIG_DEFER_H
#define LBRSNAP_SIG_DEFER_H

#include <signal.h>

/* Holds SIGINT, SIGTERM and SIGHUP; old receives the mask to give back. */
void sig_defer__begin(sigset_t *old);
/*
 * Restores the mask. A signal held meanwhile is named first ("WHO: SIGINT received while
 * writing OUTPUT: finished it first"), then ends the process by its default action.
 */
void sig_defer__end(const sigset_t *old, const char *who, const char *output);

#endif /* LBRSNAP_SIG_DEFER_H */
