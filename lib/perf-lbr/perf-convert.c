// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A capture as a standalone perf.data: the lbr events (perf-lbr.c) and the header features
 * perf shows or needs: EVENT_DESC for the event names, BRANCH_STACK for the branch views,
 * CLOCKID and CLOCK_DATA because the timestamps are CLOCK_MONOTONIC (so `perf script -F tod`
 * works), TRACING_DATA for the record fields, and the capture host's identity.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "util/print.h"
#include "perf-lbr/perf-tracing-data.h"
#include "perf-lbr/perf-event-desc.h"
#include "perf/perf-data-writer.h"
#include "util/version.h"
#include "perf-lbr/perf-convert.h"
#include "perf-lbr/perf-lbr.h"

static int write_record(const struct perf_event_header *rec, __u64 time, void *ctx)
{
	return perf_writer__write(ctx, rec);
}

static int feature_string(struct perf_writer *w, int bit, const char *s)
{
	char buf[4 + 4096 + 8];

	if (!s || strlen(s) > 4096)
		return 0;
	return perf_writer__feature(w, bit, buf, perf_feat__put_string(buf, s));
}

/* Taken from META; the capture host's values, not this one's. */
static int write_host_features(struct perf_writer *w, struct lbrfile *cap)
{
	const char *cpus = lbrfile__meta(cap, "nr_cpus");
	const char *cmdline = lbrfile__meta(cap, "cmdline");
	char buf[4 + 4 + 4096 + 8];
	struct utsname u;
	__u32 nr[2];
	int err;

	err = feature_string(w, PERF_FEAT_HOSTNAME, lbrfile__meta(cap, "hostname"));
	if (!err)
		err = feature_string(w, PERF_FEAT_OSRELEASE, lbrfile__meta(cap, "release"));
	if (!err)
		err = feature_string(w, PERF_FEAT_VERSION, "lbrsnap " LBRSNAP_VERSION);
	if (!err && !uname(&u))
		err = feature_string(w, PERF_FEAT_ARCH, lbrfile__meta(cap, "machine") ?
				     lbrfile__meta(cap, "machine") : u.machine);
	if (!err && cpus && atoi(cpus) > 0) {
		nr[0] = nr[1] = atoi(cpus);
		err = perf_writer__feature(w, PERF_FEAT_NRCPUS, nr, sizeof(nr));
	}
	if (!err && cmdline && strlen(cmdline) <= 4096) {
		*(__u32 *)buf = 1;
		err = perf_writer__feature(w, PERF_FEAT_CMDLINE, buf,
					   4 + perf_feat__put_string(buf + 4, cmdline));
	}
	return err;
}

/*
 * CLOCK_DATA pairs a CLOCK_MONOTONIC reading with CLOCK_REALTIME taken at the same moment,
 * which is what `perf script -F tod` converts with.
 */
static int write_clock_features(struct perf_writer *w, struct lbrfile *cap)
{
	const char *ref = lbrfile__meta(cap, "time_ref");	/* "MONO_NS REALTIME_NS" */
	unsigned long long mono, real;
	__u64 res = 1, data[3];
	int err;

	err = perf_writer__feature(w, PERF_FEAT_CLOCKID, &res, sizeof(res));
	if (err || !ref || sscanf(ref, "%llu %llu", &mono, &real) != 2)
		return err;
	data[0] = 1ULL << 32 | 1;	/* version 1, clockid CLOCK_MONOTONIC */
	data[1] = real;
	data[2] = mono;
	return perf_writer__feature(w, PERF_FEAT_CLOCK_DATA, data, sizeof(data));
}

static int write_lbr_features(struct perf_writer *w, struct perf_lbr *pl)
{
	__u64 times[2] = { perf_lbr__first_time(pl), perf_lbr__last_time(pl) };
	size_t len;
	void *d;
	int err;

	err = perf_lbr__tracing_data(pl, NULL, 0, &d, &len);
	if (err)
		return err;
	err = perf_writer__feature(w, PERF_FEAT_TRACING_DATA, d, len);
	free(d);
	if (err)
		return err;
	err = perf_lbr__event_desc(pl, NULL, 0, 0, &d, &len);
	if (err)
		return err;
	err = perf_writer__feature(w, PERF_FEAT_EVENT_DESC, d, len);
	free(d);
	if (!err && perf_lbr__has_branches(pl))
		err = perf_writer__feature(w, PERF_FEAT_BRANCH_STACK, NULL, 0);
	if (!err)
		err = perf_writer__feature(w, PERF_FEAT_SAMPLE_TIME, times, sizeof(times));
	return err;
}

int perf_convert(const char *cap_path, const char *out_path, const char *kallsyms_path,
		 bool keep_all)
{
	struct perf_lbr_opts o = { .first_id = 1, .first_tp_id = 1, .sample_id_all = true,
				     .dummy = true, .keep_all = keep_all };
	struct perf_writer *w = NULL;
	struct lbrfile *cap = NULL;
	struct perf_lbr *pl = NULL;
	size_t i;
	__u64 id;
	int err;

	err = lbrfile__open(cap_path, &cap);
	if (err) {
		pr_warn("%s: cannot read the capture: %s\n", cap_path,
			lbrfile__strerror(err));
		return err;
	}
	err = perf_lbr__new(cap, cap_path, &o, &pl);
	if (err)
		goto cleanup;
	err = perf_writer__create(out_path, PERF_ATTR_WRITE_SIZE, &w);
	if (err)
		goto cleanup;
	for (i = 0; i < perf_lbr__nr_events(pl); i++) {
		id = perf_lbr__id(pl, i);
		err = perf_writer__add_attr(w, perf_lbr__attr(pl, i), &id, 1);
		if (err)
			goto cleanup;
	}
	err = perf_lbr__emit(pl, true, NULL, write_record, w);
	if (!err)
		err = write_lbr_features(w, pl);
	if (!err)
		err = write_host_features(w, cap);
	if (!err)
		err = write_clock_features(w, cap);
	if (err)
		goto cleanup;
	err = perf_writer__close(w);
	w = NULL;
	/* no kallsyms copy without the file it belongs to; the file is whole without one */
	if (!err && kallsyms_path && perf_lbr__save_kallsyms(pl, kallsyms_path))
		err = 1;
cleanup:
	/* the reader, the writer and the kallsyms copy name their own errors */
	if (err == -ENOMEM)
		pr_warn("%s: cannot write: %s\n", out_path, strerror(-err));
	perf_writer__abort(w);
	perf_lbr__free(pl);
	lbrfile__close(cap);
	return err;
}
