// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * report: synthetic captures written with lbrfile_writer, rendered as text and JSON (JSON
 * read back with json-c, field by field), and the command's exit codes on bad input.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <json-c/json.h>
#include "unit.h"
#include "builtin-report.h"
#include "report/report.h"
#include "lbrfile/ret-value.h"

#define BR_TYPE_RET	(6ull << 20)
#define BR_MISPRED	1ull
#define BR_CYCLES(n)	((__u64)(n) << 4)

static const char *const kallsyms_syms[] = {
	"_stext", "do_sys_openat2", "do_filp_open", "__schedule", "schedule",
	"__traceiter_sched_switch", "__bpf_trace_sched_switch", "bpf_trace_run4",
	"intel_pmu_snapshot_branch_stack",
};
static const char *const kallsyms_bpf[] = {
	"bpf_trampoline_6442508829", "bpf_prog_6deef7357e7b4530_lbrsnap_fexit",
	"bpf_prog_1122334455667788_lbrsnap_raw_tp",
};

/* A comm with every kind of byte JSON and a terminal care about. */
static const char evil_comm[LBRSNAP_COMM_LEN] = "a\"b\\c\n\xff\x01z";

static char dir[] = "/tmp/test-report-XXXXXX";
static char capture[64];
/* where the kernel was loaded: the grouping tests load it at two places */
static __u64 kaslr;
static char *kallsyms_text;
static size_t kallsyms_len;

static __u64 sym_addr(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kallsyms_syms) / sizeof(kallsyms_syms[0]); i++) {
		if (!strcmp(name, kallsyms_syms[i]))
			return 0xffffffff81000000ull + kaslr + i * 0x1000;
	}
	for (i = 0; i < sizeof(kallsyms_bpf) / sizeof(kallsyms_bpf[0]); i++) {
		if (!strcmp(name, kallsyms_bpf[i]))
			return 0xffffffffc0000000ull + kaslr + i * 0x1000;
	}
	return 0;
}

static void make_kallsyms(void)
{
	FILE *m = open_memstream(&kallsyms_text, &kallsyms_len);
	size_t i;

	for (i = 0; i < sizeof(kallsyms_syms) / sizeof(kallsyms_syms[0]); i++)
		fprintf(m, "%016llx T %s\n", (unsigned long long)sym_addr(kallsyms_syms[i]),
			kallsyms_syms[i]);
	for (i = 0; i < sizeof(kallsyms_bpf) / sizeof(kallsyms_bpf[0]); i++)
		fprintf(m, "%016llx t %s\t[bpf]\n", (unsigned long long)sym_addr(kallsyms_bpf[i]),
			kallsyms_bpf[i]);
	fclose(m);
}

struct rec_buf {
	struct lbrsnap_event ev;
	struct lbrsnap_branch br[8];
	__u64 stack[8];
};

static size_t rec_size(const struct rec_buf *r)
{
	return lbrsnap_event_size(r->ev.nr_branches, r->ev.nr_stack);
}

/* the stack follows the branches directly: move it into place for nr_branches < 8 */
static const void *rec_bytes(struct rec_buf *r)
{
	memmove((char *)r->br + r->ev.nr_branches * sizeof(r->br[0]), r->stack,
		r->ev.nr_stack * 8);
	return r;
}

static void rec_init(struct rec_buf *r, __u64 time_ns, __u32 ap, __u32 cpu, __u32 pid,
		     const char *comm)
{
	size_t n = strlen(comm);

	memset(r, 0, sizeof(*r));
	r->ev.time_ns = time_ns;
	r->ev.ap = ap;
	r->ev.cpu = cpu;
	r->ev.pid = pid;
	r->ev.tid = pid + 1;
	memcpy(r->ev.comm, comm, n < LBRSNAP_COMM_LEN ? n : LBRSNAP_COMM_LEN);
}

/* The attach points of both synthetic captures */
static const struct lbr_attach_point fexit = {
	.id = 0, .kind = LBRSNAP_KIND_FEXIT, .flags = LBRFILE_AP_HAS_RET,
	.ret_kind = LBRSNAP_RET_SIGNED, .ret_size = 4, .ret_type = "int",
	.spec = "fexit:do_sys_openat2", .target = "do_sys_openat2",
};
static const struct lbr_attach_point rawtp = {
	.id = 1, .kind = LBRSNAP_KIND_RAW_TP,
	.spec = "raw_tp:sched_switch", .target = "sched_switch",
};

