// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Records taken while LBR was off on their CPU (API in lbr-stale.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lbrfile/lbrfile.h"
#include "report/lbr-stale.h"

struct tally_ctx {
	const struct lbrfile *f;
	struct lbr_stale *s;
};

static struct lbr_stale_cpu *find_cpu(struct lbr_stale *s, __u32 cpu)
{
	size_t lo = 0, hi = s->nr_cpus;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->cpus[mid].cpu == cpu)
			return &s->cpus[mid];
		if (s->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int count_record(const struct lbr_record *rec, void *ctx)
{
	struct tally_ctx *t = ctx;

	if (lbrfile__lbr_stale(t->f, rec->ev->cpu, rec->ev->time_ns)) {
		/* a stale record's CPU has a gap, so it is in the table */
		find_cpu(t->s, rec->ev->cpu)->records++;
		t->s->records++;
	}
	return 0;
}

int lbr_stale__tally(struct lbrfile *f, struct lbr_stale *out)
{
	size_t i, nr = lbrfile__nr_lbr_gaps(f);
	struct tally_ctx t = { .f = f, .s = out };
	int err;

	memset(out, 0, sizeof(*out));
	if (!nr)
		return 0;
	out->cpus = calloc(nr, sizeof(*out->cpus));
	if (!out->cpus)
		return -ENOMEM;
	/* the reader hands gaps out by CPU, so one pass groups them */
	for (i = 0; i < nr; i++) {
		const struct lbrfile_lbr_gap *g = lbrfile__lbr_gap(f, i);
		struct lbr_stale_cpu *c;

		if (!out->nr_cpus || out->cpus[out->nr_cpus - 1].cpu != g->cpu)
			out->cpus[out->nr_cpus++].cpu = g->cpu;
		c = &out->cpus[out->nr_cpus - 1];
		c->nr_gaps++;
		c->off_ns += g->end_ns - g->start_ns;
	}
	/* in time order: the order the report has them in already */
	err = lbrfile__for_each(f, true, count_record, &t);
	if (err)
		lbr_stale__free(out);
	return err;
}

void lbr_stale__free(struct lbr_stale *s)
{
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}

const char *lbr_stale__duration(__u64 ns, char *buf, size_t len)
{
	if (ns < 1000000000ULL)
		snprintf(buf, len, "%llu.%03llu ms", (unsigned long long)(ns / 1000000),
			 (unsigned long long)(ns / 1000 % 1000));
	else
		snprintf(buf, len, "%llu.%03llu s", (unsigned long long)(ns / 1000000000),
			 (unsigned long long)(ns / 1000000 % 1000));
	return buf;
}

int lbr_stale__warn(FILE *out, const char *prefix, const char *path)
{
	struct lbrfile *f = NULL;
	struct lbr_stale s;
	char dur[32];
	size_t i;
	int err;

	err = lbrfile__open(path, &f);
	if (!err)
		err = lbr_stale__tally(f, &s);
	lbrfile__close(f);
	if (err) {
		/* the capture knew there were gaps: say so even without the details */
		fprintf(out, "[ %s: WARNING: LBR was off on some CPU; cannot read %s back to say "
			"where: %s ]\n", prefix, path, strerror(-err));
		return err;
	}
	if (!s.nr_cpus)
		return 0;
	fprintf(out, "[ %s: WARNING: LBR was off", prefix);
	for (i = 0; i < s.nr_cpus; i++) {
		const struct lbr_stale_cpu *c = &s.cpus[i];

		fprintf(out, "%s on cpu %u for up to %s (%u interval%s)", i ? "," : "", c->cpu,
			lbr_stale__duration(c->off_ns, dur, sizeof(dur)), c->nr_gaps,
			c->nr_gaps == 1 ? "" : "s");
	}
	fprintf(out, "; %llu record%s taken then may have stale branches ]\n",
		(unsigned long long)s.records, s.records == 1 ? "" : "s");
	lbr_stale__free(&s);
	return 0;
}
