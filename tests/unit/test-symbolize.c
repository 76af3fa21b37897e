// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * symbolize: kallsyms-only lookups, and the libdw path against a small program with DWARF
 * that the test compiles itself. Its symbols are handed over as kallsyms text moved by a
 * fake KASLR slide, so the relocation through _stext is exercised too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "symbols/symbolize.h"

#define SLIDE 0x3f000000ull

/* Line numbers matter: the assertions below name them. */
static const char tiny_c[] =
	"/* lbrsnap symbolize test */\n"				/* 1 */
	"static inline __attribute__((always_inline)) int leaf(int x)\n"	/* 2 */
	"{\n"								/* 3 */
	"	return x * 3 + 1;\n"					/* 4 */
	"}\n"								/* 5 */
	"\n"								/* 6 */
	"__attribute__((noinline)) int outer(int x)\n"			/* 7 */
	"{\n"								/* 8 */
	"	return leaf(x) ^ (x >> 2);\n"				/* 9 */
	"}\n"								/* 10 */
	"\n"								/* 11 */
	"void _stext(void)\n"						/* 12 */
	"{\n"								/* 13 */
	"}\n"								/* 14 */
	"\n"								/* 15 */
	"int main(int argc, char **argv)\n"				/* 16 */
	"{\n"								/* 17 */
	"	return outer(argc);\n"					/* 18 */
	"}\n";								/* 19 */

static char dir[] = "/tmp/test-symbolize-XXXXXX";
static char with_dwarf[64], without_dwarf[64];
static struct ksyms *ks;	/* tiny's symbols, slid */
static __u64 outer_addr, outer_size;

static int run(const char *cmd)
{
	int rc = system(cmd);

	return rc == 0 ? 0 : -1;
}

/* kallsyms text from `nm` of the program, every address moved by SLIDE */
static int make_kallsyms(const char *elf, struct ksyms **out)
{
	char cmd[256], line[256], name[128], *text = NULL;
	unsigned long long addr;
	size_t len = 0;
	FILE *p, *m;
	char type;
	int err;

	snprintf(cmd, sizeof(cmd), "nm -n %s", elf);
	p = popen(cmd, "r");
	if (!p)
		return -errno;
	m = open_memstream(&text, &len);
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) == 3 && strchr("tT", type))
			fprintf(m, "%016llx %c %s\n", addr + SLIDE, type, name);
	}
	pclose(p);
	fclose(m);
	err = ksyms__parse(text, len, out);
	free(text);
	return err;
}

static int suite_init(void)
{
	char cmd[512];
	FILE *f;
	const struct ksym *k;

	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/tiny.c", dir);
	f = fopen(cmd, "w");
	if (!f)
		return -1;
	fputs(tiny_c, f);
	fclose(f);
	snprintf(with_dwarf, sizeof(with_dwarf), "%s/tiny", dir);
	snprintf(without_dwarf, sizeof(without_dwarf), "%s/tiny-nodebug", dir);
	snprintf(cmd, sizeof(cmd), "cd %s && gcc -g -O2 -no-pie -fno-pie -o tiny tiny.c && "
		 "gcc -g0 -O2 -no-pie -fno-pie -o tiny-nodebug tiny.c", dir);
	if (run(cmd) || make_kallsyms(with_dwarf, &ks))
		return -1;
	k = ksyms__by_name(ks, "outer");
	if (!k)
		return -1;
	outer_addr = k->addr;
	outer_size = k->size;
	return 0;
}