static int write_capture(const char *path)
{
	struct lbrfile_writer *w;
	struct rec_buf r;
	int err;

	err = lbrfile_writer__create(path, &w);
	if (err)
		return err;
	lbrfile_writer__meta(w, "release", "0.0.0-lbrsnap-test");
	lbrfile_writer__meta(w, "lbr", "no PMU: perf_event_open(cycles) failed with ENOENT");
	lbrfile_writer__attach(w, &fexit);
	lbrfile_writer__attach(w, &rawtp);

	/* written out of time order: the report sorts */
	rec_init(&r, 3000005000ull, 1, 0, 7, "kworker/0:1");
	r.ev.lbr_ret = -ENOENT;
	r.ev.nr_stack = 6;
	r.stack[0] = sym_addr("bpf_prog_1122334455667788_lbrsnap_raw_tp") + 0x60;
	r.stack[1] = sym_addr("bpf_trace_run4") + 0x95;
	r.stack[2] = sym_addr("__bpf_trace_sched_switch") + 0x15;
	r.stack[3] = sym_addr("__traceiter_sched_switch") + 0x43;
	r.stack[4] = sym_addr("__schedule") + 0x3a6;
	r.stack[5] = sym_addr("schedule") + 0x25;
	lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));

	rec_init(&r, 1000002999ull, 0, 1, 1234, evil_comm);
	r.ev.ret = -2;
	r.ev.lbr_ret = 5 * LBRSNAP_BRANCH_SIZE;
	r.ev.flags = LBRSNAP_EV_HAS_RET;
	r.ev.seq = 41;
	r.ev.nr_branches = 5;
	r.br[4] = (struct lbrsnap_branch){ sym_addr("do_sys_openat2") + 0x10,
					   sym_addr("do_filp_open") };
	r.br[3] = (struct lbrsnap_branch){ sym_addr("do_filp_open") + 0x80,
					   sym_addr("do_sys_openat2") + 0x15, BR_TYPE_RET };
	r.br[2] = (struct lbrsnap_branch){ sym_addr("do_sys_openat2") + 0x60,
					   sym_addr("bpf_trampoline_6442508829") + 0x7f,
					   BR_TYPE_RET | BR_MISPRED | BR_CYCLES(5) };
	r.br[1] = (struct lbrsnap_branch){ sym_addr("bpf_trampoline_6442508829") + 0xad,
					   sym_addr("bpf_prog_6deef7357e7b4530_lbrsnap_fexit") };
	r.br[0] = (struct lbrsnap_branch){ sym_addr("bpf_prog_6deef7357e7b4530_lbrsnap_fexit") +
					   0x101, sym_addr("intel_pmu_snapshot_branch_stack") };
	lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));

	rec_init(&r, 2000000000ull, 0, 1, 1234, "cat");
	r.ev.ret = 3;
	r.ev.flags = LBRSNAP_EV_HAS_RET | LBRSNAP_EV_CLOBBERED;
	lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));

	lbrfile_writer__loss(w, 0, LBRSNAP_LOSS_RINGBUF, 5);
	lbrfile_writer__loss(w, 0, LBRSNAP_LOSS_CLOBBERED, 1);
	lbrfile_writer__loss(w, 1, LBRSNAP_LOSS_RECURSION, 2);
	lbrfile_writer__loss(w, 1, LBRSNAP_LOSS_NESTED, 4);
	lbrfile_writer__kallsyms(w, kallsyms_text, kallsyms_len);
	return lbrfile_writer__close(w);
}

static int group_init(void);

static int suite_init(void)
{
	if (!mkdtemp(dir))
		return -1;
	snprintf(capture, sizeof(capture), "%s/lbrsnap.data", dir);
	make_kallsyms();
	return write_capture(capture) || group_init() ? -1 : 0;
}

static int suite_clean(void)
{
	char cmd[128];

	free(kallsyms_text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

/* Renders the capture into a string (caller frees). */
static char *render_opts(const char *path, bool json, bool keep_all, bool group, bool top)
{
	struct lbrfile *f = NULL;
	struct ksyms *ks = NULL;
	struct report r = {};
	const char *text;
	char *out = NULL;
	size_t len = 0, klen;

	CU_ASSERT_EQUAL_FATAL(lbrfile__open(path, &f), 0);
	text = lbrfile__kallsyms(f, &klen);
	CU_ASSERT_EQUAL_FATAL(ksyms__parse(text, klen, &ks), 0);
	r.out = open_memstream(&out, &len);
	r.file = f;
	r.ks = ks;
	r.json = json;
	r.keep_all = keep_all;
	r.group = group;
	r.top_groups = top;
	CU_ASSERT_EQUAL(report__run(&r), 0);
	fclose(r.out);
	ksyms__free(ks);
	lbrfile__close(f);
	return out;
}

static char *render_file(const char *path, bool json, bool keep_all)
{
	return render_opts(path, json, keep_all, false, false);
}

static char *render(bool json, bool keep_all)
{
	return render_file(capture, json, keep_all);
}

/* position of needle in hay, or -1 */
static long at(const char *hay, const char *needle)
{
	const char *p = strstr(hay, needle);

	return p ? p - hay : -1;
}

static void test_text(void)
{
	char *out = render(false, false);

	/* time order, seconds.microseconds, cpu, escaped comm, pid/tid, spec, ret + errno */
	CU_ASSERT(at(out, "1.000002 [001] a\"b\\x5cc\\x0a\\xff\\x01z/1234/1235 "
		      "fexit:do_sys_openat2 ret=-2 (ENOENT)\n") == 0);
	CU_ASSERT(at(out, "2.000000 [001] cat/1234/1235 fexit:do_sys_openat2 ret=3\n") > 0);
	CU_ASSERT(at(out, "3.000005 [000] kworker/0:1/7/8 raw_tp:sched_switch\n") > 0);
	/* oldest first, the traced function's return kept, the tracing path hidden */
	CU_ASSERT(at(out, "[#04] do_sys_openat2+0x10 -> do_filp_open+0x0\n") > 0);
	CU_ASSERT(at(out, "[#04]") < at(out, "[#03] do_filp_open+0x80 -> do_sys_openat2+0x15\n"));
	CU_ASSERT(at(out, "[#03]") < at(out, "[#02] do_sys_openat2+0x60 -> bpf_trampoline_"
					   "6442508829+0x7f [mispred] [5 cycles]\n"));
	CU_ASSERT(at(out, "[#01]") < 0);
	CU_ASSERT(at(out, "[#00]") < 0);
	CU_ASSERT(at(out, "[2 tracing-path entries trimmed, --keep-all shows them]") > 0);
	/* the stack-only record: innermost first, tracing frames hidden */
	CU_ASSERT(at(out, "[4 tracing-path frames trimmed, --keep-all shows them]") > 0);
	CU_ASSERT(at(out, "__schedule+0x3a6\n") > 0);
	CU_ASSERT(at(out, "__schedule+0x3a6") < at(out, "schedule+0x25\n"));
	CU_ASSERT(at(out, "bpf_trace_run4") < 0);
	CU_ASSERT(at(out, "[clobbered:") > at(out, "2.000000"));
	/* summary */
	CU_ASSERT(at(out, "[ lbrsnap: fexit:do_sys_openat2: ring buffer full: 5 records lost ]\n")
		  > 0);
	CU_ASSERT(at(out, "[ lbrsnap: fexit:do_sys_openat2: snapshot slot reused: 1 record kept "
		      "without branches ]\n") > 0);
	CU_ASSERT(at(out, "[ lbrsnap: raw_tp:sched_switch: program already running: 2 invocations "
		      "skipped by the kernel ]\n") > 0);
	CU_ASSERT(at(out, "[ lbrsnap: raw_tp:sched_switch: programs nested too deep on a CPU: 4 "
		      "records lost ]\n") > 0);
	CU_ASSERT(at(out, "[ lbrsnap: 3 records ]\n") > 0);
	CU_ASSERT(at(out, "LBR: not available on this machine (no PMU: perf_event_open(cycles) "
		      "failed with ENOENT); kernel stacks captured instead\n") > 0);
	free(out);
}

static void test_text_keep_all(void)
{
	char *out = render(false, true);

	CU_ASSERT(at(out, "~[#01] bpf_trampoline_6442508829+0xad -> "
		      "bpf_prog_6deef7357e7b4530_lbrsnap_fexit+0x0\n") > 0);
	CU_ASSERT(at(out, "~[#00] bpf_prog_6deef7357e7b4530_lbrsnap_fexit+0x101 -> "
		      "intel_pmu_snapshot_branch_stack+0x0\n") > 0);
	CU_ASSERT(at(out, "[#02]") < at(out, "[#01]"));
	CU_ASSERT(at(out, "[the 2 newest entries, marked ~, are the tracing path]") > 0);
	CU_ASSERT(at(out, "~bpf_trace_run4+0x95\n") > 0);
	CU_ASSERT(at(out, "trimmed, --keep-all") < 0);
	free(out);
}

static json_object *field(json_object *o, const char *key)
{
	json_object *v = NULL;

	CU_ASSERT(json_object_object_get_ex(o, key, &v));
	return v;
}

static void assert_str(json_object *o, const char *key, const char *want)
{
	json_object *v = field(o, key);

	if (!want) {
		CU_ASSERT_PTR_NULL(v);
		return;
	}
	CU_ASSERT_FATAL(json_object_is_type(v, json_type_string));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), want);
}

