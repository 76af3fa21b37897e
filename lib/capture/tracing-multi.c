// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tracing_multi links through the raw bpf() syscall (API in tracing-multi.h): libbpf 1.1's
 * bpf_link_create() sizes its attribute to the link_create it knows and copies only
 * kprobe_multi and the tracing cookie, so the ids would never reach the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "capture/kernel-features.h"
#include "capture/tracing-multi.h"
#include "util/print.h"
#include "util/tracefs-util.h"

/* the kernel's MAX_BPF_FUNC_ARGS: what a trampoline saves */
#define TRAMP_MAX_ARGS		12

/*
 * BPF_LINK_CREATE's attribute as 7.2 lays it out for tracing_multi (call-traces.md 2): the
 * four common words, then ids @16, cookies @24, cnt @32. Zeroed and sized past every
 * kernel's link_create, so the tail the kernel checks is zero.
 */
union tm_link_attr {
	struct {
		__u32 prog_fd;
		__u32 target_fd;
		__u32 attach_type;
		__u32 flags;
		__u64 ids;
		__u64 cookies;
		__u32 cnt;
	};
	__u8 bytes[128];
};

/*
 * Functions a link must never be given, by name: the trampoline itself calls the migrate_*
 * helpers (7.2 refuses them with EINVAL), and the noreturn functions never reach an exit
 * (fexit.multi refuses them; an entry without its exit would leave a frame open forever, so
 * the entry link leaves them out too).
 */
static const char *const denied[] = {
	"migrate_disable", "migrate_enable", "___migrate_enable",
	"do_exit", "do_group_exit", "make_task_dead", "kthread_complete_and_exit",
	"__module_put_and_kthread_exit", "__x64_sys_exit", "__x64_sys_exit_group",
	"__ia32_sys_exit", "__ia32_sys_exit_group",
};

/*
 * A link takes the attach type its program was loaded with; bpf_prog_info does not tell it
 * on every kernel, so the programs this file loaded remember it (a later load on a reused fd
 * overwrites the slot). An fd loaded elsewhere is taken for fexit.multi.
 */
static struct {
	int fd;
	int type;
} loaded[32];

static int supported = -1;
static char supported_why[160];

int tracing_multi__supported(void)
{
	if (supported < 0)
		supported = !kernel_feature__probe(KFEAT_TRACING_MULTI, supported_why,
						   sizeof(supported_why));
	return supported;
}

const char *tracing_multi__why(void)
{
	tracing_multi__supported();
	return supported_why;
}

static const char *type_name(int type)
{
	switch (type) {
	case TRACING_MULTI_FENTRY:
		return "fentry.multi";
	case TRACING_MULTI_FEXIT:
		return "fexit.multi";
	case TRACING_MULTI_FSESSION:
		return "fsession.multi";
	default:
		return "tracing_multi";
	}
}

int tracing_multi__load(const struct bpf_insn *insns, size_t n, int attach_type,
			const char *name, char *log, size_t log_len)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	size_t i;
	int fd;

	if (attach_type < TRACING_MULTI_FENTRY || attach_type > TRACING_MULTI_FSESSION)
		return -EINVAL;
	opts.expected_attach_type = attach_type;
	opts.attach_btf_id = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, name, "GPL", insns, n, &opts);
	if (fd < 0 && log && log_len) {
		/* again with the verifier's log, only now: a log costs the verifier time */
		opts.log_buf = log;
		opts.log_size = log_len;
		opts.log_level = 1;
		log[0] = 0;
		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, name, "GPL", insns, n, &opts);
	}
	if (fd < 0)
		return -errno;
	for (i = 0; i < sizeof(loaded) / sizeof(loaded[0]); i++) {
		if (!loaded[i].fd || loaded[i].fd == fd) {
			loaded[i].fd = fd;
			loaded[i].type = attach_type;
			break;
		}
	}
	return fd;
}

static int prog_type_of(int prog_fd)
{
	size_t i;

	for (i = 0; i < sizeof(loaded) / sizeof(loaded[0]) && loaded[i].fd; i++)
		if (loaded[i].fd == prog_fd)
			return loaded[i].type;
	return TRACING_MULTI_FEXIT;
}

