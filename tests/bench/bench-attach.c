// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench-attach OBJ [PROG] [-- CMD...]: load a BPF object, attach every program (or only the
 * one named PROG) where its section says, print "NAME prog_id=N" per attached program and
 * "ready", then hold the attachment until SIGINT or SIGTERM, or with CMD until CMD, run as
 * its child, exits (its exit status is bench-attach's): a meter run as CMD (bench-callcost)
 * finds the programs in its parent, as it finds a tracer's.
 *
 * The benchmark reads the programs' run-time statistics with bpftool while this holds them,
 * exactly as it does for lbrsnap's own programs.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define MAX_LINKS 16

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct bpf_link *links[MAX_LINKS] = {};
	struct sigaction sa = { .sa_handler = on_signal };
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_prog_info info;
	char **cmd = NULL;
	int n = 0, i, ret = 1, status;
	__u32 len;
	pid_t pid;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			argc = i;
			break;
		}
	}
	if ((argc != 2 && argc != 3) || (cmd && !*cmd)) {
		fprintf(stderr, "usage: bench-attach OBJ.bpf.o [PROG] [-- CMD...]\n");
		return 2;
	}
	/* installed before the attach, so a stop request never leaves a program attached */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "bench-attach: cannot open '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "bench-attach: cannot load '%s': %s\n", argv[1], strerror(errno));
		goto cleanup;
	}
	bpf_object__for_each_program(prog, obj) {
		if (argc == 3 && strcmp(bpf_program__name(prog), argv[2]))
			continue;
		if (n == MAX_LINKS) {
			fprintf(stderr, "bench-attach: more than %d programs\n", MAX_LINKS);
			goto cleanup;
		}
		links[n] = bpf_program__attach(prog);
		if (!links[n]) {
			fprintf(stderr, "bench-attach: cannot attach %s: %s\n",
				bpf_program__name(prog), strerror(errno));
			goto cleanup;
		}
		n++;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len)) {
			fprintf(stderr, "bench-attach: no info for %s: %s\n",
				bpf_program__name(prog), strerror(errno));
			goto cleanup;
		}
		printf("%s prog_id=%u\n", bpf_program__name(prog), info.id);
	}
	if (!n) {
		fprintf(stderr, "bench-attach: no program to attach in '%s'\n", argv[1]);
		goto cleanup;
	}
	printf("ready\n");
	fflush(stdout);
	if (cmd) {
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, "bench-attach: fork: %s\n", strerror(errno));
			goto cleanup;
		}
		if (!pid) {
			execvp(cmd[0], cmd);
			fprintf(stderr, "bench-attach: cannot run '%s': %s\n", cmd[0],
				strerror(errno));
			_exit(127);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				goto cleanup;
		ret = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		goto cleanup;
	}
	while (!stop)
		pause();
	ret = 0;
cleanup:
	for (i = 0; i < n; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	return ret;
}