static void assert_int(json_object *o, const char *key, long long want)
{
	json_object *v = field(o, key);

	CU_ASSERT_FATAL(json_object_is_type(v, json_type_int));
	CU_ASSERT_EQUAL(json_object_get_int64(v), want);
}

static void assert_bool(json_object *o, const char *key, bool want)
{
	json_object *v = field(o, key);

	CU_ASSERT_FATAL(json_object_is_type(v, json_type_boolean));
	CU_ASSERT_EQUAL(json_object_get_boolean(v), want);
}

static void check_branch(json_object *b, const char *from_sym, const char *to_sym, bool trimmed)
{
	assert_str(b, "from_sym", from_sym);
	assert_str(b, "to_sym", to_sym);
	assert_str(b, "from_src", NULL);
	assert_bool(b, "trimmed", trimmed);
}

static void check_fexit_json(json_object *o)
{
	json_object *br, *b;
	char hex[32];

	/* a string: jq reads numbers as doubles */
	assert_str(o, "time_ns", "1000002999");
	assert_int(o, "cpu", 1);
	assert_int(o, "pid", 1234);
	assert_int(o, "tid", 1235);
	/* every byte back, \xff as U+00FF */
	assert_str(o, "comm", "a\"b\\c\n\xc3\xbf\x01z");
	assert_int(o, "ap", 0);
	assert_str(o, "attach", "fexit:do_sys_openat2");
	assert_int(o, "ret", -2);
	assert_str(o, "ret_type", "int");
	assert_str(o, "errno", "ENOENT");
	assert_int(o, "flags", LBRSNAP_EV_HAS_RET);
	assert_int(o, "lbr_ret", 5 * LBRSNAP_BRANCH_SIZE);
	assert_int(o, "seq", 41);
	assert_int(o, "trim_branches", 2);
	br = field(o, "branches");
	CU_ASSERT_FATAL(json_object_is_type(br, json_type_array));
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(br), 5);
	/* entries[0] the newest, as captured */
	check_branch(json_object_array_get_idx(br, 0),
		     "bpf_prog_6deef7357e7b4530_lbrsnap_fexit+0x101",
		     "intel_pmu_snapshot_branch_stack+0x0", true);
	check_branch(json_object_array_get_idx(br, 1), "bpf_trampoline_6442508829+0xad",
		     "bpf_prog_6deef7357e7b4530_lbrsnap_fexit+0x0", true);
	b = json_object_array_get_idx(br, 2);
	check_branch(b, "do_sys_openat2+0x60", "bpf_trampoline_6442508829+0x7f", false);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)sym_addr("do_sys_openat2") + 0x60);
	assert_str(b, "from", hex);
	snprintf(hex, sizeof(hex), "0x%llx",
		 (unsigned long long)sym_addr("bpf_trampoline_6442508829") + 0x7f);
	assert_str(b, "to", hex);
	assert_int(b, "flags", BR_TYPE_RET | BR_MISPRED | BR_CYCLES(5));
	assert_bool(b, "mispred", true);
	assert_bool(b, "predicted", false);
	assert_int(b, "cycles", 5);
	assert_str(b, "type", "ret");
	check_branch(json_object_array_get_idx(br, 4), "do_sys_openat2+0x10", "do_filp_open+0x0",
		     false);
	CU_ASSERT_EQUAL(json_object_array_length(field(o, "stack")), 0);
}

static void check_stack_json(json_object *o)
{
	json_object *st, *e;

	assert_str(o, "comm", "kworker/0:1");
	assert_str(o, "attach", "raw_tp:sched_switch");
	CU_ASSERT(json_object_is_type(field(o, "ret"), json_type_null));
	CU_ASSERT(json_object_is_type(field(o, "ret_type"), json_type_null));
	CU_ASSERT(json_object_is_type(field(o, "errno"), json_type_null));
	assert_int(o, "lbr_ret", -ENOENT);
	CU_ASSERT_EQUAL(json_object_array_length(field(o, "branches")), 0);
	st = field(o, "stack");
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(st), 6);
	e = json_object_array_get_idx(st, 4);
	assert_str(e, "sym", "__schedule+0x3a6");
	assert_bool(e, "trimmed", false);
	assert_bool(json_object_array_get_idx(st, 3), "trimmed", true);
	assert_str(json_object_array_get_idx(st, 1), "sym", "bpf_trace_run4+0x95");
}

