// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Values typed right (issue 20, items 1, 3, 10): a returned char * is a pointer and the
 * writer refuses a string return as the reader does; a struct returned in memory, from DWARF
 * (this program's own, built -g) and from BTF (built here: the kprobe path); USDT sites that
 * type an argument differently (this program's own SDT notes); every type the running
 * kernel's syscall formats name is in the syscall type table.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sdt.h>
#include <bpf/btf.h>
#include "unit.h"
#include "capture/btf-types.h"
#include "capture/dwarf-types.h"
#include "capture/usdt-notes.h"
#include "lbrfile/arg-value.h"
#include "lbrfile/lbrfile.h"

struct unit_big {
	long a, b, c;
};

struct unit_pair {
	long a, b;
};

static char self[PATH_MAX];
static char tmpdir[] = "/tmp/lbrsnap-unit-values.XXXXXX";
static char unit_name[] = "unit";
volatile long unit_sink;

__attribute__((noipa, used)) char *unit_str_ret(int i)
{
	return unit_name + (i & 3);
}

__attribute__((noipa, used)) struct unit_big unit_mk_big(long a, int b, long c, long d,
							 long e, long f)
{
	return (struct unit_big){ .a = a + b, .b = c + d, .c = e + f };
}

__attribute__((noipa, used)) struct unit_pair unit_mk_pair(long a, long b)
{
	return (struct unit_pair){ .a = a, .b = b };
}

/* Never called: its SDT notes are what the tests read */
__attribute__((noipa, used)) void unit_sites(int i, long l, unsigned char u, unsigned long big)
{
	STAP_PROBE2(unitv, mixed, i, l);
	STAP_PROBE2(unitv, mixed, l, l);
	STAP_PROBE2(unitv, mixed, u, i);
	STAP_PROBE2(unitv, clash, i, big);
	STAP_PROBE2(unitv, clash, big, i);
	STAP_PROBE1(unitv, short, i);
	STAP_PROBE2(unitv, short, i, i);
}

static int suite_init(void)
{
	return unit_self__init(self, sizeof(self), tmpdir);
}

static int suite_clean(void)
{
	return unit_tmpdir__remove(tmpdir);
}

static void test_dwarf_char_ptr_return(void)
{
	struct dwarf_func f;

	CU_ASSERT_EQUAL_FATAL(dwarf_types__func(self, "unit_str_ret", 0, &f), 0);
	CU_ASSERT(f.has_ret);
	CU_ASSERT_EQUAL(f.ret.kind, LBRSNAP_RET_POINTER);
	CU_ASSERT_EQUAL(f.ret.size, 8);
	CU_ASSERT_STRING_EQUAL(f.ret.type, "char *");
	CU_ASSERT_FALSE(f.ret_in_memory);
	dwarf_func__free(&f);
}

/* The writer refuses a string return (kind 5) as the reader does: one check for both */
static void test_writer_refuses_string_return(void)
{
	struct lbr_attach_point ap = {
		.id = 0, .kind = LBRSNAP_KIND_URETPROBE, .flags = LBRFILE_AP_HAS_RET,
		.ret_kind = LBRSNAP_ARG_STRING, .ret_size = 8, .spec = "uretprobe:/x:f",
		.target = "f", .ret_type = "char *",
	};
	struct lbrfile_attach a = { .ret_kind = LBRSNAP_ARG_STRING, .ret_size = 8 };
	struct lbrfile_attach_args aa = { .nr_args = 1, .kind = { LBRSNAP_ARG_STRING } };
	const struct lbr_attach_point *got;
	struct lbrfile_writer *w;
	struct lbrfile *rf;
	char path[PATH_MAX];

	CU_ASSERT_EQUAL(lbr_attach__check(LBRFILE_VERSION, &a, &aa), -EINVAL);
	a.ret_kind = LBRSNAP_RET_POINTER;
	CU_ASSERT_EQUAL(lbr_attach__check(LBRFILE_VERSION, &a, &aa), 0);
	a.ret_size = 3;
	CU_ASSERT_EQUAL(lbr_attach__check(LBRFILE_VERSION, &a, &aa), -EINVAL);
	a.ret_size = 8;
	aa.kind[0] = LBRSNAP_ARG_STRING + 1;
	CU_ASSERT_EQUAL(lbr_attach__check(LBRFILE_VERSION, &a, &aa), -EINVAL);
	aa.nr_args = LBRSNAP_MAX_ARGS + 1;
	aa.kind[0] = 0;
	CU_ASSERT_EQUAL(lbr_attach__check(LBRFILE_VERSION, &a, &aa), -EINVAL);

	snprintf(path, sizeof(path), "%s/ret.data", tmpdir);
	CU_ASSERT_EQUAL_FATAL(lbrfile_writer__create(path, &w), 0);
	CU_ASSERT_EQUAL(lbrfile_writer__attach(w, &ap), -EINVAL);
	ap.ret_kind = LBRSNAP_RET_POINTER;
	CU_ASSERT_EQUAL(lbrfile_writer__attach(w, &ap), 0);
	CU_ASSERT_EQUAL_FATAL(lbrfile_writer__close(w), 0);
	/* what was written reads back: the refused section left nothing behind */
	CU_ASSERT_EQUAL_FATAL(lbrfile__open(path, &rf), 0);
	CU_ASSERT_EQUAL(lbrfile__nr_attach(rf), 1);
	got = lbrfile__attach(rf, 0);
	CU_ASSERT_FATAL(got != NULL);
	CU_ASSERT_EQUAL(got->ret_kind, LBRSNAP_RET_POINTER);
	CU_ASSERT_STRING_EQUAL(got->ret_type, "char *");
	lbrfile__close(rf);
}

static void test_dwarf_struct_in_memory(void)
{
	struct dwarf_func f;

	CU_ASSERT_EQUAL_FATAL(dwarf_types__func(self, "unit_mk_big", 0, &f), 0);
	CU_ASSERT(f.ret_in_memory);
	/* the struct is no value in a register: no return value */
	CU_ASSERT_FALSE(f.has_ret);
	/* rdi holds the result's address: five argument registers are left */
	CU_ASSERT_EQUAL_FATAL(f.nr_args, 5);
	CU_ASSERT_STRING_EQUAL(f.args[0].name, "a");
	CU_ASSERT_STRING_EQUAL(f.args[1].name, "b");
	CU_ASSERT_EQUAL(f.args[1].kind, LBRSNAP_RET_SIGNED);
	CU_ASSERT_EQUAL(f.args[1].size, 4);
	CU_ASSERT_STRING_EQUAL(f.args[4].name, "e");
	dwarf_func__free(&f);
	/* 16 bytes come back in rax:rdx: the arguments start at rdi */
	CU_ASSERT_EQUAL_FATAL(dwarf_types__func(self, "unit_mk_pair", 0, &f), 0);
	CU_ASSERT_FALSE(f.ret_in_memory);
	CU_ASSERT_EQUAL(f.nr_args, 2);
	dwarf_func__free(&f);
}

/* A prototype returning ret_id with two long parameters a and b */
static const struct btf_type *proto_of(struct btf *btf, int ret_id, int long_id)
{
	int id = btf__add_func_proto(btf, ret_id);

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_FATAL(!btf__add_func_param(btf, "a", long_id));
	CU_ASSERT_FATAL(!btf__add_func_param(btf, "b", long_id));
	return btf__type_by_id(btf, id);
}

static void free_args(struct attach_arg *args, __u32 nr)
{
	__u32 i;

	for (i = 0; i < nr; i++) {
		free(args[i].name);
		free(args[i].type);
		free(args[i].enums);
	}
}

/*
 * The kprobe (BTF) classification, on BTF built here: kernels do have such functions
 * (6.1: 6 of 44546, build_open_how's struct open_how is 24 bytes; 6.12: 24 of 49766; 7.2:
 * 3 of 54616), but kprobes attach in the guests only.
 */
static void test_btf_struct_in_memory(void)
{
	struct attach_arg args[LBRSNAP_MAX_ARGS] = {};
	const struct btf_type *p;
	struct btf *btf = btf__new_empty();
	int long_id, big, pair, tdef;
	__u32 nr = 0;

	CU_ASSERT_FATAL(btf != NULL);
	long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	big = btf__add_struct(btf, "big", 24);
	CU_ASSERT_FATAL(!btf__add_field(btf, "a", long_id, 0, 0));
	CU_ASSERT_FATAL(!btf__add_field(btf, "b", long_id, 64, 0));
	CU_ASSERT_FATAL(!btf__add_field(btf, "c", long_id, 128, 0));
	pair = btf__add_struct(btf, "pair", 16);
	CU_ASSERT_FATAL(!btf__add_field(btf, "a", long_id, 0, 0));
	CU_ASSERT_FATAL(!btf__add_field(btf, "b", long_id, 64, 0));
	tdef = btf__add_typedef(btf, "big_t", big);
	CU_ASSERT_FATAL(long_id > 0 && big > 0 && pair > 0 && tdef > 0);

	p = proto_of(btf, big, long_id);
	CU_ASSERT(btf_types__ret_in_memory(btf, p));
	/* a kprobe reads from rdi on: it records none */
	CU_ASSERT_EQUAL(btf_types__args(btf, p, 0, BTF_ARGS_REGS, args, &nr), 0);
	CU_ASSERT_EQUAL(nr, 0);
	/* fexit's context holds the arguments themselves */
	CU_ASSERT_EQUAL(btf_types__args(btf, p, 0, BTF_ARGS_CTX, args, &nr), 0);
	CU_ASSERT_EQUAL(nr, 2);
	free_args(args, nr);
	nr = 0;
	p = proto_of(btf, tdef, long_id);
	CU_ASSERT(btf_types__ret_in_memory(btf, p));
	p = proto_of(btf, pair, long_id);
	CU_ASSERT_FALSE(btf_types__ret_in_memory(btf, p));
	CU_ASSERT_EQUAL(btf_types__args(btf, p, 0, BTF_ARGS_REGS, args, &nr), 0);
	CU_ASSERT_EQUAL_FATAL(nr, 2);
	CU_ASSERT_STRING_EQUAL(args[0].name, "a");
	free_args(args, nr);
	nr = 0;
	p = proto_of(btf, long_id, long_id);
	CU_ASSERT_FALSE(btf_types__ret_in_memory(btf, p));
	p = proto_of(btf, 0, long_id);
	CU_ASSERT_FALSE(btf_types__ret_in_memory(btf, p));
	btf__free(btf);
}

static void test_usdt_sites(void)
{
	struct usdt_probe p;
	char err[512];

	/* (int, long), (long, long), (unsigned char, int): arg0 int64_t, arg1 int64_t */
	CU_ASSERT_EQUAL_FATAL(usdt_notes__find(self, "unitv", "mixed", &p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.nr_sites, 3);
	CU_ASSERT_EQUAL_FATAL(p.nr_args, 2);
	CU_ASSERT_EQUAL(p.args[0].size, 8);
	CU_ASSERT(p.args[0].is_signed);
	CU_ASSERT_EQUAL(p.args[1].size, 8);
	CU_ASSERT(p.args[1].is_signed);
	CU_ASSERT_EQUAL(p.clash, -1);
	/* (int, unsigned long), (unsigned long, int): no type holds arg0 */
	CU_ASSERT_EQUAL_FATAL(usdt_notes__find(self, "unitv", "clash", &p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.nr_sites, 2);
	CU_ASSERT_EQUAL(p.nr_args, 0);
	CU_ASSERT_EQUAL(p.clash, 0);
	/* one site has one argument, the other two: the one every site has */
	CU_ASSERT_EQUAL_FATAL(usdt_notes__find(self, "unitv", "short", &p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.nr_args, 1);
	CU_ASSERT_EQUAL(p.args[0].size, 4);
	CU_ASSERT(p.args[0].is_signed);
}

static void test_sys_types_table(void)
{
	static const struct {
		const char *type;
		__u8 kind, size;
	} want[] = {
		{ "unsigned", LBRSNAP_RET_UNSIGNED, 4 },
		{ "clockid_t", LBRSNAP_RET_SIGNED, 4 },
		{ "const clockid_t", LBRSNAP_RET_SIGNED, 4 },
		{ "key_t", LBRSNAP_RET_SIGNED, 4 },
		{ "const __u32", LBRSNAP_RET_UNSIGNED, 4 },
		{ "const int", LBRSNAP_RET_SIGNED, 4 },
		{ "const size_t", LBRSNAP_RET_UNSIGNED, 8 },
		{ "__s32", LBRSNAP_RET_SIGNED, 4 },
		{ "const enum landlock_rule_type", LBRSNAP_RET_UNSIGNED, 4 },
		{ "cap_user_header_t", LBRSNAP_RET_POINTER, 8 },
		{ "const cap_user_data_t", LBRSNAP_RET_POINTER, 8 },
		{ "const char __user *", LBRSNAP_RET_POINTER, 8 },
		{ "const char *", LBRSNAP_ARG_STRING, 8 },
		{ "umode_t", LBRSNAP_RET_UNSIGNED, 2 },
	};
	__u8 kind, size;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CU_ASSERT(lbr_arg__sys_type(want[i].type, &kind, &size));
		CU_ASSERT_EQUAL(kind, want[i].kind);
		CU_ASSERT_EQUAL(size, want[i].size);
		if (kind != want[i].kind || size != want[i].size)
			printf("# %s: kind %u size %u\n", want[i].type, kind, size);
	}
	CU_ASSERT_FALSE(lbr_arg__sys_type("struct unit_not_a_number", &kind, &size));
	CU_ASSERT_EQUAL(kind, LBRSNAP_RET_UNSIGNED);
	CU_ASSERT_EQUAL(size, 8);
}

/* The type of a format's "field:TYPE NAME;" line, into type; false for other lines */
static bool field_type(const char *line, char *type, size_t len)
{
	const char *p = strstr(line, "field:"), *semi, *name;

	if (!p)
		return false;
	p += 6;
	semi = strchr(p, ';');
	if (!semi)
		return false;
	name = semi;
	while (name > p && name[-1] != ' ' && name[-1] != '*')
		name--;
	while (name > p && name[-1] == ' ')
		name--;
	if (name <= p || (size_t)(name - p) >= len)
		return false;
	memcpy(type, p, name - p);
	type[name - p] = 0;
	return true;
}

/* Every type the running kernel's syscall formats name for an argument is in the table */
static void test_sys_types_host(void)
{
	const char *dir = "/sys/kernel/tracing/events/syscalls";
	char path[PATH_MAX], line[512], type[256];
	size_t nr_types = 0, nr_missing = 0;
	struct dirent *de;
	__u8 kind, size;
	DIR *d = opendir(dir);

	if (!d) {
		printf("skip - values/sys_types_host: %s not readable\n", dir);
		return;
	}
	while ((de = readdir(d))) {
		FILE *fp;

		if (strncmp(de->d_name, "sys_enter_", 10))
			continue;
		snprintf(path, sizeof(path), "%s/%s/format", dir, de->d_name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp)) {
			if (strstr(line, "common_") || strstr(line, "__syscall_nr") ||
			    !field_type(line, type, sizeof(type)))
				continue;
			nr_types++;
			if (!lbr_arg__sys_type(type, &kind, &size)) {
				printf("# %s: type '%s' not in the syscall type table\n",
				       de->d_name + 10, type);
				nr_missing++;
			}
		}
		fclose(fp);
	}
	closedir(d);
	if (!nr_types) {
		printf("skip - values/sys_types_host: no syscall formats in %s\n", dir);
		return;
	}
	printf("# %zu syscall arguments typed, %zu of unknown type\n", nr_types, nr_missing);
	CU_ASSERT_EQUAL(nr_missing, 0);
}

static CU_TestInfo tests[] = {
	{ "dwarf_char_ptr_return", test_dwarf_char_ptr_return },
	{ "writer_refuses_string_return", test_writer_refuses_string_return },
	{ "dwarf_struct_in_memory", test_dwarf_struct_in_memory },
	{ "btf_struct_in_memory", test_btf_struct_in_memory },
	{ "usdt_sites", test_usdt_sites },
	{ "sys_types_table", test_sys_types_table },
	{ "sys_types_host", test_sys_types_host },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "values", suite_init, suite_clean, NULL, NULL, tests },
	CU_SUITE_INFO_NULL,
};
