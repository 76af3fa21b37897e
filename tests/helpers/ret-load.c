// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ret-load: makes kernel functions of every return type return exact, known values, an
 * exact number of times each, for the typed return value tests (tests/vm/t-ret-types).
 *
 *   ret-load [--comm NAME] [--dir DIR]
 *
 * It prints its pid, renames itself to NAME (so `lbrsnap record --comm NAME` sees only the
 * calls below, not its own start or output), makes these raw syscalls, takes its name back
 * and prints what each returned to it. The kernel function each one reaches, and what that
 * function returns:
 *
 *   mkdirat DIR/ret-load.d, then 3 times again	do_mkdirat: 0 x1, -17 (EEXIST) x3
 *   openat DIR/ret-load.d (a directory), then	do_filp_open: a struct file * x1,
 *     DIR/ret-load.d/missing 2 times			ERR_PTR(-ENOENT) x2
 *   getdents64 of the empty ret-load.d with room	filldir64: true x4, false x2
 *     for one entry, read to the end twice
 *     ("." fits, ".." does not; then ".."; then the end)
 *   write 4242 bytes to a pipe 3 times, to fd -1	ksys_write: 4242 x3, -9 (EBADF) x5
 *     5 times
 *   getegid; setresgid(-1, 4294967279, -1) (the	map_id_up: 0 x3 (mkdirat checks that
 *     32-bit pattern of -17); getegid 6 times		the fsuid and fsgid map, getegid),
 *							4294967279 x6
 *   mmap anonymous at 1 TiB (MAP_FIXED_NOREPLACE),	ksys_mmap_pgoff: 1099511627776 x1,
 *     of the directory (no mmap: -ENODEV), of fd -1	18446744073709551597 (-ENODEV) x1,
 *     2 times						18446744073709551607 (-EBADF) x2
 *							fget: a struct file * x1, NULL x2
 *   clock_nanosleep(CLOCK_MONOTONIC) of 1000 ns	hrtimer_nanosleep(rqtp, enum
 *     2 times, then TIMER_ABSTIME at 0 (passed)	hrtimer_mode mode, clockid_t): 0 x3;
 *							1000 HRTIMER_MODE_REL 1 x2,
 *							0 HRTIMER_MODE_ABS 1 x1
 *
 * The egid is set back before it exits. Exit status 0 when every call returned what the table
 * says (0 for getegid only if it runs with egid 0), 1 otherwise (with a message), 2 on usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define SUBDIR		"ret-load.d"
#define NR_EEXIST	3
#define NR_ENOENT	2
#define NR_READDIR	2
#define NR_WRITE	3
#define WRITE_SIZE	4242
#define NR_WRITE_BAD	5
#define ODD_GID		4294967279u	/* (gid_t)-17 */
#define NR_GETEGID	6
#define MMAP_ADDR	(1ul << 40)
#define NR_MMAP_BAD	2
#define NSLEEP_NS	1000
#define NR_NSLEEP_REL	2

/* what happened, printed once the name is back: nothing is written while counted */
static char report[4096];
static size_t report_len;
static bool failed;

static void note(bool ok, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!ok)
		failed = true;
	if (report_len >= sizeof(report))
		return;
	va_start(ap, fmt);
	n = vsnprintf(report + report_len, sizeof(report) - report_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		report_len += n;
	if (report_len < sizeof(report))
		report_len += snprintf(report + report_len, sizeof(report) - report_len, "%s\n",
				       ok ? "" : "  <- unexpected");
}

/* raw syscalls: libc must not add, skip or redirect any of them; -errno on failure */
static long sys(long nr, long a, long b, long c, long d, long e, long f)
{
	long r = syscall(nr, a, b, c, d, e, f);

	return r == -1 ? -errno : r;
}

static int count_ret(long nr, int times, long want, long a, long b, long c, long d, long e,
		     long f)
{
	int i, n = 0;

	for (i = 0; i < times; i++)
		n += sys(nr, a, b, c, d, e, f) == want;
	return n;
}