static int link_create(int prog_fd, int type, const __u32 *ids, const __u64 *cookies,
		       size_t cnt)
{
	union tm_link_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = prog_fd;
	attr.attach_type = type;
	attr.ids = (__u64)(unsigned long)ids;
	attr.cookies = (__u64)(unsigned long)cookies;
	attr.cnt = cnt;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

static bool is_refusal(int err)
{
	return err == -EINVAL || err == -ENOENT;
}

/*
 * Marks in why[] (the refusal's errno) the ids of ids[0, n) that the link refuses, the whole
 * list having been refused: each half is tried, a refused half is halved again. Returns 0, or
 * a negative errno that is not a refusal (the attach failed for another reason).
 */
static int find_refused(int prog_fd, int type, const __u32 *ids, size_t n, int whole_err,
			int *why)
{
	size_t half = n / 2, off, len;
	int fd, ret, k;

	if (n == 1) {
		why[0] = whole_err;
		return 0;
	}
	for (k = 0; k < 2; k++) {
		off = k ? half : 0;
		len = k ? n - half : half;
		fd = link_create(prog_fd, type, ids + off, NULL, len);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		if (!is_refusal(fd))
			return fd;
		ret = find_refused(prog_fd, type, ids + off, len, fd, why + off);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * find_refused() with a program of the same type that does nothing: a function entered while
 * a trial link is attached returns through that link's image even after it is closed, and
 * must not run the caller's program with the trial's cookies.
 */
static int bisect(int type, const __u32 *ids, size_t n, int whole_err, int *why)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int fd, ret;

	opts.expected_attach_type = type;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "lbrsnap_bisect", "GPL", insns, 2, &opts);
	if (fd < 0)
		return -errno;
	ret = find_refused(fd, type, ids, n, whole_err, why);
	close(fd);
	return ret;
}

static const char *func_name(struct btf **btf, __u32 id)
{
	const struct btf_type *t;

	if (!*btf)
		*btf = btf__load_vmlinux_btf();
	t = *btf ? btf__type_by_id(*btf, id) : NULL;
	return t ? btf__name_by_offset(*btf, t->name_off) : "?";
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int tracing_multi__attach(int entry_prog_fd, int exit_prog_fd, const __u32 *btf_ids,
			  const __u64 *cookies, size_t cnt, int *entry_link_fd,
			  int *exit_link_fd, char *err, size_t err_len)
{
	/* the exit first: fexit.multi refuses more (the noreturn set) than fentry.multi */
	int progs[2] = { exit_prog_fd, entry_prog_fd };
	int *links[2] = { exit_link_fd, entry_link_fd };
	__u32 *ids = NULL;
	__u64 *cks = NULL;
	struct btf *btf = NULL;
	int *why = NULL, ret, k, type;
	size_t n = cnt, i, j, nbad;
	bool again = true;

	*entry_link_fd = *exit_link_fd = -1;
	if (!cnt || (entry_prog_fd < 0 && exit_prog_fd < 0)) {
		snprintf(err, err_len, "tracing_multi: no %s to attach",
			 cnt ? "program" : "function");
		return -EINVAL;
	}
	ids = malloc(cnt * sizeof(*ids));
	cks = calloc(cnt, sizeof(*cks));
	why = calloc(cnt, sizeof(*why));
	if (!ids || !cks || !why) {
		ret = -ENOMEM;
		snprintf(err, err_len, "tracing_multi: %s", strerror(-ret));
		goto cleanup;
	}
	memcpy(ids, btf_ids, cnt * sizeof(*ids));
	if (cookies)
		memcpy(cks, cookies, cnt * sizeof(*cks));

	while (again) {
		again = false;
		for (k = 0; k < 2 && !again; k++) {
			if (progs[k] < 0)
				continue;
			type = k ? TRACING_MULTI_FENTRY : prog_type_of(progs[k]);
			ret = link_create(progs[k], type, ids, cks, n);
			if (ret >= 0) {
				*links[k] = ret;
				continue;
			}
			if (!is_refusal(ret)) {
				snprintf(err, err_len, "tracing_multi: %s link over %zu functions: %s",
					 type_name(type), n, strerror(-ret));
				goto cleanup;
			}
			memset(why, 0, n * sizeof(*why));
			ret = bisect(type, ids, n, ret, why);
			if (ret) {
				snprintf(err, err_len, "tracing_multi: %s link over part of %zu functions: %s",
					 type_name(type), n, strerror(-ret));
				goto cleanup;
			}
			for (i = j = nbad = 0; i < n; i++) {
				if (why[i]) {
					pr_debug("lbrsnap: tracing_multi: %s refused by %s (%s): left out\n",
						 func_name(&btf, ids[i]), type_name(type),
						 strerror(-why[i]));
					nbad++;
					continue;
				}
				ids[j] = ids[i];
				cks[j++] = cks[i];
			}
			if (!nbad) {
				ret = -EINVAL;
				snprintf(err, err_len,
					 "tracing_multi: %s refuses the %zu functions together, yet each half alone",
					 type_name(type), n);
				goto cleanup;
			}
			n = j;
			if (!n) {
				ret = -ENOENT;
				snprintf(err, err_len, "tracing_multi: %s refused every function",
					 type_name(type));
				goto cleanup;
			}
			/* both links must take the same functions: start over with the rest */
			close_fd(exit_link_fd);
			close_fd(entry_link_fd);
			again = true;
		}
	}
	ret = n;
cleanup:
	if (ret < 0) {
		close_fd(exit_link_fd);
		close_fd(entry_link_fd);
	}
	btf__free(btf);
	free(why);
	free(cks);
	free(ids);
	return ret;
}

struct name_count {
	char *name;
	unsigned int nr;
};

static int cmp_name_count(const void *a, const void *b)
{
	return strcmp(((const struct name_count *)a)->name, ((const struct name_count *)b)->name);
}

static int cmp_name_key(const void *key, const void *b)
{
	return strcmp(key, ((const struct name_count *)b)->name);
}

/* available_filter_functions as sorted names with how often each is listed */
static int load_traceable(struct name_count **out, size_t *out_nr)
{
	struct name_count *v = NULL, *nv;
	size_t cap = 0, nr = 0, len = 0, i, j;
	char *line = NULL;
	FILE *fp;

	fp = tracefs_util__fopen("available_filter_functions");
	if (!fp)
		return -errno;
	while (getline(&line, &len, fp) > 0) {
		line[strcspn(line, " \t\n")] = 0;
		if (!*line)
			continue;
		if (nr == cap) {
			cap = cap ? cap * 2 : 65536;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[nr].name = strdup(line);
		if (!v[nr].name)
			break;
		v[nr++].nr = 1;
	}
	free(line);
	fclose(fp);
	qsort(v, nr, sizeof(*v), cmp_name_count);
	for (i = j = 0; i < nr; i++) {
		if (j && !strcmp(v[j - 1].name, v[i].name)) {
			v[j - 1].nr++;
			free(v[i].name);
			continue;
		}
		v[j++] = v[i];
	}
	*out = v;
	*out_nr = j;
	return 0;
}

/* Why a trampoline cannot take the function of this prototype, or NULL */
static const char *proto_refused(const struct btf *btf, const struct btf_type *proto)
{
	const struct btf_param *p = btf_params(proto);
	const struct btf_type *t;
	__u32 i, n = btf_vlen(proto);
	int id, size;

	if (n > TRAMP_MAX_ARGS)
		return "more than 12 arguments";
	for (i = 0; i < n; i++) {
		if (!p[i].type)
			return "variable arguments";
		id = btf__resolve_type(btf, p[i].type);
		size = btf__resolve_size(btf, p[i].type);
		t = id < 0 ? NULL : btf__type_by_id(btf, id);
		if (!t || size <= 0 || size > 16 ||
		    !(btf_is_int(t) || btf_is_ptr(t) || btf_is_enum(t) || btf_is_composite(t) ||
		      btf_kind(t) == BTF_KIND_ENUM64))
			return "an argument a trampoline cannot save";
	}
	if (proto->type) {
		id = btf__resolve_type(btf, proto->type);
		t = id < 0 ? NULL : btf__type_by_id(btf, id);
		if (!t || btf_is_composite(t))
			return "a struct return value";
	}
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* Why id must not go to a link, or NULL (duplicates are the caller's test) */
static const char *id_refused(const struct btf *btf, __u32 id, const struct name_count *tr,
			      size_t ntr)
{
	const struct btf_type *t = btf__type_by_id(btf, id), *proto;
	const struct name_count *nc;
	const char *name;
	size_t i;

	if (!t || !btf_is_func(t))
		return "not a function in BTF";
	name = btf__name_by_offset(btf, t->name_off);
	for (i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		if (!strcmp(name, denied[i]))
			return "the trampoline's own helper or a function that never returns";
	nc = bsearch(name, tr, ntr, sizeof(*tr), cmp_name_key);
	if (!nc)
		return "not in available_filter_functions (notrace, or inlined everywhere)";
	if (nc->nr > 1)
		return "listed more than once in available_filter_functions (which one is ambiguous)";
	proto = btf__type_by_id(btf, t->type);
	if (!proto || !btf_is_func_proto(proto))
		return "no prototype in BTF";
	return proto_refused(btf, proto);
}

int tracing_multi__filter(const struct btf *btf, __u32 *ids, __u64 *cookies, size_t cnt,
			  size_t *nr_out, char *example, size_t example_len)
{
	struct name_count *tr = NULL;
	__u32 *seen = NULL;
	size_t ntr = 0, i, j, nseen = 0, out = 0;
	const char *why;
	int ret;

	if (example && example_len)
		example[0] = 0;
	ret = load_traceable(&tr, &ntr);
	if (ret)
		return ret;
	seen = malloc((cnt ? cnt : 1) * sizeof(*seen));
	if (!seen) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = j = 0; i < cnt; i++) {
		why = id_refused(btf, ids[i], tr, ntr);
		/* a duplicate fails the whole link: the first keeps its cookie */
		if (!why && nseen && bsearch(&ids[i], seen, nseen, sizeof(*seen), cmp_u32))
			why = "named twice";
		if (why) {
			if (!out++ && example && example_len) {
				const struct btf_type *t = btf__type_by_id(btf, ids[i]);

				snprintf(example, example_len, "%s: %s",
					 t ? btf__name_by_offset(btf, t->name_off) : "?", why);
			}
			continue;
		}
		/* sorted insertion, linear for ids in BTF order (as globs give them) */
		{
			size_t at = nseen;

			while (at && seen[at - 1] > ids[i]) {
				seen[at] = seen[at - 1];
				at--;
			}
			seen[at] = ids[i];
			nseen++;
		}
		if (cookies)
			cookies[j] = cookies[i];
		ids[j++] = ids[i];
	}
	if (nr_out)
		*nr_out = out;
	ret = j;
cleanup:
	for (i = 0; i < ntr; i++)
		free(tr[i].name);
	free(tr);
	free(seen);
	return ret;
}