static int suite_clean(void)
{
	char cmd[128];

	ksyms__free(ks);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return run(cmd);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = s ? strlen(s) : 0, m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void test_symbols_only(void)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 T do_sys_openat2\n"
		"ffffffffc0001000 t bpf_prog_6deef7357e7b4530_lbrsnap_fexit\t[bpf]\n"
		"ffffffffc1000000 t ext4_lookup\t[ext4]\n";
	struct symbolizer *s = NULL;
	struct symbolize_loc loc;
	struct ksyms *k = NULL;
	char buf[128];

	CU_ASSERT_EQUAL_FATAL(ksyms__parse(text, strlen(text), &k), 0);
	CU_ASSERT_EQUAL_FATAL(symbolizer__new(k, NULL, "0.0.0-lbrsnap-no-such-kernel", &s), 0);
	/* the reason is a sentence naming the release */
	CU_ASSERT(strstr(symbolizer__dwarf_status(s), "0.0.0-lbrsnap-no-such-kernel") != NULL);
	CU_ASSERT_PTR_NULL(symbolizer__vmlinux(s));

	CU_ASSERT_EQUAL(symbolizer__lookup(s, 0xffffffff81000123ull, &loc), 0);
	CU_ASSERT_STRING_EQUAL(symbolize__format(&loc, 0xffffffff81000123ull, buf, sizeof(buf)),
			       "do_sys_openat2+0x23");
	CU_ASSERT_EQUAL(loc.nr_frames, 0);
	symbolizer__lookup(s, 0xffffffffc0001010ull, &loc);
	CU_ASSERT_STRING_EQUAL(symbolize__format(&loc, 0xffffffffc0001010ull, buf, sizeof(buf)),
			       "bpf_prog_6deef7357e7b4530_lbrsnap_fexit+0x10");
	symbolizer__lookup(s, 0xffffffffc1000004ull, &loc);
	CU_ASSERT_STRING_EQUAL(symbolize__format(&loc, 0xffffffffc1000004ull, buf, sizeof(buf)),
			       "ext4_lookup+0x4 [ext4]");
	CU_ASSERT_EQUAL(symbolizer__lookup(s, 0x1234, &loc), -ENOENT);
	CU_ASSERT_STRING_EQUAL(symbolize__format(&loc, 0x1234, buf, sizeof(buf)), "0x1234");
	symbolizer__free(s);
	ksyms__free(k);
}

static void test_dwarf_line(void)
{
	struct symbolizer *s = NULL;
	const struct symbolize_frame *f;
	unsigned int covered = 0, own = 0;
	struct symbolize_loc loc;
	__u64 a;

	CU_ASSERT_EQUAL_FATAL(symbolizer__new(ks, with_dwarf, NULL, &s), 0);
	CU_ASSERT_PTR_NULL(symbolizer__dwarf_status(s));
	CU_ASSERT_STRING_EQUAL(symbolizer__vmlinux(s), with_dwarf);

	/* every covered address of outer is outer's code (lines 8-10) or inlined leaf's */
	for (a = outer_addr; a < outer_addr + outer_size; a++) {
		CU_ASSERT_EQUAL(symbolizer__lookup(s, a, &loc), 0);
		CU_ASSERT_STRING_EQUAL(loc.sym->name, "outer");
		if (!loc.nr_frames)
			continue;	/* alignment padding after the ret */
		covered++;
		f = &loc.frames[loc.nr_frames - 1];
		CU_ASSERT(ends_with(f->file, "tiny.c"));
		CU_ASSERT(f->line >= 8 && f->line <= 10);
		CU_ASSERT_STRING_EQUAL(f->func, "outer");
		own += loc.nr_frames == 1;
	}
	CU_ASSERT(covered > 0);
	CU_ASSERT(own > 0);

	/* main's call to outer is on line 18 */
	symbolizer__lookup(s, ksyms__by_name(ks, "main")->addr, &loc);
	CU_ASSERT_FATAL(loc.nr_frames >= 1);
	CU_ASSERT(loc.frames[loc.nr_frames - 1].line >= 17 &&
		  loc.frames[loc.nr_frames - 1].line <= 18);
	symbolizer__free(s);
}

