// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `trace-cmd-lbr merge` of a damaged recording: the input is not a file but a list of edits
 * to a real `trace-cmd record` file (FUZZ_RECORDING, version 6): the fields of its structure
 * are found once, and each 8-byte edit picks one (the header's page size and CPU count, an
 * option's id, size or text, a flyrecord offset or size, the clock text, a page's time stamp
 * or commit count, an event's header or length word) and sets, adds to, zeroes or fills it,
 * or cuts the file there. Random bytes rarely get past the magic; these reach libtracecmd.
 * The merge runs whole, with TRACEDAT_WRITE_FORCE (the capture, FUZZ_CAPTURE, is of another
 * time), into a directory of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz-file.h"
#include "tracedat/tracedat-input.h"
#include "tracedat-lbr/tracedat-merge.h"

struct field {
	size_t off;
	unsigned int width;	/* bytes: 1 (text), 2, 4 or 8 */
};

static unsigned char *base;
static size_t base_len;
static struct field *fields;
static size_t nr_fields, alloc_fields;
static char out_path[64];

static void add(size_t off, unsigned int width)
{
	if (off + width > base_len)
		return;
	if (nr_fields == alloc_fields) {
		alloc_fields = alloc_fields ? alloc_fields * 2 : 1024;
		fields = realloc(fields, alloc_fields * sizeof(*fields));
		if (!fields)
			abort();
	}
	fields[nr_fields++] = (struct field){ off, width };
}

static __u64 get(size_t off, unsigned int width)
{
	__u64 v = 0;

	if (off + width <= base_len)
		memcpy(&v, base + off, width);
	return v;
}

/* The texts' bytes: a few of each, where damage changes how they parse */
static void add_text(size_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 16; i++)
		add(off + i, 1);
	if (len > 16)
		add(off + len - 1, 1);
}

/* The pages of one CPU: time stamp, commit, then every event's header and length word */
static void add_pages(size_t off, size_t size, unsigned int page_size)
{
	size_t page, i, commit, ext;
	__u32 w, type;

	for (page = off; page + page_size <= off + size && page + page_size <= base_len;
	     page += page_size) {
		add(page, 8);
		add(page + 8, 8);
		commit = get(page + 8, 8) & ((1U << 27) - 1);
		for (i = 0; i + 4 <= commit && i + 4 <= page_size - 16; i += ext) {
			w = get(page + 16 + i, 4);
			type = w & 31;
			add(page + 16 + i, 4);
			if (type == 0 || type == 29) {
				add(page + 20 + i, 4);
				ext = type ? 4 + get(page + 20 + i, 4) :
				      8 + ((get(page + 20 + i, 4) - 4 + 3) & ~3ULL);
			} else {
				ext = type >= 30 ? 8 : 4 + type * 4;
			}
			if (!ext || ext > page_size)
				break;
		}
	}
}

static size_t skip_str(size_t p)
{
	while (p < base_len && base[p])
		p++;
	return p + 1;
}