static void check_summary_json(json_object *o)
{
	json_object *losses = field(o, "losses"), *l;

	CU_ASSERT_EQUAL_FATAL(json_object_array_length(losses), 2);
	l = json_object_array_get_idx(losses, 0);
	assert_str(l, "attach", "fexit:do_sys_openat2");
	assert_int(l, "ringbuf", 5);
	assert_int(l, "clobbered", 1);
	assert_int(l, "recursion", 0);
	assert_int(l, "nested", 0);
	l = json_object_array_get_idx(losses, 1);
	assert_int(l, "ap", 1);
	assert_int(l, "recursion", 2);
	assert_int(l, "nested", 4);
	assert_int(o, "records", 3);
	assert_str(o, "lbr", "no PMU: perf_event_open(cycles) failed with ENOENT");
}

static void test_json(void)
{
	char *out = render(true, false), *line, *save = NULL;
	json_object *objs[8];
	int n = 0, i;

	for (line = strtok_r(out, "\n", &save); line && n < 8; line = strtok_r(NULL, "\n", &save)) {
		json_tokener *tok = json_tokener_new();

		/* one complete object per line, nothing after it */
		objs[n] = json_tokener_parse_ex(tok, line, strlen(line));
		CU_ASSERT_EQUAL(json_tokener_get_error(tok), json_tokener_success);
		CU_ASSERT_EQUAL((size_t)json_tokener_get_parse_end(tok), strlen(line));
		json_tokener_free(tok);
		CU_ASSERT_PTR_NOT_NULL_FATAL(objs[n]);
		n++;
	}
	CU_ASSERT_EQUAL_FATAL(n, 4);
	check_fexit_json(objs[0]);
	assert_bool(objs[1], "clobbered", true);
	assert_int(objs[1], "ret", 3);
	CU_ASSERT(json_object_is_type(field(objs[1], "errno"), json_type_null));
	check_stack_json(objs[2]);
	check_summary_json(objs[3]);
	for (i = 0; i < n; i++)
		json_object_put(objs[i]);
	free(out);
}

static void test_errno_names(void)
{
	CU_ASSERT_STRING_EQUAL(lbr_errno__name(ENOENT), "ENOENT");
	CU_ASSERT_STRING_EQUAL(lbr_errno__name(EOPNOTSUPP), "EOPNOTSUPP");
	CU_ASSERT_STRING_EQUAL(lbr_errno__name(512), "ERESTARTSYS");
	CU_ASSERT_STRING_EQUAL(lbr_errno__name(524), "ENOTSUPP");
	CU_ASSERT_PTR_NULL(lbr_errno__name(520));
	CU_ASSERT_PTR_NULL(lbr_errno__name(0));
	CU_ASSERT_PTR_NULL(lbr_errno__name(4000));
}

/* the whole file as a string, "" when missing */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	if (!f || getdelim(&buf, &len, 0, f) < 0) {
		free(buf);
		buf = strdup("");
	}
	if (f)
		fclose(f);
	return buf;
}

