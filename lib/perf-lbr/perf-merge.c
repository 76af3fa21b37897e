// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Merging a capture into a perf.data recorded with `perf record -k mono`.
 *
 * The recorded file is streamed record by record; only the lbr records (small) are held,
 * already in time order. Everything recorded is kept byte for byte, except that when its
 * attributes lack PERF_SAMPLE_IDENTIFIER (a single event without -a) the id is added to
 * every sample and sample_id trailer, because perf needs the id at the same place in all
 * events once a second event exists.
 *
 * perf sorts the records of one round and flushes at each FINISHED_ROUND everything up to
 * the newest time seen by the round before; a record older than what was flushed is "out of
 * order". So before each FINISHED_ROUND we insert the lbr records not newer than the newest
 * recorded time so far: they are newer than the previous round's insertions and so newer
 * than anything perf has flushed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "util/print.h"
#include "perf-lbr/perf-tracing-data.h"
#include "perf-lbr/perf-event-desc.h"
#include "perf/perf-sample.h"
#include "perf/perf-data-reader.h"
#include "perf/perf-data-writer.h"
#include "perf/perf-unzip.h"
#include "perf/perf-pipe.h"
#include "perf-lbr/perf-convert.h"
#include "perf-lbr/perf-merge.h"
#include "perf-lbr/perf-lbr.h"
#include "perf-lbr/perf-lbr-stream.h"
#include "lbrfile/capture-match.h"
#include "util/out-file.h"
#include "util/u32-set.h"

#define NO_TIME		(~0ULL)

struct id_attr {
	__u64 id;
	size_t attr;
};

/* Where an event's records keep their time (perf_sample__time_pos(), ..._trailer_time_pos()) */
struct time_pos {
	int sample;
	int trailer;
};

struct merge {
	const char *rec_path;
	struct perf_reader *r;
	struct perf_unzip *unzip;	/* `perf record -z`: records come out uncompressed */
	struct perf_writer *w;
	struct perf_lbr *pl;
	struct perf_lbr_stream *stream;	/* pl's records, encoded on a second CPU */
	bool add_identifier;	/* recorded attrs lack IDENTIFIER: add it everywhere */
	bool sample_id_all;
	int id_pos;		/* sample u64 index of PERF_SAMPLE_ID, -1 if none */
	int trailer_id_pos;	/* u64s from the trailer's end to its ID, 0 if none */
	__u64 first_id;		/* the first event's first id: a record's without one */
	struct id_attr *ids;
	size_t nr_ids;
	struct time_pos *pos;	/* per recorded event */
	size_t nr_attrs;
	/*
	 * Threads the recording has named with a COMM so far: the capture's COMM for a thread
	 * is left out when the recording named it first, so one pass decides it as the records
	 * go.
	 */
	struct u32_set tids;
	__u64 max_time;
	__u64 first_time, last_time;
	struct perf_merge_stats st;
	__u64 out[65536 / 8 + 1];
};

