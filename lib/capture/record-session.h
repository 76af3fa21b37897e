/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One recording, the same for every front end (lbrsnap record, lbrsnap perf record /
 * perf lbr record, trace-cmd-lbr record):
 *
 *	hold the command -> open and attach the capture -> write the header -> follow and
 *	release the command -> run -> stop (detach, drain, count) -> close the file
 *
 * The command is forked and held before anything is attached, so a missing command is an
 * error before any program is loaded, and released only once everything is attached, so its
 * first syscall is traced. The file is complete under its final name or absent.
 */
#ifndef LBRSNAP_RECORD_SESSION_H
#define LBRSNAP_RECORD_SESSION_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "capture/capture-engine.h"

struct record_session_opts {
	struct capture_opts capture;	/* copied; follow is set from follow below */
	const char *output;		/* the lbrsnap.data to write */
	char *const *argv;		/* the command to run, NULL-terminated; NULL: none */
	bool follow;			/* trace only the command and its descendants */
	pid_t follow_pid;		/* with follow: this process (forked and held by the caller)
					   and its descendants instead of the command's */
	/*
	 * The command is a recorder of its own (perf record, trace-cmd record): Ctrl-C reaches
	 * it through the terminal and it decides when the recording ends, so SIGINT is ignored
	 * here and SIGTERM is passed on to it. Otherwise SIGINT and SIGTERM end the capture and
	 * the command is terminated, as perf record does with its workload.
	 */
	bool command_records;
	double duration_s;		/* 0: until a signal or the command's exit */
	const char *who;		/* message prefix: "lbrsnap record" */
};

struct record_session_result {
	struct capture_stats stats;
	bool exited;			/* the command ran and was reaped */
	bool ended;			/* ... or was ended here when the capture stopped first
					   (duration, signal, --max-size) */
	int status;			/* its wait status, when exited or ended */
};

/*
 * Runs the whole recording. Returns 0 when the capture file was written (res filled), or a
 * negative errno after printing why, prefixed with o->who.
 */
int record_session__run(const struct record_session_opts *o, struct record_session_result *res);
/*
 * The exit status of a recording that wrote its file, as perf record's: the command's own
 * status, 128 + the signal that killed it (like a shell), said on out; 0 without a command
 * or when the capture stopped first and ended the command itself (said on out too).
 */
int record_session__exit_status(const struct record_session_result *res, const char *who,
				FILE *out);

#endif /* LBRSNAP_RECORD_SESSION_H */