/* Runs cmd_report in a child with stdout and stderr in files; returns the exit status. */
static int run_report(const char *const *args, int nr, char **out, char **err)
{
	char out_path[96], err_path[96], *argv[8];
	int status, i;
	pid_t pid;

	snprintf(out_path, sizeof(out_path), "%s/stdout", dir);
	snprintf(err_path, sizeof(err_path), "%s/stderr", dir);
	argv[0] = "report";
	for (i = 0; i < nr; i++)
		argv[i + 1] = (char *)args[i];
	argv[nr + 1] = NULL;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		if (!freopen(out_path, "w", stdout) || !freopen(err_path, "w", stderr))
			_exit(99);
		status = cmd_report(nr + 1, argv);
		fflush(NULL);
		_exit(status);
	}
	waitpid(pid, &status, 0);
	*out = slurp(out_path);
	*err = slurp(err_path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_command(void)
{
	char missing[96], corrupt[96], *out, *err;
	const char *args[4];
	FILE *f;

	args[0] = "-i";
	args[1] = capture;
	args[2] = "--json";
	CU_ASSERT_EQUAL(run_report(args, 3, &out, &err), 0);
	CU_ASSERT(at(out, "{\"time_ns\":\"1000002999\",") == 0);
	CU_ASSERT(at(out, "{\"losses\":[") > 0);
	/* said once, on stderr: the capture's kernel has no debug info here */
	CU_ASSERT(at(err, "no kernel debug info for 0.0.0-lbrsnap-test") >= 0);
	free(out);
	free(err);

	snprintf(missing, sizeof(missing), "%s/no-such.data", dir);
	args[1] = missing;
	CU_ASSERT_EQUAL(run_report(args, 2, &out, &err), 1);
	CU_ASSERT(at(err, missing) >= 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	free(out);
	free(err);

	snprintf(corrupt, sizeof(corrupt), "%s/corrupt.data", dir);
	f = fopen(corrupt, "w");
	fputs("LBRSNAP1 but not really a capture file", f);
	fclose(f);
	args[1] = corrupt;
	CU_ASSERT_EQUAL(run_report(args, 2, &out, &err), 1);
	CU_ASSERT(at(err, corrupt) >= 0);
	free(out);
	free(err);

	args[1] = capture;
	args[2] = "--vmlinux";
	args[3] = missing;
	CU_ASSERT_EQUAL(run_report(args, 4, &out, &err), 1);
	CU_ASSERT(at(err, missing) >= 0);
	free(out);
	free(err);

	args[0] = "--bogus";
	CU_ASSERT_EQUAL(run_report(args, 1, &out, &err), 2);
	CU_ASSERT(at(err, "usage: lbrsnap report") >= 0);
	free(out);
	free(err);
}

/*
 * The capture as an older version wrote it: ATTACH sections without their argument types
 * (struct lbrfile_attach_args and the names after the return type, none here: the records
 * have no arguments), the header's version set. Returns the file's path.
 */
static void write_old_version(__u32 version, char *path, size_t path_len)
{
	char *data, *old;
	size_t len, off, olen;
	FILE *f;

	f = fopen(capture, "r");
	CU_ASSERT_FATAL(f != NULL);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	data = malloc(len);
	old = malloc(len);
	CU_ASSERT_FATAL(data && old && fread(data, 1, len, f) == len);
	fclose(f);
	memcpy(data + offsetof(struct lbrfile_header, version), &version, sizeof(version));
	off = olen = sizeof(struct lbrfile_header);
	memcpy(old, data, off);
	while (off + sizeof(struct lbrfile_section) <= len) {
		struct lbrfile_section sec;
		const char *p = data + off + sizeof(sec);
		size_t head = 0, skip = 0, size;

		memcpy(&sec, data + off, sizeof(sec));
		size = sec.size;
		if (sec.type == LBRFILE_SEC_ATTACH) {
			head = sizeof(struct lbrfile_attach);
			skip = sizeof(struct lbrfile_attach_args);
		}
		sec.size -= skip;
		memset(old + olen, 0, sizeof(sec) + ((sec.size + 7) & ~7ULL));
		memcpy(old + olen, &sec, sizeof(sec));
		memcpy(old + olen + sizeof(sec), p, head);
		memcpy(old + olen + sizeof(sec) + head, p + head + skip, size - head - skip);
		olen += sizeof(sec) + ((sec.size + 7) & ~7ULL);
		off += sizeof(sec) + ((size + 7) & ~7ULL);
	}
	snprintf(path, path_len, "%s/v%u.data", dir, version);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f && fwrite(old, 1, olen, f) == olen);
	fclose(f);
	free(data);
	free(old);
}

/* A version-2 file (before arguments) reads as it did: the same records and values. */
static void test_version2(void)
{
	char path[96], *out, *now;

	write_old_version(2, path, sizeof(path));
	out = render_file(path, true, false);
	now = render_file(capture, true, false);
	CU_ASSERT_STRING_EQUAL(out, now);
	free(out);
	free(now);
}

/*
 * A version-1 file, whose ATTACH sections are read without their return type. Return
 * values read as signed longs.
 */
static void test_version1(void)
{
	char path[96], *out;

	write_old_version(1, path, sizeof(path));
	out = render_file(path, false, false);
	CU_ASSERT(at(out, "fexit:do_sys_openat2 ret=-2 (ENOENT)\n") > 0);
	free(out);
	out = render_file(path, true, false);
	CU_ASSERT(at(out, "\"ret\":-2,\"ret_type\":\"long\",\"errno\":\"ENOENT\"") > 0);
	CU_ASSERT(at(out, "\"ret\":3,\"ret_type\":\"long\",\"errno\":null") > 0);
	free(out);
}

/*
 * Grouping: 22 records in 6 groups. fexit records share a path when their untrimmed
 * branches match by symbol+offset, whatever their tracing path and branch flags; raw_tp
 * records when their untrimmed stacks match.
 *
 *   A  12  fexit ret=-2, path P1        (written newest first: the example is the oldest)
 *   C   3  fexit ret=0,  path P1        (ties with B, first seen earlier)
 *   B   3  fexit ret=-2, path P2        (do_filp_open+0x90 instead of +0x80)
 *   D   2  raw_tp, stack S1             (tracing frames differ)
 *   E   1  raw_tp, stack S2             (schedule+0x30)
 *   F   1  raw_tp, stack S3             (__schedule+0x400)
 */
static void group_branches(struct rec_buf *r, __u64 filp_off, unsigned int i)
{
	r->ev.flags = LBRSNAP_EV_HAS_RET;
	r->ev.nr_branches = 5;
	r->ev.lbr_ret = 5 * LBRSNAP_BRANCH_SIZE;
	r->br[4] = (struct lbrsnap_branch){ sym_addr("do_sys_openat2") + 0x10,
					    sym_addr("do_filp_open") };
	r->br[3] = (struct lbrsnap_branch){ sym_addr("do_filp_open") + filp_off,
					    sym_addr("do_sys_openat2") + 0x15, BR_TYPE_RET };
	/* flags are not part of the path */
	r->br[2] = (struct lbrsnap_branch){ sym_addr("do_sys_openat2") + 0x60,
					    sym_addr("bpf_trampoline_6442508829") + 0x7f,
					    BR_TYPE_RET | (i & 1 ? BR_MISPRED | BR_CYCLES(i) : 0) };
	/* nor is the tracing path */
	r->br[1] = (struct lbrsnap_branch){ sym_addr("bpf_trampoline_6442508829") + 0xad + i,
					    sym_addr("bpf_prog_6deef7357e7b4530_lbrsnap_fexit") };
	r->br[0] = (struct lbrsnap_branch){ sym_addr("bpf_prog_6deef7357e7b4530_lbrsnap_fexit") +
					    0x101, sym_addr("intel_pmu_snapshot_branch_stack") };
}

static void group_stack(struct rec_buf *r, __u64 prog_off, __u64 sched_off, __u64 schedule_off)
{
	r->ev.lbr_ret = -ENOENT;
	r->ev.nr_stack = 6;
	r->stack[0] = sym_addr("bpf_prog_1122334455667788_lbrsnap_raw_tp") + prog_off;
	r->stack[1] = sym_addr("bpf_trace_run4") + 0x95;
	r->stack[2] = sym_addr("__bpf_trace_sched_switch") + 0x15;
	r->stack[3] = sym_addr("__traceiter_sched_switch") + 0x43;
	r->stack[4] = sym_addr("__schedule") + sched_off;
	r->stack[5] = sym_addr("schedule") + schedule_off;
}

/* The grouping capture with the kernel loaded at shift; kallsyms_text is remade for it. */
static int write_group_capture(const char *path, __u64 shift)
{
	struct lbrfile_writer *w;
	struct rec_buf r;
	int i, err;

	kaslr = shift;
	free(kallsyms_text);
	make_kallsyms();
	err = lbrfile_writer__create(path, &w);
	if (err)
		goto out;
	lbrfile_writer__meta(w, "release", "0.0.0-lbrsnap-test");
	lbrfile_writer__attach(w, &fexit);
	lbrfile_writer__attach(w, &rawtp);
	rec_init(&r, 5000000000ull, 1, 0, 9, "kworker/1:1");
	group_stack(&r, 0x60, 0x400, 0x25);
	lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));
	for (i = 11; i >= 0; i--) {
		rec_init(&r, 1000000000ull + i * 1000000ull, 0, 1, 100 + i, "cat");
		group_branches(&r, 0x80, i);
		r.ev.ret = -2;
		r.ev.seq = i;
		lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));
	}
	for (i = 0; i < 3; i++) {
		rec_init(&r, 2000000000ull + i * 1000000ull, 0, 0, 300, "touch");
		group_branches(&r, 0x90, i);
		r.ev.ret = -2;
		lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));
		rec_init(&r, 1500000000ull + i * 1000000ull, 0, 0, 200, "ls");
		group_branches(&r, 0x80, i);
		lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));
	}
	for (i = 0; i < 2; i++) {
		rec_init(&r, 3000000000ull + i, 1, i, 7, "kworker/0:1");
		group_stack(&r, 0x60 + 4 * i, 0x3a6, 0x25);
		lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));
	}
	rec_init(&r, 4000000000ull, 1, 1, 8, "kworker/1:0");
	group_stack(&r, 0x60, 0x3a6, 0x30);
	lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));
	lbrfile_writer__kallsyms(w, kallsyms_text, kallsyms_len);
	err = lbrfile_writer__close(w);