static int id_cmp(const void *a, const void *b)
{
	const struct id_attr *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Where id's event keeps the time: in its samples and in the trailer of its other records */
static const struct time_pos *time_pos_of(struct merge *m, __u64 id)
{
	struct id_attr key = { .id = id }, *f;

	if (m->nr_attrs == 1)
		return &m->pos[0];
	f = bsearch(&key, m->ids, m->nr_ids, sizeof(*m->ids), id_cmp);
	return f ? &m->pos[f->attr] : NULL;
}

/*
 * Why the times of a recording on another clock cannot be converted exactly. perf's default
 * clock is the kernel's local_clock(), which drifts against CLOCK_MONOTONIC, and perf
 * records no pair of the two. Its CLOCK_DATA feature (written with -k) pairs the recorded
 * clock with the time of day at one instant; lbrsnap pairs CLOCK_MONOTONIC with the time of
 * day at another, but the time of day is slewed and stepped against CLOCK_MONOTONIC, so the
 * two pairs give an offset only as exact as NTP left the clock: not what a merge in time
 * order needs, where microseconds decide the order.
 */
static const char *clock_why(struct merge *m, const struct perf_event_attr *a)
{
	bool clock_data = perf_feat__test(perf_reader__header(m->r)->features,
					  PERF_FEAT_CLOCK_DATA);

	if (!a->use_clockid)
		return "perf's default clock (local_clock) keeps no fixed offset to "
		       "CLOCK_MONOTONIC and the file records none, so its times cannot be "
		       "converted";
	return clock_data ? "its CLOCK_DATA ties that clock to the time of day only, which NTP "
			    "slews against CLOCK_MONOTONIC, so its times cannot be converted "
			    "exactly" :
			    "the file records no offset of that clock to CLOCK_MONOTONIC "
			    "(no CLOCK_DATA), so its times cannot be converted";
}

/* What perf itself requires, plus what a merge needs: the clock and the id position. */
static int check_attrs(struct merge *m)
{
	const struct perf_event_attr *a0 = &perf_reader__attr(m->r, 0)->attr, *a;
	size_t i, j, n = perf_reader__nr_attrs(m->r);
	void *aux;
	size_t len;

	m->sample_id_all = a0->sample_id_all;
	m->id_pos = -1;
	for (i = 0; i < n; i++) {
		a = &perf_reader__attr(m->r, i)->attr;
		if (!a->use_clockid || a->clockid != 1) {
			pr_warn("%s: not recorded with CLOCK_MONOTONIC timestamps (%s); "
				"lbr records can only be merged into a file from "
				"`perf record -k mono ...`: %s\n", m->rec_path,
				a->use_clockid ? "another -k clock" : "perf's default clock",
				clock_why(m, a));
			return -EINVAL;
		}
		if (a->sample_id_all != m->sample_id_all) {
			pr_warn("%s: events differ in sample_id_all\n", m->rec_path);
			return -EINVAL;
		}
		if (!(a->sample_type & PERF_SAMPLE_IDENTIFIER))
			m->add_identifier = true;
	}
	if (m->add_identifier && n > 1) {
		if (!(a0->sample_type & PERF_SAMPLE_ID)) {
			pr_warn("%s: several events without sample ids\n", m->rec_path);
			return -EINVAL;
		}
		m->id_pos = __builtin_popcountll(a0->sample_type & (PERF_SAMPLE_IP |
				PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
	}
	if (!perf_reader__feature(m->r, PERF_FEAT_AUXTRACE, &aux, &len)) {
		free(aux);
		pr_warn("%s: AUX area data (file offsets in its header) cannot be "
			"merged\n", m->rec_path);
		return -ENOTSUP;
	}
	for (i = 0; i < n; i++)
		m->nr_ids += perf_reader__attr(m->r, i)->nr_ids;
	m->ids = calloc(m->nr_ids ? m->nr_ids : 1, sizeof(*m->ids));
	if (!m->ids)
		return -ENOMEM;
	m->nr_ids = 0;
	for (i = 0; i < n; i++) {
		const struct perf_file_attr *fa = perf_reader__attr(m->r, i);

		for (j = 0; j < fa->nr_ids; j++) {
			m->ids[m->nr_ids].id = fa->ids[j];
			m->ids[m->nr_ids++].attr = i;
		}
	}
	qsort(m->ids, m->nr_ids, sizeof(*m->ids), id_cmp);
	/* looked up for every record: worked out once */
	m->nr_attrs = n;
	m->pos = calloc(n, sizeof(*m->pos));
	if (!m->pos)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		a = &perf_reader__attr(m->r, i)->attr;
		m->pos[i].sample = perf_sample__time_pos(a->sample_type);
		m->pos[i].trailer = perf_sample__trailer_time_pos(a->sample_type);
	}
	m->first_id = perf_reader__attr(m->r, 0)->nr_ids ? perf_reader__attr(m->r, 0)->ids[0] : 0;
	/* the trailer's ID sits before STREAM_ID and CPU */
	if (a0->sample_type & PERF_SAMPLE_ID)
		m->trailer_id_pos = 1 + !!(a0->sample_type & PERF_SAMPLE_STREAM_ID) +
				    !!(a0->sample_type & PERF_SAMPLE_CPU);
	return 0;
}

/* The sample id of a recorded record (0 if it has none), and its time or NO_TIME. */
static __u64 record_time(struct merge *m, const struct perf_event_header *h, __u64 *id)
{
	const __u64 *body = (const void *)(h + 1), *end = (const void *)((char *)h + h->size);
	size_t nr = (h->size - sizeof(*h)) / 8;
	const struct time_pos *tp;
	int pos;

	*id = m->first_id;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (!m->add_identifier && nr)
			*id = body[0];
		else if (m->id_pos >= 0 && (size_t)m->id_pos < nr)
			*id = body[m->id_pos];
		tp = time_pos_of(m, *id);
		pos = tp ? tp->sample : -1;
		return pos >= 0 && (size_t)pos / 8 < nr ? body[pos / 8] : NO_TIME;
	}
	if (h->type >= PERF_RECORD_USER_TYPE_START || !m->sample_id_all)
		return NO_TIME;
	if (!m->add_identifier && nr)
		*id = end[-1];
	else if (m->id_pos >= 0 && m->trailer_id_pos && (size_t)m->trailer_id_pos <= nr)
		*id = end[-m->trailer_id_pos];
	tp = time_pos_of(m, *id);
	pos = tp ? tp->trailer : 0;
	return pos > 0 && (size_t)pos / 8 <= nr ? end[-pos / 8] : NO_TIME;
}

static int write_recorded(struct merge *m, const struct perf_event_header *h, __u64 id)
{
	struct perf_event_header *o = (void *)m->out;
	bool sample = h->type == PERF_RECORD_SAMPLE;

	if (!m->add_identifier ||
	    (!sample && (h->type >= PERF_RECORD_USER_TYPE_START || !m->sample_id_all)))
		return perf_writer__write(m->w, h);
	if (h->size + 8 > 0xffff) {
		pr_warn("%s: record at %#llx too large to add a sample id\n", m->rec_path,
			(unsigned long long)perf_reader__offset(m->r));
		return -E2BIG;
	}
	*o = *h;
	o->size += 8;
	if (sample) {
		m->out[1] = id;
		memcpy(&m->out[2], h + 1, h->size - sizeof(*h));
	} else {
		memcpy(o + 1, h + 1, h->size - sizeof(*h));
		memcpy((char *)o + h->size, &id, 8);
	}
	return perf_writer__write(m->w, o);
}

/* An lbr record, converted as the recording's records around it are written */
static int write_lbr(const struct perf_event_header *rec, __u64 time, void *ctx)
{
	struct merge *m = ctx;

	(void)time;
	m->st.lbr_samples += rec->type == PERF_RECORD_SAMPLE;
	return perf_writer__write(m->w, rec);
}

/*
 * The recording's next record, with the records inside PERF_RECORD_COMPRESSED(2) taken out
 * of it in their place: the merged file is written uncompressed, so that the lbr records can
 * go between them in time order and the COMMs inside are seen.
 */
static int merge_next(struct merge *m, const struct perf_event_header **h)
{
	int ret;

	for (;;) {
		if (m->unzip) {
			ret = perf_unzip__next(m->unzip, h);
			if (ret > 0)
				return ret;
			if (ret < 0)
				goto bad_unzip;
		}
		ret = perf_reader__next(m->r, h);
		if (ret <= 0)
			break;
		if ((*h)->type != PERF_RECORD_COMPRESSED &&
		    (*h)->type != PERF_RECORD_COMPRESSED2)
			return ret;
		if (!m->unzip) {
			ret = perf_unzip__new(&m->unzip);
			if (ret)
				return ret;
		}
		ret = perf_unzip__feed(m->unzip, *h);
		if (ret)
			goto bad_unzip;
	}
	if (!ret && m->unzip && perf_unzip__pending(m->unzip)) {
		pr_warn("%s: compressed data ends inside a record\n", m->rec_path);
		return -EBADMSG;
	}
	return ret;
bad_unzip:
	if (ret == -EBADMSG)
		pr_warn("%s: compressed record at %#llx does not decompress\n",
			m->rec_path, (unsigned long long)perf_reader__offset(m->r));
	return ret;
}

static bool tid_known(__u32 tid, void *ctx)
{
	struct merge *m = ctx;

	return u32_set__has(&m->tids, tid);
}

/* A thread the recording names (a COMM record): its COMMs stay perf's own from here on */
static int tid_add(struct merge *m, const struct perf_event_header *h)
{
	if (h->size < sizeof(*h) + 8)
		return 0;
	return u32_set__add(&m->tids, ((const __u32 *)(h + 1))[1]) < 0 ? -ENOMEM : 0;
}

static int copy_data(struct merge *m)
{
	const struct perf_event_header *h;
	__u64 t, id;
	int ret, err;

	/* the recording has its own kernel MMAP */
	err = perf_lbr_stream__start(m->pl, false, tid_known, write_lbr, m, &m->stream);
	if (err)
		return err;
	while ((ret = merge_next(m, &h)) > 0) {
		if (h->type == PERF_RECORD_FINISHED_ROUND) {
			err = perf_lbr_stream__until(m->stream, m->max_time);
			if (err)
				return err;
			err = perf_writer__write(m->w, h);
			if (err)
				return err;
			continue;
		}
		t = record_time(m, h, &id);
		if (t != NO_TIME && t > m->max_time)
			m->max_time = t;
		if (t != NO_TIME && h->type == PERF_RECORD_SAMPLE) {
			if (!m->first_time || t < m->first_time)
				m->first_time = t;
			if (t > m->last_time)
				m->last_time = t;
		}
		err = write_recorded(m, h, id);
		if (!err && h->type == PERF_RECORD_COMM)
			err = tid_add(m, h);
		if (err)
			return err;
		m->st.rec_samples += h->type == PERF_RECORD_SAMPLE;
	}
	if (ret < 0)
		return ret;
	return perf_lbr_stream__end(m->stream);
}

static int add_attrs(struct merge *m)
{
	size_t i;
	__u64 id;
	int err;

	for (i = 0; i < perf_reader__nr_attrs(m->r); i++) {
		struct perf_file_attr fa = *perf_reader__attr(m->r, i);

		/* newer perf's fields (config3, config4 of 144-byte attrs) are copied too */
		if (m->add_identifier)
			fa.attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		err = perf_writer__add_file_attr(m->w, &fa);
		if (err)
			return err;
	}
	for (i = 0; i < perf_lbr__nr_events(m->pl); i++) {
		id = perf_lbr__id(m->pl, i);
		err = perf_writer__add_attr(m->w, perf_lbr__attr(m->pl, i), &id, 1);
		if (err)
			return err;
	}
	return 0;
}

/* One feature of the recording, as it goes into the merged file. */
static int merge_feature(struct merge *m, int bit, void *d, size_t len)
{
	__u64 add = m->add_identifier ? PERF_SAMPLE_IDENTIFIER : 0, *t = d;
	void *n = NULL;
	size_t nlen;
	int err;

	switch (bit) {
	case PERF_FEAT_TRACING_DATA:
		err = perf_lbr__tracing_data(m->pl, d, len, &n, &nlen);
		break;
	case PERF_FEAT_EVENT_DESC:
		err = perf_lbr__event_desc(m->pl, d, len, add, &n, &nlen);
		break;
	case PERF_FEAT_SAMPLE_TIME:
		if (len >= 16 && m->first_time && m->first_time < t[0])
			t[0] = m->first_time;
		if (len >= 16 && perf_lbr__last_time(m->pl) > t[1])
			t[1] = perf_lbr__last_time(m->pl);
		return perf_writer__feature(m->w, bit, d, len);
	default:
		return perf_writer__feature(m->w, bit, d, len);
	}
	if (err) {
		pr_warn("%s: cannot extend feature %d: %s\n", m->rec_path, bit,
			err == -EEXIST ? "lbr events are already merged in" : strerror(-err));
		return err;
	}
	err = perf_writer__feature(m->w, bit, n, nlen);
	free(n);
	return err;
}

static int write_features(struct merge *m)
{
	const struct perf_file_header *fh = perf_reader__header(m->r);
	size_t len;
	void *d;
	int bit, err;

	/* the lbr records go between the recorded ones: those are written decompressed */
	if (perf_feat__test(fh->features, PERF_FEAT_COMPRESSED))
		pr_info("%s: note: its compressed records (perf record -z) are written "
			"decompressed\n", m->rec_path);
	for (bit = 0; bit < PERF_FEAT_BITS; bit++) {
		if (!perf_feat__test(fh->features, bit) || bit == PERF_FEAT_COMPRESSED)
			continue;
		err = perf_reader__feature(m->r, bit, &d, &len);
		if (err)
			return err;
		err = merge_feature(m, bit, d, len);
		free(d);
		if (err)
			return err;
	}
	if (!perf_feat__test(fh->features, PERF_FEAT_TRACING_DATA)) {
		err = perf_lbr__tracing_data(m->pl, NULL, 0, &d, &len);
		if (err)
			return err;
		err = perf_writer__feature(m->w, PERF_FEAT_TRACING_DATA, d, len);
		free(d);
		if (err)
			return err;
	}
	if (perf_lbr__has_branches(m->pl))
		return perf_writer__feature(m->w, PERF_FEAT_BRANCH_STACK, NULL, 0);
	return 0;
}

/* Sample ids and tracepoint format ids the recording does not use. */
static int lbr_opts(struct merge *m, struct perf_lbr_opts *o)
{
	__u32 max_tp = 0;
	size_t len;
	void *d;
	int err;

	o->first_id = m->nr_ids ? m->ids[m->nr_ids - 1].id + 1 : 1;
	o->sample_id_all = m->sample_id_all;
	o->read_format = perf_reader__attr(m->r, 0)->attr.read_format;
	err = perf_reader__feature(m->r, PERF_FEAT_TRACING_DATA, &d, &len);
	if (err == -ENOENT) {
		o->first_tp_id = 1;
		return 0;
	}
	if (err)
		return err;
	err = perf_tracing_data__max_id(d, len, &max_tp);
	free(d);
	if (err) {
		pr_warn("%s: %s\n", m->rec_path, err == -EEXIST ?
			"lbr events are already merged in" : "cannot parse its tracing data");
		return err;
	}
	o->first_tp_id = max_tp + 1;
	return 0;
}

/*
 * `perf record --threads` writes a directory of per-thread data files: it cannot be rewritten
 * in place of a recording, said with what to do instead.
 */
static int check_shape(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 0;	/* the reader names the error */
	if (S_ISDIR(st.st_mode)) {
		pr_warn("%s: a directory (from `perf record --threads`?): its per-thread "
			"data files cannot be merged; record without --threads\n", path);
		return -EISDIR;
	}
	return 0;
}

/*
 * The recording's kernel release (HEADER_OSRELEASE) and sample time range (HEADER_SAMPLE_TIME)
 * against the capture's.
 */
static int check_origin(struct merge *m, struct lbrfile *cap, const char *cap_path)
{
	struct capture_origin c = { .release = lbrfile__meta(cap, "release"),
				    .first_ns = perf_lbr__first_time(m->pl),
				    .last_ns = perf_lbr__last_time(m->pl) };
	struct capture_origin r = { 0 };
	char release[128] = "", why[320];
	__u32 n;
	size_t len;
	void *d;

	if (!perf_reader__feature(m->r, PERF_FEAT_OSRELEASE, &d, &len)) {
		/* a perf string: its length, then the text */
		if (len > 4) {
			memcpy(&n, d, 4);
			snprintf(release, sizeof(release), "%.*s",
				 (int)(n < len - 4 ? n : len - 4), (char *)d + 4);
			r.release = release;
		}
		free(d);
	}
	if (!perf_reader__feature(m->r, PERF_FEAT_SAMPLE_TIME, &d, &len)) {
		if (len >= 16) {
			memcpy(&r.first_ns, d, 8);
			memcpy(&r.last_ns, (char *)d + 8, 8);
		}
		free(d);
	}
	if (!capture_match__check(&c, &r, why, sizeof(why)))
		return 0;
	pr_warn("%s: not recorded with the capture %s: %s; --force merges all the same\n",
		m->rec_path, cap_path, why);
	return -EXDEV;
}

static int merge_files(const char *rec_path, const char *rec_name, const char *cap_path,
		       const char *out_path, const char *kallsyms_path, bool keep_all,
		       unsigned int flags, struct perf_merge_stats *st)
{
	struct perf_lbr_opts o = { .keep_all = keep_all };
	struct lbrfile *cap = NULL;
	struct merge m = { .rec_path = rec_name };
	int err;

	err = perf_reader__open(rec_path, &m.r);
	if (err)
		return err;
	err = check_attrs(&m);
	if (err)
		goto cleanup;
	err = lbr_opts(&m, &o);
	if (err)
		goto cleanup;
	err = lbrfile__open(cap_path, &cap);
	if (err) {
		pr_warn("%s: cannot read the capture: %s\n", cap_path,
			lbrfile__strerror(err));
		goto cleanup;
	}
	err = perf_lbr__new(cap, cap_path, &o, &m.pl);
	if (err)
		goto cleanup;
	if (!(flags & PERF_MERGE_FORCE))
		err = check_origin(&m, cap, cap_path);
	if (err)
		goto cleanup;
	err = perf_writer__create(out_path, perf_reader__attr_bytes(m.r), &m.w);
	if (err)
		goto cleanup;
	err = add_attrs(&m);
	if (!err)
		err = copy_data(&m);
	if (!err)
		err = write_features(&m);
	if (err)
		goto cleanup;
	err = perf_writer__close(m.w);
	m.w = NULL;
	if (!err && st)
		*st = m.st;
	/* no kallsyms copy without the file it belongs to; the file is whole without one */
	if (!err && kallsyms_path && perf_lbr__save_kallsyms(m.pl, kallsyms_path))
		err = 1;
cleanup:
	/* the encoding thread first: it holds pl */
	perf_lbr_stream__free(m.stream);
	perf_writer__abort(m.w);
	perf_lbr__free(m.pl);
	lbrfile__close(cap);
	perf_reader__close(m.r);
	perf_unzip__free(m.unzip);
	free(m.ids);
	free(m.pos);
	u32_set__free(&m.tids);
	return err;
}

/* A temporary file for a pipe's perf.data; "" when none could be made. */
static int make_tmp(char *path, size_t size)
{
	int fd;

	snprintf(path, size, "%s/lbrsnap-pipe.XXXXXX", tmp_dir());
	fd = mkstemp(path);
	if (fd < 0) {
		pr_warn("%s: cannot create a temporary file: %s\n", path, strerror(errno));
		path[0] = '\0';
		return -errno;
	}
	close(fd);
	return 0;
}

/*
 * Pipes both ways, as perf inject takes them: a pipe-mode input ("-" for standard input, or
 * a file written by `perf record -o -`) is read into a temporary perf.data first, and for
 * "-" as output the merged file is written out in pipe mode. The merge itself needs a file:
 * it writes the feature table last.
 */
int perf_merge(const char *rec_path, const char *cap_path, const char *out_path,
	       const char *kallsyms_path, bool keep_all, struct perf_merge_stats *st)
{
	return perf_merge_flags(rec_path, cap_path, out_path, kallsyms_path, keep_all, 0, st);
}

int perf_merge_flags(const char *rec_path, const char *cap_path, const char *out_path,
		     const char *kallsyms_path, bool keep_all, unsigned int flags,
		     struct perf_merge_stats *st)
{
	bool from_pipe = !strcmp(rec_path, "-"), to_pipe = !strcmp(out_path, "-");
	char in_tmp[PATH_MAX] = "", out_tmp[PATH_MAX] = "";
	const char *rec_name = from_pipe ? "standard input" : rec_path;
	int err, fd;

	if (!from_pipe) {
		err = check_shape(rec_path);
		if (err)
			return err;
	}
	if (from_pipe || perf_pipe__is_pipe_file(rec_path)) {
		err = make_tmp(in_tmp, sizeof(in_tmp));
		if (err)
			return err;
		fd = from_pipe ? 0 : open(rec_path, O_RDONLY | O_CLOEXEC);
		err = fd < 0 ? -errno : perf_pipe__to_file(fd, rec_name, in_tmp);
		if (fd > 0)
			close(fd);
		if (err)
			goto cleanup;
		rec_path = in_tmp;
	}
	if (to_pipe) {
		err = make_tmp(out_tmp, sizeof(out_tmp));
		if (err)
			goto cleanup;
		out_path = out_tmp;
	}
	err = merge_files(rec_path, rec_name, cap_path, out_path, kallsyms_path, keep_all, flags,
			  st);
	/* 1: written without its kallsyms copy, which a pipe never has */
	if (err >= 0 && to_pipe)
		err = perf_pipe__from_file(out_tmp, 1, "standard output") ?: err;
cleanup:
	if (in_tmp[0])
		unlink(in_tmp);
	if (out_tmp[0])
		unlink(out_tmp);
	return err;
}
