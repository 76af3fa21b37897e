// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap.data reader (format in lbrfile.h).
 *
 * The reader maps the file and indexes it once: attach points, losses, META and kallsyms are
 * small; records are only located by blocks of LBRFILE_BLOCK, each with its earliest time.
 * Time order is a merge that holds only the records read ahead of their turn (a ring
 * buffer's records come nearly in time order), so memory stays flat in the number of
 * records. lbrfile__record()'s random access alone builds an index of every record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/align.h"
#include "util/min-heap.h"
#include "lbrfile/arg-value.h"
#include "lbrfile/lbrfile.h"

struct rec_index {
	__u64 time_ns;
	__u64 off;		/* payload offset of the RECORD section */
	__u64 size;
};

/* Records read at a time in a pass; a block of the index */
#define LBRFILE_BLOCK	1024

/* Bytes of the file the index pass populates at a time */
#define LBRFILE_POPULATE	(1 << 20)

/* LBRFILE_BLOCK records (the last: fewer), from the section at off */
struct rec_block {
	__u64 off;		/* offset of the first record's section header */
	__u64 min_ns;		/* the earliest time of its records */
	__u64 after_ns;		/* the earliest time of its records and all later blocks' */
	__u32 nr;
};

struct lbrfile {
	void *map;
	size_t len;
	char *meta;			/* copy of the META text, split in place */
	const char **meta_kv;		/* key, value, key, value, ... */
	size_t nr_meta;
	bool by_time;			/* recs[] currently in time order */
	__u32 version;
	struct lbr_attach_point *aps;
	size_t nr_aps;
	struct lbrfile_loss *losses;
	size_t nr_losses;
	const char *kallsyms;
	size_t kallsyms_len;
	const struct lbrfile_counts *counts;
	struct lbrfile_lbr_gap *gaps;	/* by CPU, then start; overlaps merged */
	size_t nr_gaps;
	struct rec_index *recs;		/* lbrfile__record() only, built on its first call */
	size_t nr_recs;
	struct rec_block *blocks;
	size_t nr_blocks;
	struct lbr_syscall *syscalls;	/* by number; name NULL where absent */
	struct rec_index *procs;	/* MAPS sections by pid, then file order (time_ns: pid) */
	size_t nr_procs;
	__u64 first_ns, last_ns;	/* lbrfile__time_range() */
	lbrfile_record_fn each_fn;	/* lbrfile__open_each(): fn, its ctx, its error */
	void *each_ctx;
	int each_err;
};

/*
 * n "name\0type\0" (with_enums: "name\0type\0enums\0") groups from p (before end) into
 * args; returns the end of the last, or NULL when they do not fit.
 */
static const char *parse_arg_names(const char *p, const char *end, struct lbr_arg_desc *args,
				   __u32 n, bool with_enums)
{
	__u32 i;
	int k;

	for (i = 0; i < n; i++) {
		args[i].enums = "";
		for (k = 0; k < 2 + with_enums; k++) {
			const char *z = p < end ? memchr(p, 0, end - p) : NULL;

			if (!z)
				return NULL;
			if (k == 2)
				args[i].enums = p;
			else if (k)
				args[i].type = p;
			else
				args[i].name = p;
			p = z + 1;
		}
	}
	return p;
}

static int grow(void **arr, size_t *cap, size_t nr, size_t elem)
{
	void *n;

	if (nr < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 64;
	n = realloc(*arr, *cap * elem);
	if (!n)
		return -ENOMEM;
	*arr = n;
	return 0;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22	/* Linux 5.14 */
#endif

/*
 * The part of the map from off to end, populated in one call before a pass reads it: a
 * fault per 16 pages costs more than the reading where faults are slow (nested guests).
 * Older kernels refuse the advice; the pass then faults as before.
 */
static void populate(const struct lbrfile *f, __u64 off, __u64 end)
{
	size_t ps = sysconf(_SC_PAGESIZE);
	__u64 start = off / ps * ps;

	if (f->map && end > start)
		madvise((char *)f->map + start, (end > f->len ? f->len : end) - start,
			MADV_POPULATE_READ);
}

/* Splits "key=value\n" lines in place into the key/value array. */
static int parse_meta(struct lbrfile *f, const char *p, size_t size)
{
	size_t cap = 0, n = 0;
	char *line, *next;

	free(f->meta);
	free(f->meta_kv);
	f->meta_kv = NULL;
	f->meta = strndup(p, size);
	if (!f->meta)
		return -ENOMEM;
	for (line = f->meta; *line; line = next) {
		char *eq, *nl = strchr(line, '\n');

		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = 0;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = 0;
		if (grow((void **)&f->meta_kv, &cap, n + 1, sizeof(*f->meta_kv)))
			return -ENOMEM;
		f->meta_kv[n++] = line;
		f->meta_kv[n++] = eq + 1;
	}
	f->nr_meta = n / 2;
	return 0;
}

static bool is_int_size(__u8 size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

int lbr_attach__check(__u32 version, const struct lbrfile_attach *a,
		      const struct lbrfile_attach_args *aa)
{
	__u32 i;

	/* a return value is a number or a pointer, never a string (its text is not read) */
	if (version >= 2 && (a->ret_kind > LBRSNAP_RET_POINTER ||
			     (a->ret_kind && !is_int_size(a->ret_size))))
		return -EINVAL;
	if (!aa)
		return 0;
	if (aa->nr_args > LBRSNAP_MAX_ARGS)
		return -EINVAL;
	for (i = 0; i < aa->nr_args; i++) {
		if (aa->kind[i] > LBRSNAP_ARG_STRING)
			return -EINVAL;
	}
	return 0;
}

static int rec_cmp_time(const void *a, const void *b);

struct index_caps {
	size_t aps, losses, blocks, gaps, procs;
};

static int index_section(struct lbrfile *f, const struct lbrfile_section *sec, __u64 off,
			 struct index_caps *cap, bool *ended)
{
	const char *p = (const char *)f->map + off;
	struct lbr_record rec;
	int err;

	switch (sec->type) {
	case LBRFILE_SEC_META:
		return parse_meta(f, p, sec->size);
	case LBRFILE_SEC_ATTACH: {
		const struct lbrfile_attach *a = (const void *)p;
		const struct lbrfile_attach_args *aa = NULL;
		struct lbr_attach_point *ap;
		const char *spec, *target, *rtype = "", *end = p + sec->size;

		if (sec->size < sizeof(*a) + 2)
			return -EINVAL;
		spec = p + sizeof(*a);
		if (f->version >= 3) {
			aa = (const void *)spec;
			spec += sizeof(*aa);
			if (sec->size < sizeof(*a) + sizeof(*aa) + 3)
				return -EINVAL;
		}
		target = memchr(spec, 0, end - spec);
		if (!target || !memchr(target + 1, 0, end - target - 1))
			return -EINVAL;
		if (f->version >= 2) {
			rtype = (const char *)memchr(target + 1, 0, end - target - 1) + 1;
			if (rtype >= end || !memchr(rtype, 0, end - rtype))
				return -EINVAL;
		}
		if (lbr_attach__check(f->version, a, aa))
			return -EINVAL;
		if (a->id != f->nr_aps)
			return -EINVAL;
		err = grow((void **)&f->aps, &cap->aps, f->nr_aps, sizeof(*f->aps));
		if (err)
			return err;
		ap = &f->aps[f->nr_aps++];
		ap->id = a->id;
		ap->kind = a->kind;
		ap->flags = a->flags;
		ap->mem_bytes = a->mem_bytes;
		ap->held = 0;
		ap->spec = spec;
		ap->target = target + 1;
		ap->ret_type = rtype;
		if (aa) {
			__u32 i;

			ap->sys = aa->sys;
			ap->nr_args = aa->nr_args;
			for (i = 0; i < aa->nr_args; i++) {
				ap->args[i].kind = aa->kind[i];
				ap->args[i].size = aa->size[i];
			}
			if (!parse_arg_names(rtype + strlen(rtype) + 1, end, ap->args,
					     aa->nr_args, true))
				return -EINVAL;
			for (i = 0; i < aa->nr_args; i++)
				lbr_arg_desc__prepare(&ap->args[i], i, false);
		}
		if (f->version >= 2) {
			ap->ret_kind = a->ret_kind;
			ap->ret_size = a->ret_size;
		} else if (ap->flags & LBRFILE_AP_HAS_RET) {
			/* version 1 stored the whole register, read as a long */
			ap->ret_kind = LBRSNAP_RET_SIGNED;
			ap->ret_size = 8;
			ap->ret_type = "long";
		}
		return 0;
	}
	case LBRFILE_SEC_RECORD: {
		__u32 *held;

		/* writers put each ATTACH before its records; readers index tables by ap */
		if (lbr_record__parse(p, sec->size, &rec) || rec.ev->ap >= f->nr_aps)
			return -EINVAL;
		/* what a writer must know before its first record, without a pass of its own */
		held = &f->aps[rec.ev->ap].held;
		*held |= (rec.ev->nr_branches ? LBR_AP_HELD_BRANCHES : 0) |
			 (rec.ev->nr_stack ? LBR_AP_HELD_STACK : 0) |
			 (rec.ustack && rec.ustack->nr ? LBR_AP_HELD_USTACK : 0) |
			 (rec.calls ? LBR_AP_HELD_CALLS : 0);
		if (!f->first_ns || rec.ev->time_ns < f->first_ns)
			f->first_ns = rec.ev->time_ns;
		if (rec.ev->time_ns > f->last_ns)
			f->last_ns = rec.ev->time_ns;
		if (f->nr_recs % LBRFILE_BLOCK == 0) {
			err = grow((void **)&f->blocks, &cap->blocks, f->nr_blocks,
				   sizeof(*f->blocks));
			if (err)
				return err;
			f->blocks[f->nr_blocks].off = off - sizeof(*sec);
			f->blocks[f->nr_blocks].min_ns = ~0ULL;
			f->blocks[f->nr_blocks++].nr = 0;
		}
		f->blocks[f->nr_blocks - 1].nr++;
		if (rec.ev->time_ns < f->blocks[f->nr_blocks - 1].min_ns)
			f->blocks[f->nr_blocks - 1].min_ns = rec.ev->time_ns;
		f->nr_recs++;
		if (f->each_fn)
			f->each_err = f->each_fn(&rec, f->each_ctx);
		return f->each_err;
	}
	case LBRFILE_SEC_SYSCALL: {
		const struct lbrfile_syscall *y = (const void *)p;
		const char *end = p + sec->size, *name = p + sizeof(*y);
		struct lbr_syscall *sc;
		__u32 i;

		if (sec->size < sizeof(*y) + 1 || y->nr >= LBRSNAP_NR_SYSCALLS ||
		    y->nr_args > LBRSNAP_MAX_ARGS || !memchr(name, 0, end - name))
			return -EINVAL;
		if (!f->syscalls) {
			f->syscalls = calloc(LBRSNAP_NR_SYSCALLS, sizeof(*f->syscalls));
			if (!f->syscalls)
				return -ENOMEM;
		}
		sc = &f->syscalls[y->nr];
		sc->nr = y->nr;
		sc->nr_args = y->nr_args;
		sc->name = name;
		if (!parse_arg_names(name + strlen(name) + 1, end, sc->args, y->nr_args, false))
			return -EINVAL;
		for (i = 0; i < y->nr_args; i++)
			lbr_arg_desc__prepare(&sc->args[i], i, true);
		return 0;
	}
	case LBRFILE_SEC_LOSS:
		if (sec->size != sizeof(struct lbrfile_loss))
			return -EINVAL;
		err = grow((void **)&f->losses, &cap->losses, f->nr_losses, sizeof(*f->losses));
		if (err)
			return err;
		memcpy(&f->losses[f->nr_losses++], p, sizeof(*f->losses));
		return 0;
	case LBRFILE_SEC_COUNTS:
		if (sec->size < sizeof(struct lbrfile_counts))
			return -EINVAL;
		f->counts = (const void *)p;
		return 0;
	case LBRFILE_SEC_LBR_GAP: {
		const struct lbrfile_lbr_gap *g = (const void *)p;

		if (sec->size < sizeof(*g) || g->start_ns > g->end_ns)
			return -EINVAL;
		err = grow((void **)&f->gaps, &cap->gaps, f->nr_gaps, sizeof(*f->gaps));
		if (err)
			return err;
		memcpy(&f->gaps[f->nr_gaps++], g, sizeof(*g));
		return 0;
	}
	case LBRFILE_SEC_MAPS: {
		struct lbr_proc proc;

		if (lbr_proc__parse(p, sec->size, &proc))
			return -EINVAL;
		err = grow((void **)&f->procs, &cap->procs, f->nr_procs, sizeof(*f->procs));
		if (err)
			return err;
		f->procs[f->nr_procs].time_ns = proc.pid;
		f->procs[f->nr_procs].off = off;
		f->procs[f->nr_procs++].size = sec->size;
		return 0;
	}
	case LBRFILE_SEC_KALLSYMS:
		f->kallsyms = p;
		f->kallsyms_len = sec->size;
		return 0;
	case LBRFILE_SEC_END:
		if (sec->size != 8 || *(const __u64 *)p != f->nr_recs)
			return -EINVAL;
		*ended = true;
		return 0;
	default:
		/* Unknown sections are skipped so that newer writers stay readable. */
		return 0;
	}
}

static int gap_cmp(const void *a, const void *b)
{
	const struct lbrfile_lbr_gap *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* Sorts the gaps by CPU and start and merges those of a CPU that overlap or touch. */
static void merge_gaps(struct lbrfile *f)
{
	size_t i, n = 0;

	if (!f->nr_gaps)
		return;		/* no array at all: qsort() must not see NULL */
	qsort(f->gaps, f->nr_gaps, sizeof(*f->gaps), gap_cmp);
	for (i = 0; i < f->nr_gaps; i++) {
		struct lbrfile_lbr_gap *last = n ? &f->gaps[n - 1] : NULL, *g = &f->gaps[i];

		if (last && last->cpu == g->cpu && g->start_ns <= last->end_ns) {
			if (g->end_ns > last->end_ns)
				last->end_ns = g->end_ns;
			last->enabled_ns += g->enabled_ns;
			last->running_ns += g->running_ns;
			continue;
		}
		f->gaps[n++] = *g;
	}
	f->nr_gaps = n;
}

/*
 * A file shorter than the header: empty, or the start of the magic, is what a writer killed
 * before its first flush leaves behind (incomplete); anything else is no capture.
 */
static int short_header(int fd, size_t len)
{
	char buf[sizeof(LBRFILE_MAGIC)];
	size_t n = len < 8 ? len : 8;

	if (!len)
		return -ENODATA;
	if (pread(fd, buf, n, 0) != (ssize_t)n)
		return -EIO;
	return memcmp(buf, LBRFILE_MAGIC, n) ? -EMEDIUMTYPE : -ENODATA;
}

const char *lbrfile__strerror(int err)
{
	switch (err) {
	case -EISDIR:
		return "a directory, not a capture";
	case -ENODEV:
		return "not a regular file";
	case -EMEDIUMTYPE:
		return "not an lbrsnap capture (no " LBRFILE_MAGIC " magic)";
	case -EBADMSG:
		return "damaged capture (a section is cut or malformed)";
	case -ENODATA:
		return "incomplete capture: the file ends before its end marker (its writer was "
		       "killed or is still running)";
	default:
		return strerror(-err);
	}
}

int lbrfile__open(const char *path, struct lbrfile **out)
{
	return lbrfile__open_each(path, NULL, NULL, out);
}

int lbrfile__open_each(const char *path, lbrfile_record_fn fn, void *ctx, struct lbrfile **out)
{
	struct index_caps cap = {};
	const struct lbrfile_header *hdr;
	struct lbrfile *f = NULL;
	bool ended = false;
	size_t nr_secs = 0, i;
	struct stat st;
	__u64 off, populated = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = calloc(1, sizeof(*f));
	if (!f) {
		err = -ENOMEM;
		goto cleanup;
	}
	f->each_fn = fn;
	f->each_ctx = ctx;
	if (fstat(fd, &st)) {
		err = -errno;
		goto cleanup;
	}
	/* what mmap() would call "No such device" */
	if (!S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV;
		goto cleanup;
	}
	f->len = st.st_size;
	if (f->len < sizeof(*hdr)) {
		err = short_header(fd, f->len);
		goto cleanup;
	}
	f->map = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		err = -errno;
		goto cleanup;
	}
	hdr = f->map;
	f->version = hdr->version;
	/* version 1 differs only in its ATTACH sections */
	if (memcmp(hdr->magic, LBRFILE_MAGIC, 8)) {
		err = -EMEDIUMTYPE;
		goto cleanup;
	}
	if (!hdr->version || hdr->version > LBRFILE_VERSION ||
	    hdr->header_size < sizeof(*hdr) || hdr->header_size > f->len) {
		err = -EBADMSG;
		goto cleanup;
	}
	off = ALIGN(hdr->header_size, 8);
	while (off + sizeof(struct lbrfile_section) <= f->len && !ended) {
		const struct lbrfile_section *sec = (const void *)((char *)f->map + off);

		if (off + sizeof(*sec) > populated) {
			populated = off + LBRFILE_POPULATE;
			populate(f, off, populated);
		}
		off += sizeof(*sec);
		/* the file ends inside a section: cut short, as a killed writer leaves it */
		if (sec->size > f->len - off) {
			err = -ENODATA;
			goto cleanup;
		}
		err = index_section(f, sec, off, &cap, &ended);
		if (err) {
			err = f->each_err ?: err == -ENOMEM ? err : -EBADMSG;
			goto cleanup;
		}
		off += ALIGN(sec->size, 8);
		/*
		 * indexing reads every record once: what it has read need not stay resident (the
		 * rest of the populated window too: the next section populates it again)
		 */
		if (++nr_secs % LBRFILE_RELEASE_EVERY == 0) {
			lbrfile__release(f);
			populated = 0;
		}
	}
	/* A capture cut short (no END) is refused rather than read as if it were whole. */
	err = ended ? 0 : -ENODATA;
	for (i = f->nr_blocks; i-- > 0;) {
		__u64 later = i + 1 < f->nr_blocks ? f->blocks[i + 1].after_ns : ~0ULL;

		f->blocks[i].after_ns = f->blocks[i].min_ns < later ? f->blocks[i].min_ns : later;
	}
	merge_gaps(f);
	/* by pid, each pid's sections in file order (rec_cmp_time breaks ties by offset) */
	if (f->nr_procs)
		qsort(f->procs, f->nr_procs, sizeof(*f->procs), rec_cmp_time);
	lbrfile__release(f);
cleanup:
	close(fd);
	if (err) {
		lbrfile__close(f);
		f = NULL;
	}
	*out = f;
	return err;
}

void lbrfile__close(struct lbrfile *f)
{
	if (!f)
		return;
	if (f->map)
		munmap(f->map, f->len);
	free(f->meta);
	free(f->meta_kv);
	free(f->aps);
	free(f->losses);
	free(f->gaps);
	free(f->recs);
	free(f->blocks);
	free(f->syscalls);
	free(f->procs);
	free(f);
}

size_t lbrfile__nr_procs(const struct lbrfile *f)
{
	return f->nr_procs;
}

int lbrfile__proc(const struct lbrfile *f, size_t i, struct lbr_proc *p)
{
	if (i >= f->nr_procs)
		return -ENOENT;
	return lbr_proc__parse((const char *)f->map + f->procs[i].off, f->procs[i].size, p);
}

const struct lbrfile_map *lbrfile__user_map(const struct lbrfile *f, __u32 pid, __u64 addr,
					    struct lbr_proc *p)
{
	const struct lbrfile_map *m;
	size_t lo = 0, hi = f->nr_procs;

	/* past the last section of pid, then back through its sections: newest first */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->procs[mid].time_ns <= pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && f->procs[lo].time_ns == pid) {
		if (lbrfile__proc(f, lo, p))
			continue;
		m = lbr_proc__find(p, addr);
		if (m)
			return m;
	}
	return NULL;
}

bool lbrfile__proc_gone(const struct lbrfile *f, __u32 pid)
{
	struct lbr_proc p;
	size_t i;

	for (i = 0; i < f->nr_procs; i++) {
		if (f->procs[i].time_ns == pid && !lbrfile__proc(f, i, &p) &&
		    !(p.flags & LBRFILE_PROC_GONE))
			return false;
	}
	for (i = 0; i < f->nr_procs; i++) {
		if (f->procs[i].time_ns == pid)
			return true;
	}
	return false;
}

const struct lbr_syscall *lbrfile__syscall(const struct lbrfile *f, __s32 nr)
{
	if (!f->syscalls || nr < 0 || nr >= LBRSNAP_NR_SYSCALLS || !f->syscalls[nr].name)
		return NULL;
	return &f->syscalls[nr];
}

const char *lbrfile__meta(const struct lbrfile *f, const char *key)
{
	size_t i;

	for (i = 0; i < f->nr_meta; i++) {
		if (!strcmp(f->meta_kv[2 * i], key))
			return f->meta_kv[2 * i + 1];
	}
	return NULL;
}

size_t lbrfile__nr_attach(const struct lbrfile *f)
{
	return f->nr_aps;
}

const struct lbr_attach_point *lbrfile__attach(const struct lbrfile *f, __u32 id)
{
	return id < f->nr_aps ? &f->aps[id] : NULL;
}

__u64 lbrfile__lost(const struct lbrfile *f, __u32 ap)
{
	__u64 n = 0;
	int c;

	for (c = 0; c < LBRSNAP_LOSS__MAX; c++)
		n += lbrsnap_loss__drops_record(c) ? lbrfile__loss(f, ap, c) : 0;
	return n;
}

__u64 lbrfile__loss(const struct lbrfile *f, __u32 ap, enum lbrsnap_loss cause)
{
	__u64 sum = 0;
	size_t i;

	for (i = 0; i < f->nr_losses; i++) {
		if (f->losses[i].ap == ap && f->losses[i].cause == (__u32)cause)
			sum += f->losses[i].count;
	}
	return sum;
}

void lbrfile__time_range(const struct lbrfile *f, __u64 *first_ns, __u64 *last_ns)
{
	*first_ns = f->first_ns;
	*last_ns = f->last_ns;
}

const struct lbrfile_counts *lbrfile__counts(const struct lbrfile *f)
{
	return f->counts;
}

size_t lbrfile__nr_lbr_gaps(const struct lbrfile *f)
{
	return f->nr_gaps;
}

const struct lbrfile_lbr_gap *lbrfile__lbr_gap(const struct lbrfile *f, size_t i)
{
	return i < f->nr_gaps ? &f->gaps[i] : NULL;
}

bool lbrfile__lbr_stale(const struct lbrfile *f, __u32 cpu, __u64 time_ns)
{
	size_t lo = 0, hi = f->nr_gaps;

	/* the last gap starting at or before (cpu, time_ns); gaps of a CPU do not overlap */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct lbrfile_lbr_gap *g = &f->gaps[mid];

		if (g->cpu < cpu || (g->cpu == cpu && g->start_ns <= time_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && f->gaps[lo - 1].cpu == cpu && time_ns <= f->gaps[lo - 1].end_ns;
}

__u64 lbrfile__nr_records(const struct lbrfile *f)
{
	return f->nr_recs;
}

const char *lbrfile__kallsyms(const struct lbrfile *f, size_t *len)
{
	if (len)
		*len = f->kallsyms_len;
	return f->kallsyms;
}

static int rec_cmp_time(const void *a, const void *b)
{
	const struct rec_index *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	/* equal times keep file order, so the sort is stable */
	return x->off < y->off ? -1 : x->off > y->off;
}

static int rec_cmp_off(const void *a, const void *b)
{
	const struct rec_index *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

void lbrfile__release(struct lbrfile *f)
{
	if (f && f->map)
		madvise(f->map, f->len, MADV_DONTNEED);
}

/*
 * Gives back what was read of the file before off (whole pages), from *done on: a range
 * given back is not walked again (each madvise() walks its page tables, and with a second
 * thread in the process sends it a TLB flush)
 */
static void release_before(const struct lbrfile *f, __u64 off, __u64 *done)
{
	size_t ps = sysconf(_SC_PAGESIZE), n = off / ps * ps;

	if (f->map && n > *done) {
		madvise((char *)f->map + *done, n - *done, MADV_DONTNEED);
		*done = n;
	}
}

/*
 * Calls fn for block b's records (those of cpu, or all: -1), in file order. The sections
 * were checked when the file was opened: the walk stays inside it. Without parse, rec holds
 * the event alone: what orders records by time needs no more, and parsing would read every
 * record's far end once more before its turn.
 */
static int block__walk(const struct lbrfile *f, size_t b, int cpu, bool parse,
		       int (*fn)(const struct lbr_record *rec, __u64 off, __u64 size, void *ctx),
		       void *ctx)
{
	const struct rec_block *blk = &f->blocks[b];
	struct lbr_record rec;
	__u64 off = blk->off;
	__u32 n = 0;
	int err;

	populate(f, off, b + 1 < f->nr_blocks ? f->blocks[b + 1].off : f->len);
	while (n < blk->nr) {
		const struct lbrfile_section *sec = (const void *)((const char *)f->map + off);

		off += sizeof(*sec);
		if (sec->type == LBRFILE_SEC_RECORD) {
			const struct lbrsnap_event *ev = (const void *)((const char *)f->map + off);

			n++;
			/* another CPU's record is passed over unparsed (it was checked at open) */
			if (cpu < 0 || ev->cpu == (__u32)cpu) {
				if (parse)
					lbr_record__parse(ev, sec->size, &rec);
				else
					rec.ev = ev;
				err = fn(&rec, off, sec->size, ctx);
				if (err)
					return err;
			}
		}
		off += ALIGN(sec->size, 8);
	}
	return 0;
}

static int index_one(const struct lbr_record *rec, __u64 off, __u64 size, void *ctx)
{
	struct lbrfile *f = ctx;
	struct rec_index *r = &f->recs[f->nr_recs++];

	r->time_ns = rec->ev->time_ns;
	r->off = off;
	r->size = size;
	return 0;
}

/* lbrfile__record()'s index of every record, built on its first call */
static int order(struct lbrfile *f, bool sorted)
{
	size_t b, nr = f->nr_recs;

	if (!f->recs && nr) {
		f->recs = malloc(nr * sizeof(*f->recs));
		if (!f->recs)
			return -ENOMEM;
		f->nr_recs = 0;
		for (b = 0; b < f->nr_blocks; b++)
			block__walk(f, b, -1, false, index_one, f);
		f->by_time = false;
	}
	if (sorted != f->by_time) {
		if (f->nr_recs)		/* a capture without records has no array */
			qsort(f->recs, f->nr_recs, sizeof(*f->recs),
			      sorted ? rec_cmp_time : rec_cmp_off);
		f->by_time = sorted;
	}
	return 0;
}

int lbrfile__record(struct lbrfile *f, bool sorted, size_t i, struct lbr_record *rec)
{
	int err = order(f, sorted);

	if (err)
		return err;
	if (i >= f->nr_recs)
		return -ENOENT;
	lbr_record__parse((const char *)f->map + f->recs[i].off, f->recs[i].size, rec);
	return 0;
}

/* A pass in time order: the records read ahead of their turn, a heap by (time, offset) */
struct lbrfile_cursor {
	struct lbrfile *f;
	int cpu;
	size_t next_block;
	struct rec_index *heap;
	size_t nr, cap;
	__u64 last_off;		/* the record returned last: its caller may still read it */
	__u64 released;		/* the file before it was given back */
	unsigned int pops;
};

/* Records a pass returns between two give-backs of what lies before the next to read again */
#define LBRFILE_RELEASE_POPS	512

static bool heap_less(const struct rec_index *x, const struct rec_index *y)
{
	return x->time_ns < y->time_ns || (x->time_ns == y->time_ns && x->off < y->off);
}

DEFINE_MIN_HEAP(rec_heap, struct rec_index, heap_less)

static int cursor_push(const struct lbr_record *rec, __u64 off, __u64 size, void *ctx)
{
	struct lbrfile_cursor *c = ctx;
	struct rec_index r = { .time_ns = rec->ev->time_ns, .off = off, .size = size };

	if (grow((void **)&c->heap, &c->cap, c->nr, sizeof(*c->heap)))
		return -ENOMEM;
	rec_heap__push(c->heap, &c->nr, &r);
	return 0;
}

int lbrfile_cursor__new(struct lbrfile *f, int cpu, struct lbrfile_cursor **out)
{
	struct lbrfile_cursor *c = calloc(1, sizeof(*c));

	*out = c;
	if (!c)
		return -ENOMEM;
	c->f = f;
	c->cpu = cpu;
	c->last_off = ~0ULL;
	return 0;
}

/*
 * Where what a pass has read of the capture may go back: the start of the block it walked
 * last, or of the first record it reads again that lies after the start of the block before
 * (those left in the heap to leave it later, and the one returned last). A record from
 * further back, whose time is later than its neighbours', faults its page in again when it
 * leaves the heap rather than keep every block since resident.
 */
static __u64 cursor__low(const struct lbrfile_cursor *c)
{
	const struct lbrfile *f = c->f;
	__u64 floor = c->next_block >= 2 ? f->blocks[c->next_block - 2].off : 0;
	__u64 low = f->blocks[c->next_block - 1].off;
	size_t i;

	if (c->last_off >= floor && c->last_off < low)
		low = c->last_off;
	for (i = 0; i < c->nr; i++)
		if (c->heap[i].off >= floor && c->heap[i].off < low)
			low = c->heap[i].off;
	return low;
}

void lbrfile_cursor__free(struct lbrfile_cursor *c)
{
	if (!c)
		return;
	free(c->heap);
	free(c);
}

int lbrfile_cursor__next(struct lbrfile_cursor *c, struct lbr_record *rec)
{
	const struct lbrfile *f = c->f;
	struct rec_index r;
	int err;

	/*
	 * The heap's first goes now when no record of a later block is earlier: a later one of
	 * the same time comes after it in the file, so it goes after it too
	 */
	while (c->next_block < f->nr_blocks &&
	       (!c->nr || c->heap[0].time_ns > f->blocks[c->next_block].after_ns)) {
		err = block__walk(f, c->next_block, c->cpu, false, cursor_push, c);
		if (err)
			return err;
		c->next_block++;
		/*
		 * What was read of the capture goes back after each block, so that a pass keeps
		 * a part resident that does not grow with the records (a block is walked whole,
		 * whether it holds this CPU's records or not, and one call may walk many): about
		 * one block, and the records of the one before still to leave the heap
		 */
		release_before(f, cursor__low(c), &c->released);
	}
	if (!c->nr)
		return -ENOENT;
	r = rec_heap__pop(c->heap, &c->nr);
	c->last_off = r.off;
	/*
	 * the block before the last walked leaves as its records do, not all at the next walk
	 * (a record in the heap means a block was walked: cursor__low() has one to start from)
	 */
	if (++c->pops % LBRFILE_RELEASE_POPS == 0)
		release_before(f, cursor__low(c), &c->released);
	lbr_record__parse((const char *)f->map + r.off, r.size, rec);
	return 0;
}

struct each_ctx {
	lbrfile_record_fn fn;
	void *ctx;
};

static int each_one(const struct lbr_record *rec, __u64 off, __u64 size, void *ctx)
{
	struct each_ctx *e = ctx;

	return e->fn(rec, e->ctx);
}

int lbrfile__for_each(struct lbrfile *f, bool sorted, lbrfile_record_fn fn, void *ctx)
{
	struct each_ctx e = { fn, ctx };
	struct lbrfile_cursor *c;
	struct lbr_record rec;
	size_t b;
	int err;

	if (!sorted) {
		for (b = 0; b < f->nr_blocks; b++) {
			err = block__walk(f, b, -1, true, each_one, &e);
			if (err)
				return err;
			lbrfile__release(f);
		}
		return 0;
	}
	err = lbrfile_cursor__new(f, -1, &c);
	while (!err) {
		err = lbrfile_cursor__next(c, &rec);
		if (err) {
			err = err == -ENOENT ? 0 : err;
			break;
		}
		err = fn(&rec, ctx);
	}
	lbrfile_cursor__free(c);
	return err;
}
