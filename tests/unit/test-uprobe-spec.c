// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * User probe specs against this test program's own file: its functions, its DWARF (the unit
 * tests build with -g), its SDT note; library names found through $LD_LIBRARY_PATH, where a
 * 32-bit file of the same name is passed over; USDT argument specs.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elf.h>
#include <sys/sdt.h>
#include <sys/stat.h>
#include "unit.h"
#include "capture/dwarf-types.h"
#include "view/event-fields.h"
#include "capture/uprobe-spec.h"
#include "capture/usdt-notes.h"

enum unit_color { UNIT_RED, UNIT_GREEN = 5 };

static char self[PATH_MAX];
static char tmpdir[] = "/tmp/lbrsnap-unit-uprobe.XXXXXX";

__attribute__((noipa, used)) unsigned short unit_probe_me(const char *s, long n,
							   enum unit_color c, double d, int after)
{
	STAP_PROBE2(unit, fired, (int)n, (unsigned long)c);
	return s[0] + n + c + (int)d + after;
}

static int suite_init(void)
{
	return unit_self__init(self, sizeof(self), tmpdir);
}

static int suite_clean(void)
{
	return unit_tmpdir__remove(tmpdir);
}

static void test_usdt_args(void)
{
	static const char *const bad[] = { "3@%eax", "@%eax", "x@%eax", "-4@", "%eax", "16@%rax",
					   "-4x@%eax" };
	struct usdt_arg a;
	size_t i;

	CU_ASSERT_EQUAL(usdt_arg__parse("-4@%eax", 7, &a), 0);
	CU_ASSERT(a.is_signed);
	CU_ASSERT_EQUAL(a.size, 4);
	CU_ASSERT_EQUAL(usdt_arg__parse("8@-16(%rbp)", 11, &a), 0);
	CU_ASSERT_FALSE(a.is_signed);
	CU_ASSERT_EQUAL(a.size, 8);
	CU_ASSERT_EQUAL(usdt_arg__parse("-1@$-9", 6, &a), 0);
	CU_ASSERT(a.is_signed);
	CU_ASSERT_EQUAL(a.size, 1);
	/* only len bytes count: the next spec of the note is not read */
	CU_ASSERT_EQUAL(usdt_arg__parse("2@%ax 8@%rdi", 5, &a), 0);
	CU_ASSERT_EQUAL(a.size, 2);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(usdt_arg__parse(bad[i], strlen(bad[i]), &a), -EINVAL);
}

