// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tmulti-load: proves lib/capture/tracing-multi on its own (tests/vm/t-tracing-multi runs it
 * in the guests). Two programs of its own, written as instructions (the layer loads raw
 * instructions): fentry.multi counts each function's entries by bpf_get_attach_cookie(),
 * fexit.multi its exits and return values by bpf_get_func_ret(), this process's calls only.
 *
 *   tmulti-load DIR      attaches the mkdir path (MKDIRAT, filename_create, vfs_mkdir: cookies
 *                        0-2), 500 more functions and one the kernel refuses (the layer must
 *                        find and drop it), runs mkdir DIR/d, mkdir DIR/d, mkdir DIR/new and
 *                        prints the counts. Exit 3 with "unsupported: WHY" where the kernel
 *                        has no tracing_multi.
 *   tmulti-load --time N REPS
 *                        attach and detach both programs over N functions REPS times and
 *                        print "attach SECONDS detach SECONDS" per repetition (make bench).
 *   tmulti-load --list N [SKIP]
 *                        print the names of those N functions with at most 6 arguments (what
 *                        every --calls mechanism and bpftrace's kfunc take), SKIP left out:
 *                        the same pool on every kernel that has them (tests/bench/calls-times).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "capture/tracing-multi.h"
#include "util/print.h"

#define NR_KNOWN	3
#define NR_OTHERS	500
#define NR_RETS		4

/* one entry of the counts map per cookie */
struct counts {
	__u64 entries;
	__u64 exits;
	__u64 ret[NR_RETS];	/* the first returns, in order (raw: an int's upper half is junk) */
};

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
						.off = (o), .imm = (i) })
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ALU64_IMM(op, d, i)	INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU64_REG(op, d, s)	INSN(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define JMP_IMM(op, d, i, o)	INSN(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define STX(sz, d, s, o)	INSN(BPF_STX | (sz) | BPF_MEM, d, s, o, 0)
#define LDX(sz, d, s, o)	INSN(BPF_LDX | (sz) | BPF_MEM, d, s, o, 0)
#define ATOMIC_ADD(d, s, o)	INSN(BPF_STX | BPF_DW | BPF_ATOMIC, d, s, o, BPF_ADD)
#define FETCH_ADD(d, s, o)	INSN(BPF_STX | BPF_DW | BPF_ATOMIC, d, s, o, BPF_ADD | BPF_FETCH)
#define LD_MAP_FD(d, fd)	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), \
				INSN(0, 0, 0, 0, 0)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/*
 * r6 = ctx; this process only; r0 = &counts[cookie] (its number of instructions: PROLOGUE),
 * jumping to the program's last two instructions (r0 = 0; exit) when there is none.
 */
#define PROLOGUE 13
static void prologue(struct bpf_insn *p, int map_fd, __u32 tgid, int to_out)
{
	struct bpf_insn v[PROLOGUE] = {
		MOV64_REG(BPF_REG_6, BPF_REG_1),
		CALL(BPF_FUNC_get_current_pid_tgid),
		ALU64_IMM(BPF_RSH, BPF_REG_0, 32),
		JMP_IMM(BPF_JNE, BPF_REG_0, tgid, to_out - 4),
		MOV64_REG(BPF_REG_1, BPF_REG_6),
		CALL(BPF_FUNC_get_attach_cookie),
		STX(BPF_W, BPF_REG_10, BPF_REG_0, -4),
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JMP_IMM(BPF_JEQ, BPF_REG_0, 0, to_out - 13),
	};

	memcpy(p, v, sizeof(v));
}

static int load_entry(int map_fd, __u32 tgid)
{
	struct bpf_insn p[PROLOGUE + 4];
	char log[4096];
	int n = 0, fd;

	prologue(p, map_fd, tgid, PROLOGUE + 2);
	n = PROLOGUE;
	p[n++] = MOV64_IMM(BPF_REG_1, 1);
	p[n++] = ATOMIC_ADD(BPF_REG_0, BPF_REG_1, 0);
	p[n++] = MOV64_IMM(BPF_REG_0, 0);
	p[n++] = EXIT();
	fd = tracing_multi__load(p, n, TRACING_MULTI_FENTRY, "tm_entry", log, sizeof(log));
	if (fd < 0)
		fprintf(stderr, "tmulti-load: fentry.multi load: %s\n%s", strerror(-fd), log);
	return fd;
}

static int load_exit(int map_fd, __u32 tgid)
{
	struct bpf_insn p[PROLOGUE + 20];
	const int out = PROLOGUE + 12;
	char log[8192];
	int n, fd;

	prologue(p, map_fd, tgid, out);
	n = PROLOGUE;
	p[n++] = MOV64_REG(BPF_REG_7, BPF_REG_0);
	p[n++] = MOV64_REG(BPF_REG_1, BPF_REG_6);
	p[n++] = MOV64_REG(BPF_REG_2, BPF_REG_10);
	p[n++] = ALU64_IMM(BPF_ADD, BPF_REG_2, -16);
	p[n++] = CALL(BPF_FUNC_get_func_ret);
	p[n++] = LDX(BPF_DW, BPF_REG_8, BPF_REG_10, -16);
	/* the first NR_RETS returns, at the index the exit count had */
	p[n++] = MOV64_IMM(BPF_REG_1, 1);
	p[n++] = FETCH_ADD(BPF_REG_7, BPF_REG_1, 8);
	p[n] = JMP_IMM(BPF_JGE, BPF_REG_1, NR_RETS, out - n - 1);
	n++;
	p[n++] = ALU64_IMM(BPF_LSH, BPF_REG_1, 3);
	p[n++] = ALU64_REG(BPF_ADD, BPF_REG_7, BPF_REG_1);
	p[n++] = STX(BPF_DW, BPF_REG_7, BPF_REG_8, 16);
	p[n++] = MOV64_IMM(BPF_REG_0, 0);
	p[n++] = EXIT();
	fd = tracing_multi__load(p, n, TRACING_MULTI_FEXIT, "tm_exit", log, sizeof(log));
	if (fd < 0)
		fprintf(stderr, "tmulti-load: fexit.multi load: %s\n%s", strerror(-fd), log);
	return fd;
}

static int print_all(enum lbrsnap_print_level level, const char *fmt, va_list ap)
{
	/* the layer's -v notes name what it left out: the test checks them */
	(void)level;
	return vfprintf(stdout, fmt, ap);
}

static int func_id(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * n functions of file-system and VFS families, in name order, that the layer's filter
 * accepts, none of skip[]: a reproducible set with no function the mkdir path needs exact
 */
static int pick_others(const struct btf *btf, __u32 *ids, size_t n, const __u32 *skip,
		       size_t nskip, __u32 max_args)
{
	static const char *const globs[] = { "vfs_*", "path_*", "d_*", "dentry_*", "inode_*",
					     "generic_*", "filemap_*", "file_*", "seq_*",
					     "security_*", "kernfs_*", "proc_*", "simple_*" };
	size_t nnames = 0, i, g, k, got = 0;
	__u32 nr = btf__type_cnt(btf), id, *cand;
	const char **names;
	size_t left;
	int kept;

	names = calloc(nr, sizeof(*names));
	cand = calloc(nr, sizeof(*cand));
	if (!names || !cand)
		return -ENOMEM;
	for (id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (max_args && btf_vlen(btf__type_by_id(btf, t->type)) > max_args)
			continue;
		for (g = 0; g < sizeof(globs) / sizeof(globs[0]); g++)
			if (!fnmatch(globs[g], name, 0))
				break;
		if (g < sizeof(globs) / sizeof(globs[0]))
			names[nnames++] = name;
	}
	qsort(names, nnames, sizeof(*names), cmp_str);
	for (i = k = 0; i < nnames; i++) {
		int fid = func_id(btf, names[i]);
		size_t s;

		for (s = 0; s < nskip && fid >= 0 && skip[s] != (__u32)fid; s++)
			;
		if (fid >= 0 && s == nskip && (!k || cand[k - 1] != (__u32)fid))
			cand[k++] = fid;
	}
	kept = tracing_multi__filter(btf, cand, NULL, k, &left, NULL, 0);
	if (kept >= 0) {
		got = (size_t)kept < n ? (size_t)kept : n;
		memcpy(ids, cand, got * sizeof(*ids));
	}
	free(names);
	free(cand);
	return kept < 0 ? kept : (int)got;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* as the function's BTF types it: an int sign-extended, errors as such, pointers as "ptr" */
static const char *ret_str(const struct btf *btf, __u32 id, __u64 v, char *buf, size_t len)
{
	const struct btf_type *fn = btf__type_by_id(btf, id);
	const struct btf_type *proto = btf__type_by_id(btf, fn->type);
	__s64 s = v;

	if (proto->type && btf__resolve_size(btf, proto->type) == 4)
		s = v = (__s64)(__s32)v;

	if (s >= -4095 && s < 0)
		snprintf(buf, len, "%lld", (long long)s);
	else if (v >= 0xffff800000000000ULL)
		snprintf(buf, len, "ptr");
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static int time_mode(const struct btf *btf, size_t n, int reps)
{
	__u32 *ids = calloc(n, sizeof(*ids));
	int map_fd, efd, xfd, got, r, ret, el, xl;
	char err[256];
	double t0, t1, t2;

	if (!ids)
		return 1;
	got = pick_others(btf, ids, n, NULL, 0, 0);
	if (got < (int)n) {
		fprintf(stderr, "tmulti-load: only %d of %zu functions traceable\n", got, n);
		return 1;
	}
	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tm_counts", 4, sizeof(struct counts),
				n, NULL);
	efd = map_fd < 0 ? -1 : load_entry(map_fd, getpid());
	xfd = map_fd < 0 ? -1 : load_exit(map_fd, getpid());
	if (efd < 0 || xfd < 0)
		return 1;
	for (r = 0; r < reps; r++) {
		t0 = now();
		ret = tracing_multi__attach(efd, xfd, ids, NULL, n, &el, &xl, err, sizeof(err));
		t1 = now();
		if (ret < 0) {
			fprintf(stderr, "tmulti-load: %s\n", err);
			return 1;
		}
		close(el);
		close(xl);
		t2 = now();
		printf("attach %.4f detach %.4f functions %d\n", t1 - t0, t2 - t1, ret);
	}
	return 0;
}

static int list_mode(size_t n, const char *skip_name)
{
	struct btf *btf = btf__load_vmlinux_btf();
	__u32 *ids = calloc(n, sizeof(*ids)), skip = 0;
	int got, i;

	if (!btf || !ids)
		return 1;
	if (skip_name && func_id(btf, skip_name) >= 0)
		skip = func_id(btf, skip_name);
	got = pick_others(btf, ids, n, &skip, skip ? 1 : 0, 6);
	if (got < (int)n) {
		fprintf(stderr, "tmulti-load: %d traceable functions, %zu wanted\n", got, n);
		return 1;
	}
	for (i = 0; i < got; i++)
		printf("%s\n", btf__name_by_offset(btf, btf__type_by_id(btf, ids[i])->name_off));
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const bad_names[] = { "migrate_disable", "___migrate_enable",
						 "migrate_enable" };
	const char *known[NR_KNOWN] = { "do_mkdirat", "filename_create", "vfs_mkdir" };
	__u32 ids[NR_KNOWN + NR_OTHERS + 1];
	__u64 cookies[NR_KNOWN + NR_OTHERS + 1];
	const char *mk[] = { "d", "d", "new" };
	int map_fd, efd, xfd, el = -1, xl = -1, n, i, ret, got, k;
	struct counts c, others = { 0 };
	char err[256], path[4096], b[4][32];
	struct btf *btf;
	size_t nb;
	int nbad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	lbrsnap_set_print(print_all);
	if (argc < 2) {
		fprintf(stderr, "usage: tmulti-load DIR | --time N REPS | --list N [SKIP]\n");
		return 2;
	}
	if (!strcmp(argv[1], "--list"))
		return argc < 3 ? 2 : list_mode(strtoul(argv[2], NULL, 0), argc > 3 ? argv[3] : NULL);
	if (!tracing_multi__supported()) {
		printf("unsupported: %s\n", tracing_multi__why());
		return 3;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		fprintf(stderr, "tmulti-load: vmlinux BTF: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "--time"))
		return argc < 4 ? 2 : time_mode(btf, strtoul(argv[2], NULL, 0), atoi(argv[3]));

	/* 7.2 renamed do_mkdirat */
	if (func_id(btf, known[0]) < 0)
		known[0] = "filename_mkdirat";
	for (n = 0; n < NR_KNOWN; n++) {
		ret = func_id(btf, known[n]);
		if (ret < 0) {
			fprintf(stderr, "tmulti-load: no BTF FUNC %s\n", known[n]);
			return 1;
		}
		ids[n] = ret;
		cookies[n] = n;
	}
	got = pick_others(btf, ids + n, NR_OTHERS, ids, NR_KNOWN, 0);
	if (got < NR_OTHERS) {
		fprintf(stderr, "tmulti-load: %d traceable functions, %d wanted\n", got,
			NR_OTHERS);
		return 1;
	}
	for (i = 0; i < got; i++)
		cookies[n + i] = n + i;
	n += got;
	/* one the kernel refuses, in the middle: the layer has to find it */
	for (nb = 0; nb < sizeof(bad_names) / sizeof(bad_names[0]); nb++) {
		ret = func_id(btf, bad_names[nb]);
		if (ret >= 0) {
			ids[n] = ids[NR_KNOWN + 250];
			cookies[n] = cookies[NR_KNOWN + 250];
			ids[NR_KNOWN + 250] = ret;
			cookies[NR_KNOWN + 250] = n;
			n++;
			nbad++;
			printf("refused on purpose: %s\n", bad_names[nb]);
			break;
		}
	}

	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tm_counts", 4, sizeof(struct counts), n,
				NULL);
	if (map_fd < 0) {
		fprintf(stderr, "tmulti-load: map: %s\n", strerror(errno));
		return 1;
	}
	efd = load_entry(map_fd, getpid());
	xfd = load_exit(map_fd, getpid());
	if (efd < 0 || xfd < 0)
		return 1;
	ret = tracing_multi__attach(efd, xfd, ids, cookies, n, &el, &xl, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "tmulti-load: %s\n", err);
		return 1;
	}
	printf("attached: %d functions, entry and exit links\n", ret);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", argv[1], mk[i]);
		errno = 0;
		mkdir(path, 0755);
		printf("mkdir %s: %s\n", mk[i], strerror(errno));
	}
	close(el);
	close(xl);
	for (k = 0; k < n; k++) {
		__u32 key = k;

		if (bpf_map_lookup_elem(map_fd, &key, &c))
			memset(&c, 0, sizeof(c));
		if (k < NR_KNOWN) {
			printf("%s: entries %llu exits %llu returns", known[k],
			       (unsigned long long)c.entries, (unsigned long long)c.exits);
			for (i = 0; i < NR_RETS && i < (int)c.exits; i++)
				printf(" %s", ret_str(btf, ids[k], c.ret[i], b[i], sizeof(b[i])));
			printf("\n");
			continue;
		}
		others.entries += c.entries;
		others.exits += c.exits;

	}
	printf("others: %d functions, %llu entries, %llu exits\n", n - NR_KNOWN - nbad,
	       (unsigned long long)others.entries, (unsigned long long)others.exits);
	btf__free(btf);
	return 0;
}