out:
	kaslr = 0;
	free(kallsyms_text);
	make_kallsyms();
	return err;
}

static char group_capture[96], group_moved[96];

static int group_init(void)
{
	snprintf(group_capture, sizeof(group_capture), "%s/group.data", dir);
	snprintf(group_moved, sizeof(group_moved), "%s/group-moved.data", dir);
	if (write_group_capture(group_capture, 0))
		return -1;
	/* the same records from a kernel loaded 2 MiB higher */
	return write_group_capture(group_moved, 0x200000ull);
}

/* Groups, counts, examples and order straight from report__group(). */
static void test_group_table(void)
{
	static const __u64 counts[] = { 12, 3, 3, 2, 1, 1 };
	static const char *const comms[] = { "cat", "ls", "touch", "kworker/0:1",
					     "kworker/1:0", "kworker/1:1" };
	struct group_table t = {};
	struct lbrfile *f = NULL;
	struct ksyms *ks = NULL;
	struct report r = {};
	const char *text;
	size_t i, klen;

	CU_ASSERT_EQUAL_FATAL(lbrfile__open(group_capture, &f), 0);
	text = lbrfile__kallsyms(f, &klen);
	CU_ASSERT_EQUAL_FATAL(ksyms__parse(text, klen, &ks), 0);
	r.file = f;
	r.ks = ks;
	CU_ASSERT_EQUAL_FATAL(report__group(&r, &t), 0);
	CU_ASSERT_EQUAL(t.total, 22);
	CU_ASSERT_EQUAL(r.nr_records, 22);
	CU_ASSERT_EQUAL(r.nr_groups, 6);
	CU_ASSERT_EQUAL_FATAL(t.nr, 6);
	for (i = 0; i < t.nr; i++) {
		CU_ASSERT_EQUAL(t.groups[i].count, counts[i]);
		CU_ASSERT_STRING_EQUAL(t.groups[i].example.ev->comm, comms[i]);
	}
	/* the oldest record of A, though written last */
	CU_ASSERT_EQUAL(t.groups[0].example.ev->time_ns, 1000000000ull);
	CU_ASSERT_EQUAL(t.groups[0].example.ev->seq, 0);
	group_table__free(&t);

	/* --keep-all: the tracing path is part of the key, every A and D record differs */
	r.keep_all = true;
	CU_ASSERT_EQUAL_FATAL(report__group(&r, &t), 0);
	CU_ASSERT_EQUAL(t.nr, 12 + 3 + 3 + 2 + 1 + 1);
	group_table__free(&t);
	ksyms__free(ks);
	lbrfile__close(f);
}

/* Many keys: the table grows past its first slots and finds every group again. */
static void test_group_grow(void)
{
	struct lbrsnap_event ev = {};
	struct lbr_record rec = { .ev = &ev };
	struct group_table t = {};
	struct group_key k = {};
	__u64 i, n = 5000;
	int err = 0;

	for (i = 0; i < 2 * n && !err; i++) {
		group_key__reset(&k);
		group_key__add_str(&k, 'n', "do_sys_openat2");
		group_key__add_u64(&k, 'o', i % n);
		err = group_table__add(&t, &k, &rec);
	}
	/* fields are length-prefixed: the same bytes split differently are another key */
	group_key__reset(&k);
	group_key__add_str(&k, 'n', "do_sys_opena");
	group_key__add_str(&k, 'n', "t2");
	CU_ASSERT_EQUAL(group_table__add(&t, &k, &rec), 0);
	group_key__reset(&k);
	group_key__add_str(&k, 'n', "do_sys_openat");
	group_key__add_str(&k, 'n', "2");
	CU_ASSERT_EQUAL(group_table__add(&t, &k, &rec), 0);
	CU_ASSERT_EQUAL(err, 0);
	CU_ASSERT_EQUAL(t.total, 2 * n + 2);
	CU_ASSERT_EQUAL_FATAL(t.nr, n + 2);
	group_table__sort(&t);
	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL(t.groups[i].count, 2);
	CU_ASSERT_EQUAL(t.groups[n].count, 1);
	CU_ASSERT_EQUAL(t.groups[n + 1].count, 1);
	/* equal counts: first seen first */
	CU_ASSERT_EQUAL(t.groups[0].first, 0);
	CU_ASSERT_EQUAL(t.groups[n - 1].first, n - 1);
	group_key__free(&k);
	group_table__free(&t);
}

