// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf-mkcapture OUT < SPEC: writes a synthetic lbrsnap.data through lbrfile_writer, for the
 * perf.data tests (no machine here has LBR). SPEC lines:
 *
 *   meta KEY VALUE
 *   ap SPEC TARGET [ret [KIND SIZE TYPE]]
 *   rec AP TIME CPU PID TID COMM RET [br=FROM:TO:FLAGS,...] [st=ADDR,...]
 *   loss AP CAUSE COUNT
 *   gap CPU START END ENABLED RUNNING	(an interval with LBR off on CPU, lbrfile.h)
 *   kallsyms PATH
 *
 * Numbers are C literals (0x... for addresses); br entries are listed most recent first,
 * st entries innermost first, as the capture stores them. An attach point with "ret" has a
 * return value of KIND (signed, unsigned, bool, pointer), SIZE bytes and C type TYPE (the
 * rest of the line, e.g. "struct file *"); "ret" alone is a signed 8-byte long. RET is
 * stored as given: already extended to 64 bits, as the BPF program stores it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbrfile/lbrfile.h"
#include "lbrfile/ret-value.h"

static int add_record(struct lbrfile_writer *w, char *args)
{
	__u64 buf[(sizeof(struct lbrsnap_event) + LBRSNAP_MAX_BRANCHES * 24 +
		   LBRSNAP_MAX_STACK * 8) / 8] = { 0 };
	struct lbrsnap_event *ev = (void *)buf;
	struct lbrsnap_branch br[LBRSNAP_MAX_BRANCHES];
	__u64 st[LBRSNAP_MAX_STACK];
	char comm[64], ret[32], *tok, *p, *save;
	unsigned long long time;
	unsigned int ap, cpu, pid, tid;

	if (sscanf(args, "%u %llu %u %u %u %63s %31s", &ap, &time, &cpu, &pid, &tid, comm,
		   ret) != 7)
		return -EINVAL;
	ev->time_ns = time;
	/* -17, 4294967279, 0xffff888103a4c000: all 64 bits as written */
	ev->ret = ret[0] == '-' ? strtoll(ret, NULL, 0) : (long long)strtoull(ret, NULL, 0);
	ev->ap = ap;
	ev->cpu = cpu;
	ev->pid = pid;
	ev->tid = tid;
	memcpy(ev->comm, comm, strnlen(comm, LBRSNAP_COMM_LEN - 1));
	ev->flags = LBRSNAP_EV_HAS_RET;
	ev->lbr_ret = -ENOENT;
	for (tok = strtok_r(args, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (!strncmp(tok, "br=", 3)) {
			for (p = tok + 3; *p && ev->nr_branches < LBRSNAP_MAX_BRANCHES; p++) {
				struct lbrsnap_branch *b = &br[ev->nr_branches++];

				b->from = strtoull(p, &p, 0);
				b->to = strtoull(p + 1, &p, 0);
				b->flags = strtoull(p + 1, &p, 0);
				if (*p != ',')
					break;
			}
			ev->lbr_ret = ev->nr_branches * 24;
		} else if (!strncmp(tok, "st=", 3)) {
			for (p = tok + 3; *p && ev->nr_stack < LBRSNAP_MAX_STACK; p++) {
				st[ev->nr_stack++] = strtoull(p, &p, 0);
				if (*p != ',')
					break;
			}
		}
	}
	memcpy(ev + 1, br, ev->nr_branches * sizeof(br[0]));
	memcpy((char *)(ev + 1) + ev->nr_branches * sizeof(br[0]), st, ev->nr_stack * 8);
	return lbrfile_writer__record(w, buf, lbrsnap_event_size(ev->nr_branches, ev->nr_stack));
}

/* "ret [KIND SIZE TYPE]" of an ap line into ap */
static int parse_ret(const char *args, struct lbr_attach_point *ap, char *type, size_t len)
{
	char kind[16];
	unsigned int size, k;
	int n = 0;

	ap->flags = LBRFILE_AP_HAS_RET;
	if (sscanf(args, "ret %15s %u %n", kind, &size, &n) != 2 || !n) {
		ap->ret_kind = LBRSNAP_RET_SIGNED;
		ap->ret_size = 8;
		ap->ret_type = "long";
		return 0;
	}
	for (k = LBRSNAP_RET_SIGNED; k <= LBRSNAP_RET_POINTER; k++) {
		if (!strcmp(kind, lbr_ret__kind_name(k)))
			break;
	}
	if (k > LBRSNAP_RET_POINTER || (size != 1 && size != 2 && size != 4 && size != 8))
		return -EINVAL;
	snprintf(type, len, "%s", args + n);
	type[strcspn(type, "\n")] = '\0';
	ap->ret_kind = k;
	ap->ret_size = size;
	ap->ret_type = type;
	return 0;
}

static int add_kallsyms(struct lbrfile_writer *w, const char *path)
{
	size_t len = 0, cap = 1 << 20, n;
	char *text = malloc(cap);
	FILE *f = fopen(path, "r");
	int err;

	if (!f || !text) {
		free(text);
		if (f)
			fclose(f);
		return -errno;
	}
	while ((n = fread(text + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			char *t = realloc(text, cap *= 2);

			if (!t) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = t;
		}
	}
	fclose(f);
	err = lbrfile_writer__kallsyms(w, text, len);
	free(text);
	return err;
}

int main(int argc, char **argv)
{
	struct lbrfile_writer *w;
	char line[8192], a[1024], b[1024], c[64], type[256];
	unsigned long long n1, n2, n3;
	struct lbrfile_lbr_gap gap = {};
	struct lbr_attach_point ap;
	int err = 0, nr_aps = 0, rest;

	if (argc != 2) {
		fprintf(stderr, "usage: perf-mkcapture OUT < SPEC\n");
		return 2;
	}
	if (lbrfile_writer__create(argv[1], &w))
		return 1;
	while (!err && fgets(line, sizeof(line), stdin)) {
		c[0] = '\0';
		if (!strncmp(line, "meta ", 5) && sscanf(line + 5, "%1023s %1023[^\n]", a, b) == 2) {
			err = lbrfile_writer__meta(w, a, "%s", b);
		} else if (!strncmp(line, "ap ", 3) && sscanf(line + 3, "%1023s %1023s %n%63s", a, b,
								&rest, c) >= 2) {
			memset(&ap, 0, sizeof(ap));
			ap.id = nr_aps++;
			ap.kind = !strncmp(a, "fexit:", 6) ? LBRSNAP_KIND_FEXIT :
				  !strncmp(a, "tp_btf:", 7) ? LBRSNAP_KIND_TP_BTF :
				  LBRSNAP_KIND_RAW_TP;
			ap.spec = a;
			ap.target = b;
			if (!strcmp(c, "ret"))
				err = parse_ret(line + 3 + rest, &ap, type, sizeof(type));
			if (!err)
				err = lbrfile_writer__attach(w, &ap);
		} else if (!strncmp(line, "rec ", 4)) {
			err = add_record(w, line + 4);
		} else if (!strncmp(line, "loss ", 5) &&
			   sscanf(line + 5, "%lli %lli %lli", (long long *)&n1, (long long *)&n2,
				  (long long *)&n3) == 3) {
			err = lbrfile_writer__loss(w, n1, n2, n3);
		} else if (!strncmp(line, "gap ", 4) && sscanf(line + 4, "%u %llu %llu %llu %llu",
							      &gap.cpu, &gap.start_ns, &gap.end_ns,
							      &gap.enabled_ns,
							      &gap.running_ns) == 5) {
			err = lbrfile_writer__lbr_gap(w, &gap);
		} else if (!strncmp(line, "kallsyms ", 9) && sscanf(line + 9, "%1023s", a) == 1) {
			err = add_kallsyms(w, a);
		} else if (line[0] != '#' && line[0] != '\n') {
			fprintf(stderr, "perf-mkcapture: bad line: %s", line);
			err = -EINVAL;
		}
	}
	if (err) {
		fprintf(stderr, "perf-mkcapture: %s\n", strerror(-err));
		lbrfile_writer__abort(w);
		return 1;
	}
	return lbrfile_writer__close(w) ? 1 : 0;
}