/* leaf() is inlined into outer(): some address of outer is inside leaf, called on line 9 */
static void test_dwarf_inline(void)
{
	struct symbolizer *s = NULL;
	struct symbolize_loc loc;
	bool found = false;
	__u64 a;

	CU_ASSERT_EQUAL_FATAL(symbolizer__new(ks, with_dwarf, NULL, &s), 0);
	for (a = outer_addr; a < outer_addr + outer_size && !found; a++) {
		symbolizer__lookup(s, a, &loc);
		if (loc.nr_frames != 2)
			continue;
		found = true;
		CU_ASSERT_STRING_EQUAL(loc.frames[0].func, "leaf");
		CU_ASSERT_EQUAL(loc.frames[0].line, 4);
		CU_ASSERT(ends_with(loc.frames[0].file, "tiny.c"));
		CU_ASSERT_STRING_EQUAL(loc.frames[1].func, "outer");
		CU_ASSERT_EQUAL(loc.frames[1].line, 9);
		CU_ASSERT(ends_with(loc.frames[1].file, "tiny.c"));
	}
	CU_ASSERT(found);
	symbolizer__free(s);
}

/* Looks addr up with tiny's DWARF and this kallsyms text; checks the symbol and frames. */
static void check_lookup(const char *text, __u64 addr, const char *sym, int nr_frames)
{
	struct symbolizer *s = NULL;
	struct symbolize_loc loc;
	struct ksyms *k = NULL;

	CU_ASSERT_EQUAL_FATAL(ksyms__parse(text, strlen(text), &k), 0);
	CU_ASSERT_EQUAL_FATAL(symbolizer__new(k, with_dwarf, NULL, &s), 0);
	symbolizer__lookup(s, addr, &loc);
	CU_ASSERT_STRING_EQUAL(loc.sym->name, sym);
	CU_ASSERT_EQUAL(loc.nr_frames, nr_frames);
	symbolizer__free(s);
	ksyms__free(k);
}

/* kallsyms of another build: DWARF must not be trusted for addresses that do not match */
static void test_dwarf_mismatch(void)
{
	unsigned long long main_addr = ksyms__by_name(ks, "main")->addr;
	unsigned long long stext = ksyms__by_name(ks, "_stext")->addr;
	char text[256];

	/* right _stext, but where tiny has main this "kernel" has outer */
	snprintf(text, sizeof(text), "%016llx T _stext\n%016llx T outer\n%016llx T after\n",
		 stext, main_addr, main_addr + 0x10);
	check_lookup(text, main_addr, "outer", 0);
	/* the real symbol there under another name that kallsyms also has: an alias */
	snprintf(text, sizeof(text), "%016llx T _stext\n%016llx T main_alias\n%016llx T main\n",
		 stext, main_addr, main_addr);
	check_lookup(text, main_addr, "main_alias", 1);
}

static void test_no_dwarf(void)
{
	struct symbolizer *s = NULL;
	struct symbolize_loc loc;
	char missing[96];

	CU_ASSERT_EQUAL_FATAL(symbolizer__new(ks, without_dwarf, NULL, &s), 0);
	CU_ASSERT(strstr(symbolizer__dwarf_status(s), "no DWARF") != NULL);
	symbolizer__lookup(s, outer_addr, &loc);
	CU_ASSERT_STRING_EQUAL(loc.sym->name, "outer");
	CU_ASSERT_EQUAL(loc.nr_frames, 0);
	symbolizer__free(s);

	snprintf(missing, sizeof(missing), "%s/no-such-vmlinux", dir);
	CU_ASSERT_EQUAL_FATAL(symbolizer__new(ks, missing, NULL, &s), 0);
	CU_ASSERT(strstr(symbolizer__dwarf_status(s), missing) != NULL);
	symbolizer__free(s);
}

static CU_TestInfo symbolize_tests[] = {
	{ "symbols_only", test_symbols_only },
	{ "dwarf_line", test_dwarf_line },
	{ "dwarf_inline", test_dwarf_inline },
	{ "dwarf_mismatch", test_dwarf_mismatch },
	{ "no_dwarf", test_no_dwarf },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "symbolize", suite_init, suite_clean, NULL, NULL, symbolize_tests },
	CU_SUITE_INFO_NULL,
};