static void test_group_text(void)
{
	char *out = render_opts(group_capture, false, false, true, false), *moved;
	const char *want =
		"  54.55%  12 records  fexit:do_sys_openat2 ret=-2 (ENOENT)\n"
		"     [#04] do_sys_openat2+0x10 -> do_filp_open+0x0\n"
		"     [#03] do_filp_open+0x80 -> do_sys_openat2+0x15\n"
		"     [#02] do_sys_openat2+0x60 -> bpf_trampoline_6442508829+0x7f\n"
		"    first: 1.000000 [001] cat/100/101\n"
		"\n"
		"  13.64%   3 records  fexit:do_sys_openat2 ret=0\n"
		"     [#04] do_sys_openat2+0x10 -> do_filp_open+0x0\n"
		"     [#03] do_filp_open+0x80 -> do_sys_openat2+0x15\n"
		"     [#02] do_sys_openat2+0x60 -> bpf_trampoline_6442508829+0x7f\n"
		"    first: 1.500000 [000] ls/200/201\n"
		"\n"
		"  13.64%   3 records  fexit:do_sys_openat2 ret=-2 (ENOENT)\n"
		"     [#04] do_sys_openat2+0x10 -> do_filp_open+0x0\n"
		"     [#03] do_filp_open+0x90 -> do_sys_openat2+0x15\n"
		"     [#02] do_sys_openat2+0x60 -> bpf_trampoline_6442508829+0x7f\n"
		"    first: 2.000000 [000] touch/300/301\n"
		"\n"
		"   9.09%   2 records  raw_tp:sched_switch\n"
		"    kernel stack, innermost first:\n"
		"      __schedule+0x3a6\n"
		"      schedule+0x25\n"
		"    first: 3.000000 [000] kworker/0:1/7/8\n"
		"\n"
		"   4.55%   1 record   raw_tp:sched_switch\n"
		"    kernel stack, innermost first:\n"
		"      __schedule+0x3a6\n"
		"      schedule+0x30\n"
		"    first: 4.000000 [001] kworker/1:0/8/9\n"
		"\n"
		"   4.55%   1 record   raw_tp:sched_switch\n"
		"    kernel stack, innermost first:\n"
		"      __schedule+0x400\n"
		"      schedule+0x25\n"
		"    first: 5.000000 [000] kworker/1:1/9/10\n"
		"\n"
		"[ lbrsnap: 22 records in 6 groups, none lost ]\n";

	CU_ASSERT_STRING_EQUAL(out, want);
	/* by symbol+offset: the same paths from a kernel loaded elsewhere read the same */
	moved = render_opts(group_moved, false, false, true, false);
	CU_ASSERT_STRING_EQUAL(moved, want);
	free(moved);
	free(out);
}

/* the summary before the records: past 20 records, the 5 largest groups */
static void test_group_top(void)
{
	char *out = render_opts(group_capture, false, false, false, true);

	CU_ASSERT(at(out, "[ lbrsnap: 22 records in 6 groups of identical paths, the largest ]\n"
		      "  54.55%  12 records  fexit:do_sys_openat2 ret=-2 (ENOENT)\n"
		      "  13.64%   3 records  fexit:do_sys_openat2 ret=0\n"
		      "  13.64%   3 records  fexit:do_sys_openat2 ret=-2 (ENOENT)\n"
		      "   9.09%   2 records  raw_tp:sched_switch\n"
		      "   4.55%   1 record   raw_tp:sched_switch\n"
		      "    ... 1 more group, 1 record\n"
		      "[ lbrsnap: --group shows each group's path once, --no-summary hides this ]\n"
		      "\n"
		      "1.000000 [001] cat/100/101 fexit:do_sys_openat2 ret=-2 (ENOENT)\n") == 0);
	/* counted once */
	CU_ASSERT(at(out, "[ lbrsnap: 22 records, none lost ]\n") > 0);
	free(out);
	/* off, and not for a capture of 20 records or fewer */
	out = render_opts(group_capture, false, false, false, false);
	CU_ASSERT(at(out, "1.000000 [001] cat/100/101 ") == 0);
	free(out);
	out = render_opts(capture, false, false, false, true);
	CU_ASSERT(at(out, "1.000002 [001] ") == 0);
	free(out);
	/* JSON only changes with --group */
	out = render_opts(group_capture, true, false, false, true);
	CU_ASSERT(at(out, "{\"time_ns\":\"1000000000\",") == 0);
	free(out);
}

static json_object *parse_line(const char *line)
{
	json_tokener *tok = json_tokener_new();
	json_object *o = json_tokener_parse_ex(tok, line, strlen(line));

	CU_ASSERT_EQUAL(json_tokener_get_error(tok), json_tokener_success);
	CU_ASSERT_EQUAL((size_t)json_tokener_get_parse_end(tok), strlen(line));
	json_tokener_free(tok);
	return o;
}

static void assert_double(json_object *o, const char *key, double want)
{
	json_object *v = field(o, key);

	CU_ASSERT_FATAL(json_object_is_type(v, json_type_double));
	CU_ASSERT_DOUBLE_EQUAL(json_object_get_double(v), want, 1e-9);
}