static void test_usdt_notes(void)
{
	struct usdt_probe p;
	char err[256];

	CU_ASSERT_EQUAL(usdt_notes__find(self, "unit", "fired", &p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.nr_sites, 1);
	CU_ASSERT_EQUAL(p.nr_args, 2);
	CU_ASSERT(p.args[0].is_signed);
	CU_ASSERT_EQUAL(p.args[0].size, 4);
	CU_ASSERT_FALSE(p.args[1].is_signed);
	CU_ASSERT_EQUAL(p.args[1].size, 8);
	CU_ASSERT_EQUAL(usdt_notes__find(self, "unit", "nope", &p, err, sizeof(err)), -ENOENT);
	CU_ASSERT(strstr(err, "no USDT probe unit:nope in ") && strstr(err, "; it has unit:fired"));
}

static void test_spec(void)
{
	struct uprobe_spec u;
	char spec[PATH_MAX + 64], err[512];

	snprintf(spec, sizeof(spec), "%s:unit_probe_me+0x4", self);
	CU_ASSERT_EQUAL(uprobe_spec__parse(spec, false, false, &u, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(u.path, self);
	CU_ASSERT_STRING_EQUAL(u.func, "unit_probe_me");
	CU_ASSERT_EQUAL(u.off, 4);
	uprobe_spec__free(&u);

	snprintf(spec, sizeof(spec), "%s:unit:fired", self);
	CU_ASSERT_EQUAL(uprobe_spec__parse(spec, true, false, &u, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(u.provider, "unit");
	CU_ASSERT_STRING_EQUAL(u.name, "fired");
	uprobe_spec__free(&u);

	snprintf(spec, sizeof(spec), "%s:unit_probe_me+4", self);
	CU_ASSERT_EQUAL(uprobe_spec__parse(spec, false, true, &u, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "'+4': a return probe takes no offset");
	snprintf(spec, sizeof(spec), "%s:unit_probe_me+-1", self);
	CU_ASSERT_EQUAL(uprobe_spec__parse(spec, false, false, &u, err, sizeof(err)), -EINVAL);
	snprintf(spec, sizeof(spec), "%s:unit_probe_me+100000", self);
	CU_ASSERT_EQUAL(uprobe_spec__parse(spec, false, false, &u, err, sizeof(err)), -ERANGE);
	snprintf(spec, sizeof(spec), "%s:unit_no_such_fn", self);
	CU_ASSERT_EQUAL(uprobe_spec__parse(spec, false, false, &u, err, sizeof(err)), -ENOENT);
	CU_ASSERT_EQUAL(uprobe_spec__parse("nopath", false, false, &u, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(uprobe_spec__parse("/x:prov", true, false, &u, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_EQUAL(uprobe_spec__parse("/lbrsnap/none:f", false, false, &u, err, sizeof(err)),
			-ENOENT);
	CU_ASSERT_STRING_EQUAL(err, "no such file '/lbrsnap/none'");
}

/* A library name: the first 64-bit x86 file of that name in $LD_LIBRARY_PATH's directories */
static void test_library_path(void)
{
	char d32[PATH_MAX], d64[PATH_MAX], lib[PATH_MAX + 32], cmd[3 * PATH_MAX], *path, *real;
	Elf32_Ehdr eh = { .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS32 },
			  .e_machine = EM_386 };
	FILE *fp;

	snprintf(d32, sizeof(d32), "%s/lib32", tmpdir);
	snprintf(d64, sizeof(d64), "%s/lib64", tmpdir);
	CU_ASSERT_FATAL(!mkdir(d32, 0755) && !mkdir(d64, 0755));
	snprintf(lib, sizeof(lib), "%s/libunit.so.1", d32);
	fp = fopen(lib, "w");
	CU_ASSERT_FATAL(fp != NULL);
	fwrite(&eh, sizeof(eh), 1, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/libunit.so.1'", self, d64);
	CU_ASSERT_FATAL(!system(cmd));
	snprintf(cmd, sizeof(cmd), "%s:%s", d32, d64);
	setenv("LD_LIBRARY_PATH", cmd, 1);
	CU_ASSERT_EQUAL(uprobe_spec__resolve_path("libunit.so.1", &path), 0);
	snprintf(lib, sizeof(lib), "%s/libunit.so.1", d64);
	real = realpath(lib, NULL);
	CU_ASSERT(path && real && !strcmp(path, real));
	free(path);
	free(real);
	CU_ASSERT_EQUAL(uprobe_spec__resolve_path("libunit-none.so.1", &path), -ENOENT);
	unsetenv("LD_LIBRARY_PATH");
}

static void test_dwarf(void)
{
	char cmd[3 * PATH_MAX];
	struct dwarf_func f;

	CU_ASSERT_EQUAL_FATAL(dwarf_types__func(self, "unit_probe_me", 0, &f), 0);
	CU_ASSERT(f.has_ret);
	CU_ASSERT_EQUAL(f.ret.kind, LBRSNAP_RET_UNSIGNED);
	CU_ASSERT_EQUAL(f.ret.size, 2);
	CU_ASSERT_STRING_EQUAL(f.ret.type, "short unsigned int");
	/* the double moves no integer register, but the list ends there all the same */
	CU_ASSERT_EQUAL_FATAL(f.nr_args, 3);
	CU_ASSERT_STRING_EQUAL(f.args[0].name, "s");
	CU_ASSERT_STRING_EQUAL(f.args[0].type, "const char *");
	CU_ASSERT_EQUAL(f.args[0].kind, LBRSNAP_ARG_STRING);
	CU_ASSERT_STRING_EQUAL(f.args[1].type, "long int");
	CU_ASSERT_EQUAL(f.args[1].kind, LBRSNAP_RET_SIGNED);
	CU_ASSERT_EQUAL(f.args[1].size, 8);
	CU_ASSERT_STRING_EQUAL(f.args[2].name, "c");
	CU_ASSERT_STRING_EQUAL(f.args[2].type, "enum unit_color");
	CU_ASSERT_EQUAL(f.args[2].kind, LBRSNAP_RET_UNSIGNED);
	CU_ASSERT_EQUAL(f.args[2].size, 4);
	CU_ASSERT_STRING_EQUAL(f.args[2].enums, "UNIT_RED=0,UNIT_GREEN=5");
	dwarf_func__free(&f);
	CU_ASSERT_EQUAL(dwarf_types__func(self, "unit_no_such_fn", 0, &f), -ENOENT);
	/* the same file without its DWARF */
	snprintf(cmd, sizeof(cmd), "objcopy --strip-debug '%s' '%s/stripped'", self, tmpdir);
	CU_ASSERT_FATAL(!system(cmd));
	snprintf(cmd, sizeof(cmd), "%s/stripped", tmpdir);
	CU_ASSERT_EQUAL(dwarf_types__func(cmd, "unit_probe_me", 0, &f), -ENODATA);
}

static const char *const name_specs[] = {
	"uprobe:/tmp/x 12/y3/uprobe-load:lbrsnap_args",
	"usdt:/a:b/c/uprobe-load:lbrsnap:values",
	"uprobe:/other/dir/uprobe-load:lbrsnap_args",
	"uretprobe:prog:f+0x10",
	"fexit:do_sys_openat2",
	"uprobe:/x/abcdefghijklmnopqrstuvwxyz0123456789:f",
};

static const char *name_spec(const void *ctx, size_t i)
{
	return ((const char *const *)ctx)[i];
}

/* Trace event names of user probes: the file's base name, bounded, unique in a set. */
static void test_event_names(void)
{
	char n[256];

	event_fields__unique_name(name_spec, name_specs, 0, n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "uprobe__uprobe_load__lbrsnap_args");
	event_fields__unique_name(name_spec, name_specs, 1, n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "usdt__uprobe_load__lbrsnap__values");
	event_fields__unique_name(name_spec, name_specs, 2, n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "uprobe__uprobe_load__lbrsnap_args_2");
	event_fields__unique_name(name_spec, name_specs, 3, n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "uretprobe__prog__f_0x10");
	event_fields__unique_name(name_spec, name_specs, 4, n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "fexit__do_sys_openat2");
	event_fields__unique_name(name_spec, name_specs, 5, n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "uprobe__efghijklmnopqrstuvwxyz0123456789__f");
}

static CU_TestInfo uprobe_tests[] = {
	{ "event_names", test_event_names },
	{ "usdt_args", test_usdt_args },
	{ "usdt_notes", test_usdt_notes },
	{ "spec", test_spec },
	{ "library_path", test_library_path },
	{ "dwarf", test_dwarf },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "uprobe_spec", suite_init, suite_clean, NULL, NULL, uprobe_tests },
	CU_SUITE_INFO_NULL,
};