static void run(const char *dir)
{
	static char buf[WRITE_SIZE];
	char path[4096], missing[sizeof(path) + 16];
	long r, dfd, got[3], p[3];
	int pipefd[2], i, n, bad;
	uint32_t egid;
	struct timespec ts;

	snprintf(path, sizeof(path), "%s/" SUBDIR, dir);
	snprintf(missing, sizeof(missing), "%s/missing", path);

	r = sys(SYS_mkdirat, AT_FDCWD, (long)path, 0755, 0, 0, 0);
	n = count_ret(SYS_mkdirat, NR_EEXIST, -EEXIST, AT_FDCWD, (long)path, 0755, 0, 0, 0);
	note(!r && n == NR_EEXIST, "mkdirat %s: %ld, then -EEXIST %d of %d", path, r, n,
	     NR_EEXIST);

	dfd = sys(SYS_openat, AT_FDCWD, (long)path, O_RDONLY | O_DIRECTORY, 0, 0, 0);
	n = count_ret(SYS_openat, NR_ENOENT, -ENOENT, AT_FDCWD, (long)missing, O_RDONLY, 0, 0,
		      0);
	note(dfd >= 0 && n == NR_ENOENT, "openat %s: fd %ld; %s: -ENOENT %d of %d", path,
	     dfd, missing, n, NR_ENOENT);

	/* a linux_dirent64 of "." or ".." takes 24 bytes: room for exactly one */
	bad = 0;
	for (i = 0; i < NR_READDIR; i++) {
		char ents[24];
		int j;

		sys(SYS_lseek, dfd, 0, SEEK_SET, 0, 0, 0);
		for (j = 0; j < 3; j++)
			got[j] = sys(SYS_getdents64, dfd, (long)ents, sizeof(ents), 0, 0, 0);
		bad += got[0] != 24 || got[1] != 24 || got[2] != 0;
	}
	note(!bad, "getdents64 of the empty directory, 24-byte buffer, %d times to the end: "
	     "24, 24, 0 bytes (%d rounds differ)", NR_READDIR, bad);

	r = sys(SYS_pipe2, (long)pipefd, O_CLOEXEC, 0, 0, 0, 0);
	n = r ? 0 : count_ret(SYS_write, NR_WRITE, WRITE_SIZE, pipefd[1], (long)buf,
			      WRITE_SIZE, 0, 0, 0);
	bad = count_ret(SYS_write, NR_WRITE_BAD, -EBADF, -1, (long)buf, WRITE_SIZE, 0, 0, 0);
	note(n == NR_WRITE && bad == NR_WRITE_BAD, "write %d bytes to a pipe: %d of %d; "
	     "to fd -1: -EBADF %d of %d", WRITE_SIZE, n, NR_WRITE, bad, NR_WRITE_BAD);

	egid = sys(SYS_getegid, 0, 0, 0, 0, 0, 0);
	r = sys(SYS_setresgid, -1, ODD_GID, -1, 0, 0, 0);
	n = r ? 0 : count_ret(SYS_getegid, NR_GETEGID, (long)ODD_GID, 0, 0, 0, 0, 0, 0);
	note(!egid && n == NR_GETEGID, "getegid: %u; setresgid(-1, %u, -1): %ld; getegid: "
	     "%u %d of %d", egid, ODD_GID, r, ODD_GID, n, NR_GETEGID);

	p[0] = sys(SYS_mmap, MMAP_ADDR, 4096, PROT_READ,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	p[1] = sys(SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE, dfd, 0);
	n = count_ret(SYS_mmap, NR_MMAP_BAD, -EBADF, 0, 4096, PROT_READ, MAP_PRIVATE, -1, 0);
	note(p[0] == (long)MMAP_ADDR && p[1] == -ENODEV && n == NR_MMAP_BAD, "mmap at %#lx: "
	     "%#lx; of the directory: %ld; of fd -1: -EBADF %d of %d", MMAP_ADDR, p[0], p[1], n,
	     NR_MMAP_BAD);

	ts.tv_sec = 0;
	ts.tv_nsec = NSLEEP_NS;
	n = count_ret(SYS_clock_nanosleep, NR_NSLEEP_REL, 0, CLOCK_MONOTONIC, 0, (long)&ts, 0, 0,
		      0);
	ts.tv_nsec = 0;
	r = sys(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, (long)&ts, 0, 0, 0);
	note(n == NR_NSLEEP_REL && !r, "clock_nanosleep of %d ns: 0 %d of %d; until 0: %ld",
	     NSLEEP_NS, n, NR_NSLEEP_REL, r);

	/* still under the test's name, but reaching none of the functions above */
	p[2] = sys(SYS_setresgid, -1, egid, -1, 0, 0, 0);
	note(!p[2], "setresgid(-1, %u, -1): %ld", egid, p[2]);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "comm", required_argument, NULL, 'c' },
		{ "dir", required_argument, NULL, 'd' },
		{ 0 }
	};
	const char *comm = NULL, *dir = ".";
	char own[16] = "";
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': comm = optarg; break;
		case 'd': dir = optarg; break;
		default:
			fprintf(stderr, "usage: ret-load [--comm NAME] [--dir DIR]\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ret-load: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	printf("pid=%d\n", getpid());
	fflush(stdout);
	prctl(PR_GET_NAME, own);
	if (comm)
		prctl(PR_SET_NAME, comm);
	run(dir);
	prctl(PR_SET_NAME, own);
	fwrite(report, 1, report_len, stdout);
	if (failed)
		fprintf(stderr, "ret-load: a call did not return what it should (see above)\n");
	return failed;
}