static void test_group_json(void)
{
	static const long long counts[] = { 12, 3, 3, 2, 1, 1 };
	static const double percents[] = { 54.55, 13.64, 13.64, 9.09, 4.55, 4.55 };
	char *out = render_opts(group_capture, true, false, true, false);
	char *moved = render_opts(group_moved, true, false, true, false);
	char *save = NULL, *msave = NULL, *line, *mline, keys[6][17];
	json_object *o, *m, *e;
	int n, i;

	line = strtok_r(out, "\n", &save);
	mline = strtok_r(moved, "\n", &msave);
	for (n = 0; n < 6; n++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(line);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mline);
		o = parse_line(line);
		m = parse_line(mline);
		CU_ASSERT_PTR_NOT_NULL_FATAL(o);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		assert_int(o, "group", n + 1);
		assert_int(o, "count", counts[n]);
		assert_double(o, "percent", percents[n]);
		/* the key names the path in any capture of the same kernel */
		assert_str(m, "key", json_object_get_string(field(o, "key")));
		snprintf(keys[n], sizeof(keys[n]), "%s", json_object_get_string(field(o, "key")));
		CU_ASSERT_EQUAL(strlen(keys[n]), 16);
		if (n == 0) {
			assert_str(o, "attach", "fexit:do_sys_openat2");
			assert_int(o, "ret", -2);
			assert_str(o, "errno", "ENOENT");
			assert_int(o, "trim_branches", 2);
			e = field(o, "branches");
			/* the path: the untrimmed branches, newest first, no flags */
			CU_ASSERT_EQUAL_FATAL(json_object_array_length(e), 3);
			check_branch(json_object_array_get_idx(e, 0), "do_sys_openat2+0x60",
				     "bpf_trampoline_6442508829+0x7f", false);
			CU_ASSERT_FALSE(json_object_object_get_ex(json_object_array_get_idx(e, 0),
								  "mispred", NULL));
			e = field(o, "first");
			assert_str(e, "time_ns", "1000000000");
			assert_int(e, "pid", 100);
			assert_str(e, "comm", "cat");
			assert_int(e, "seq", 0);
		}
		if (n == 3) {
			assert_str(o, "attach", "raw_tp:sched_switch");
			e = field(o, "stack");
			CU_ASSERT_EQUAL_FATAL(json_object_array_length(e), 2);
			assert_str(json_object_array_get_idx(e, 0), "sym", "__schedule+0x3a6");
			assert_str(json_object_array_get_idx(e, 1), "sym", "schedule+0x25");
		}
		json_object_put(o);
		json_object_put(m);
		line = strtok_r(NULL, "\n", &save);
		mline = strtok_r(NULL, "\n", &msave);
	}
	/* different paths, different keys */
	for (n = 0; n < 6; n++) {
		for (i = n + 1; i < 6; i++)
			CU_ASSERT(strcmp(keys[n], keys[i]) != 0);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	o = parse_line(line);
	assert_int(o, "records", 22);
	assert_int(o, "groups", 6);
	json_object_put(o);
	CU_ASSERT_PTR_NULL(strtok_r(NULL, "\n", &save));
	free(out);
	free(moved);
}

/*
 * Legacy LBR cleared by a context switch: the entries older than it read 0x0 -> 0x0. They
 * are neither printed nor grouped, and the report counts them.
 */
static void test_zero_entries(void)
{
	char path[sizeof(dir) + 16];
	struct lbrfile_writer *w;
	struct rec_buf r;
	char *out;

	snprintf(path, sizeof(path), "%s/zero.data", dir);
	CU_ASSERT_EQUAL_FATAL(lbrfile_writer__create(path, &w), 0);
	lbrfile_writer__attach(w, &fexit);
	rec_init(&r, 1000000000ull, 0, 0, 1234, "cat");
	r.ev.ret = -2;
	r.ev.flags = LBRSNAP_EV_HAS_RET;
	r.ev.nr_branches = 5;
	r.ev.lbr_ret = 5 * LBRSNAP_BRANCH_SIZE;
	r.br[2] = (struct lbrsnap_branch){ sym_addr("do_sys_openat2") + 0x60,
					   sym_addr("bpf_trampoline_6442508829") + 0x7f };
	r.br[1] = (struct lbrsnap_branch){ sym_addr("bpf_trampoline_6442508829") + 0xad,
					   sym_addr("bpf_prog_6deef7357e7b4530_lbrsnap_fexit") };
	r.br[0] = (struct lbrsnap_branch){ sym_addr("bpf_prog_6deef7357e7b4530_lbrsnap_fexit") +
					   0x101, sym_addr("intel_pmu_snapshot_branch_stack") };
	lbrfile_writer__record(w, rec_bytes(&r), rec_size(&r));
	lbrfile_writer__kallsyms(w, kallsyms_text, kallsyms_len);
	CU_ASSERT_EQUAL_FATAL(lbrfile_writer__close(w), 0);

	out = render_file(path, false, true);
	CU_ASSERT(at(out, "[#02] do_sys_openat2+0x60 -> bpf_trampoline_6442508829+0x7f\n") > 0);
	CU_ASSERT(at(out, "[#03]") < 0);
	CU_ASSERT(at(out, "0x0 ") < 0);
	CU_ASSERT(at(out, "    [2 zero entries left out: LBR was cleared at a context switch]\n")
		  > 0);
	free(out);
	out = render_file(path, true, false);
	CU_ASSERT(at(out, "\"zero_branches\":2") > 0);
	CU_ASSERT(at(out, "\"from\":\"0x0\"") < 0);
	free(out);
	out = render_opts(path, false, false, true, false);
	CU_ASSERT(at(out, "do_sys_openat2+0x60") > 0);
	CU_ASSERT(at(out, "[#03]") < 0);
	free(out);
}

static CU_TestInfo report_tests[] = {
	{ "zero_entries", test_zero_entries },
	{ "text", test_text },
	{ "text_keep_all", test_text_keep_all },
	{ "json", test_json },
	{ "errno_names", test_errno_names },
	{ "version1", test_version1 },
	{ "version2", test_version2 },
	{ "command", test_command },
	{ "group_table", test_group_table },
	{ "group_grow", test_group_grow },
	{ "group_text", test_group_text },
	{ "group_top", test_group_top },
	{ "group_json", test_group_json },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "report", suite_init, suite_clean, NULL, NULL, report_tests },
	CU_SUITE_INFO_NULL,
};