/* Walks the version 6 layout of the base file, as tests/lib/tracedat-edit.py does. */
static void map_fields(void)
{
	unsigned int page_size, nr_cpus, n, m, i, j;
	__u64 size, off;
	size_t p;

	p = skip_str(10) + 2;
	add(p, 4);
	page_size = get(p, 4);
	p += 4;
	for (i = 0; i < 2; i++) {
		p = skip_str(p);
		add(p, 8);
		p += 8 + get(p, 8);
	}
	add(p, 4);
	n = get(p, 4);
	for (p += 4, i = 0; i < n && p < base_len; i++)
		p += 8 + get(p, 8);
	add(p, 4);
	n = get(p, 4);
	for (p += 4, i = 0; i < n && p < base_len; i++) {
		p = skip_str(p);
		m = get(p, 4);
		for (p += 4, j = 0; j < m && p < base_len; j++) {
			add(p, 8);
			p += 8 + get(p, 8);
		}
	}
	for (i = 0; i < 2; i++) {	/* kallsyms, printk */
		add(p, 4);
		p += 4 + get(p, 4);
	}
	add(p, 8);
	add_text(p + 8, get(p, 8));
	p += 8 + get(p, 8);
	add(p, 4);
	nr_cpus = get(p, 4);
	p += 4;
	if (p + 10 <= base_len && !memcmp(base + p, "options", 7)) {
		for (p += 10; p + 2 <= base_len && get(p, 2); p += 6 + get(p + 2, 4)) {
			add(p, 2);
			add(p + 2, 4);
			add_text(p + 6, get(p + 2, 4));
		}
		add(p, 2);
		p += 2;
	}
	p += 10;	/* flyrecord */
	for (i = 0; i < nr_cpus && p + 16 <= base_len; i++, p += 16) {
		add(p, 8);
		add(p + 8, 8);
		off = get(p, 8);
		size = get(p + 8, 8);
		if (page_size >= 256 && off < base_len)
			add_pages(off, size, page_size);
	}
	add(p, 8);	/* the clock after the CPU table */
	add_text(p + 8, get(p, 8));
}

static void load_base(void)
{
	FILE *f = fopen(FUZZ_RECORDING, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		abort();
	base_len = n;
	base = malloc(base_len);
	if (!base || fread(base, 1, base_len, f) != base_len)
		abort();
	fclose(f);
	map_fields();
	snprintf(out_path, sizeof(out_path), "/dev/shm/fuzz-tracedat-struct.%d", getpid());
	if (access("/dev/shm", W_OK))
		snprintf(out_path, sizeof(out_path), "/tmp/fuzz-tracedat-struct.%d", getpid());
}

/*
 * libtracecmd 3.1 parses a version 6 file's clock twice (its option, then the text after the
 * CPU table) and loses the first sscanf("%ms") copy, a few bytes per file opened: with leak
 * checks, libFuzzer would scan the heap after every run (11 runs a second rather than
 * hundreds). The other targets and t-valgrind look for lbrsnap's own leaks.
 */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "detect_leaks=0";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef FUZZ_CHECK_ONLY
	struct tracedat_input_info info;
	struct tracedat_meta meta;
#else
	struct tracedat_merge_stats st;
#endif
	unsigned char *d;
	size_t len, i;
	char err[640];

	if (!base)
		load_base();
	d = malloc(base_len);
	if (!d)
		abort();
	memcpy(d, base, base_len);
	len = base_len;
	for (i = 0; i + 8 <= size && i < 8 * 64; i += 8) {
		const struct field *f = &fields[(data[i] | data[i + 1] << 8) % nr_fields];
		__u64 v = 0, val;
		__u32 arg;

		memcpy(&arg, data + i + 4, 4);
		if (f->off + f->width > len)
			continue;
		memcpy(&v, d + f->off, f->width);
		switch (data[i + 2] % 6) {
		case 0: val = arg; break;
		case 1: val = v + (__s32)arg; break;
		case 2: val = 0; break;
		case 3: val = ~0ULL; break;
		case 4: val = v ^ (1ULL << (arg % (8 * f->width))); break;
		default:
			/* cut the file inside the field's neighbourhood */
			len = f->off + arg % (f->width + 64);
			if (len > base_len)
				len = base_len;
			continue;
		}
		memcpy(d + f->off, &val, f->width);
	}
#ifdef FUZZ_CHECK_ONLY
	memset(&meta, 0, sizeof(meta));
	tracedat_input__read_meta(fuzz_file__write(d, len), &meta, &info, err, sizeof(err));
	tracedat_meta__free(&meta);
#else
	tracedat__write_flags(fuzz_file__write(d, len), FUZZ_CAPTURE, out_path,
			      TRACEDAT_WRITE_FORCE, &st, err, sizeof(err));
	unlink(out_path);
#endif
	free(d);
	return 0;
}
