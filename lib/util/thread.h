/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Helper threads that take no signal: a signal (Ctrl-C's, deferred by sig-defer.h) is the
 * calling thread's to handle, wherever its helpers are.
 */
#ifndef LBRSNAP_THREAD_H
#define LBRSNAP_THREAD_H

#include <pthread.h>

/* pthread_create() with every signal blocked in the new thread; 0 or a negative errno */
int thread__start_quiet(pthread_t *t, void *(*fn)(void *), void *arg);

#endif /* LBRSNAP_THREAD_H */
