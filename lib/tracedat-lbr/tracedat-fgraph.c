// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Call traces as ftrace function-graph events (tracedat-fgraph.h). Fields are written where
 * libtraceevent reads them in the format text, with the size the text gives.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <traceevent/event-parse.h>
#include "lbrfile/ret-value.h"
#include "tracedat-lbr/tracedat-fgraph.h"

#define FGRAPH_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

const char tracedat_fgraph_entry_6_1[] =
	"name: funcgraph_entry\nID: 11\nformat:\n" FGRAPH_COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

const char tracedat_fgraph_exit_6_1[] =
	"name: funcgraph_exit\nID: 10\nformat:\n" FGRAPH_COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

/* META values are one line: backslash and newline escaped */
static char *meta_escape(const char *s, size_t len)
{
	char *out = malloc(2 * len + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < len && s[i]; i++) {
		if (s[i] == '\\' || s[i] == '\n') {
			*o++ = '\\';
			*o++ = s[i] == '\n' ? 'n' : '\\';
		} else {
			*o++ = s[i];
		}
	}
	*o = 0;
	return out;
}

static char *meta_unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s == '\\' && (s[1] == 'n' || s[1] == '\\')) {
			*o++ = *++s == 'n' ? '\n' : '\\';
			continue;
		}
		*o++ = *s;
	}
	*o = 0;
	return out;
}

/* A format file's text (NULL: tracefs has none), *size its length */
static char *read_format(const char *file, int *size)
{
	char *text;

	*size = 0;
	text = tracefs_instance_file_read(NULL, file, size);
	if (text && *size > 0)
		return text;
	free(text);
	return NULL;
}

static int save_one(struct lbrfile_writer *w, const char *key, const char *text, int size)
{
	char *esc = meta_escape(text, size);
	int err;

	if (!esc)
		return -ENOMEM;
	err = lbrfile_writer__meta(w, key, "%s", esc) ? -ENOMEM : 0;
	free(esc);
	return err;
}

int tracedat_fgraph__save_meta(struct lbrfile_writer *w, char *why, size_t why_len)
{
	static const char entry_file[] = "events/ftrace/funcgraph_entry/format";
	static const char exit_file[] = "events/ftrace/funcgraph_exit/format";
	int en_size, ex_size, err;
	struct tracedat_fgraph g;
	char *en, *ex;

	*why = 0;
	en = read_format(entry_file, &en_size);
	ex = read_format(exit_file, &ex_size);
	/* both or neither: a capture with one would mix two kernels' layouts */
	if (!tracefs_tracing_dir())
		snprintf(why, why_len, "tracefs is not mounted");
	else if (!en || !ex)
		snprintf(why, why_len, "tracefs has no %s, as on a kernel without the function "
			 "graph tracer", en ? exit_file : entry_file);
	else if (tracedat_fgraph__parse(&g, en, ex) == -EINVAL)
		snprintf(why, why_len, "tracefs's funcgraph formats are not a layout lbrsnap "
			 "can write: %s", g.why);
	else
		tracedat_fgraph__free(&g);
	/* converts name why they write the built-in layout */
	if (*why)
		err = lbrfile_writer__meta(w, TRACEDAT_FGRAPH_META_WHY, "%s", why) ? -ENOMEM :
		      -ENOENT;
	else
		err = save_one(w, TRACEDAT_FGRAPH_META_ENTRY, en, en_size) ?:
		      save_one(w, TRACEDAT_FGRAPH_META_EXIT, ex, ex_size);
	free(en);
	free(ex);
	return err;
}

static int find_field(struct tep_event *ev, const char *name, struct tracedat_fgraph_field *f,
		      bool need, char *why, size_t why_len)
{
	struct tep_format_field *tf = tep_find_field(ev, name);

	f->off = tf ? tf->offset : 0;
	f->size = tf ? tf->size : 0;
	/* a field wider than 8 bytes or past the payload is not one this encoder can fill */
	if (tf && (tf->size > 8 || tf->offset < 8 || tf->offset > 4096)) {
		snprintf(why, why_len, "%s's field '%s' is %d bytes at offset %d", ev->name, name,
			 tf->size, tf->offset);
		return -EINVAL;
	}
	if (need && !tf) {
		snprintf(why, why_len, "%s has no field '%s'", ev->name, name);
		return -EINVAL;
	}
	return 0;
}

/* The payload's length: its last field's end, 8-aligned as the kernel reserves it */
static unsigned int event_len(struct tep_event *ev)
{
	struct tep_format_field *f;
	unsigned int end = 8;

	for (f = ev->format.fields; f; f = f->next) {
		if ((unsigned int)(f->offset + f->size) > end)
			end = f->offset + f->size;
	}
	return (end + 7) & ~7U;
}

int tracedat_fgraph__parse(struct tracedat_fgraph *g, const char *entry, const char *exit)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *en = NULL, *ex = NULL;
	int err = -EINVAL;

	memset(g, 0, sizeof(*g));
	if (!tep)
		return -ENOMEM;
	if (tep_parse_event(tep, entry, strlen(entry), "ftrace") ||
	    tep_parse_event(tep, exit, strlen(exit), "ftrace")) {
		snprintf(g->why, sizeof(g->why), "a format does not parse");
		goto cleanup;
	}
	en = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	ex = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");
	if (!en || !ex) {
		snprintf(g->why, sizeof(g->why), "no format of ftrace's %s",
			 en ? "funcgraph_exit" : "funcgraph_entry");
		goto cleanup;
	}
	err = find_field(en, "func", &g->e_func, true, g->why, sizeof(g->why)) ?:
	      find_field(en, "depth", &g->e_depth, true, g->why, sizeof(g->why)) ?:
	      find_field(ex, "func", &g->x_func, true, g->why, sizeof(g->why)) ?:
	      find_field(ex, "depth", &g->x_depth, true, g->why, sizeof(g->why)) ?:
	      find_field(ex, "overrun", &g->x_overrun, false, g->why, sizeof(g->why)) ?:
	      find_field(ex, "calltime", &g->x_calltime, true, g->why, sizeof(g->why)) ?:
	      find_field(ex, "rettime", &g->x_rettime, true, g->why, sizeof(g->why));
	if (err)
		goto cleanup;
	g->entry_id = en->id;
	g->exit_id = ex->id;
	g->entry_len = event_len(en);
	g->exit_len = event_len(ex);
	g->entry_text = strdup(entry);
	g->exit_text = strdup(exit);
	err = g->entry_text && g->exit_text ? 0 : -ENOMEM;
cleanup:
	tep_free(tep);
	if (err)
		tracedat_fgraph__free(g);
	return err;
}

int tracedat_fgraph__from_capture(struct tracedat_fgraph *g, const struct lbrfile *f)
{
	const char *en = lbrfile__meta(f, TRACEDAT_FGRAPH_META_ENTRY);
	const char *ex = lbrfile__meta(f, TRACEDAT_FGRAPH_META_EXIT);
	char *entry, *exit;
	int err;

	if (!en || !ex) {
		const char *why = lbrfile__meta(f, TRACEDAT_FGRAPH_META_WHY);

		err = tracedat_fgraph__parse(g, tracedat_fgraph_entry_6_1, tracedat_fgraph_exit_6_1);
		g->builtin = true;
		/* record saves both or neither: one alone is a damaged capture's */
		if (en || ex)
			snprintf(g->why, sizeof(g->why), "META has %s but not %s",
				 en ? TRACEDAT_FGRAPH_META_ENTRY : TRACEDAT_FGRAPH_META_EXIT,
				 en ? TRACEDAT_FGRAPH_META_EXIT : TRACEDAT_FGRAPH_META_ENTRY);
		else
			snprintf(g->why, sizeof(g->why), "%s", why ?: "tracefs had none where it "
				 "was recorded");
		return err;
	}
	entry = meta_unescape(en);
	exit = meta_unescape(ex);
	err = entry && exit ? tracedat_fgraph__parse(g, entry, exit) : -ENOMEM;
	free(entry);
	free(exit);
	return err;
}

void tracedat_fgraph__free(struct tracedat_fgraph *g)
{
	free(g->entry_text);
	free(g->exit_text);
	g->entry_text = g->exit_text = NULL;
}

static const char *calls_meta(const struct lbrfile *f, __u32 ap)
{
	char key[32];

	snprintf(key, sizeof(key), "calls.%u", ap);
	return lbrfile__meta(f, key);
}

bool tracedat_fgraph__capture_has_calls(const struct lbrfile *f)
{
	size_t ap;

	for (ap = 0; ap < lbrfile__nr_attach(f); ap++) {
		if (calls_meta(f, ap))
			return true;
	}
	return false;
}

static bool ap_is_user(const struct lbrfile *f, __u32 ap)
{
	const struct lbr_attach_point *a = lbrfile__attach(f, ap);

	return a && (a->kind == LBRSNAP_KIND_UPROBE || a->kind == LBRSNAP_KIND_URETPROBE);
}

static __u64 user_addr(__u32 ap, size_t id)
{
	return TRACEDAT_FGRAPH_USER_BASE + ap * TRACEDAT_FGRAPH_USER_AP + id * 16;
}

static size_t nr_names(const char *list)
{
	size_t n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

int tracedat_fgraph__addrs(const struct lbrfile *f, const struct ksyms *ks, __u32 ap,
			   __u64 **addrs, size_t *nr)
{
	const char *list = calls_meta(f, ap), *p;
	bool user = ap_is_user(f, ap);
	const struct ksym *sym;
	char name[256];
	size_t i, n;

	*addrs = NULL;
	*nr = 0;
	if (!list)
		return 0;
	n = nr_names(list);
	*addrs = calloc(n, sizeof(**addrs));
	if (!*addrs)
		return -ENOMEM;
	for (i = 0, p = list; i < n; i++) {
		size_t len = strcspn(p, ",");

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		p += len + (p[len] == ',');
		if (user) {
			(*addrs)[i] = user_addr(ap, i);
			continue;
		}
		sym = ks && name[0] ? ksyms__by_name(ks, name) : NULL;
		(*addrs)[i] = sym ? sym->addr : 0;
	}
	*nr = n;
	return 0;
}

/* The file a uretprobe:FILE:F spec names, its base name */
static void spec_file(const char *spec, char *buf, size_t len)
{
	const char *p = strchr(spec, ':'), *end = strrchr(spec, ':'), *base;

	if (!p || p == end) {
		snprintf(buf, len, "user");
		return;
	}
	p++;
	for (base = p; base < end; base++) {
		if (*base == '/')
			p = base + 1;
	}
	snprintf(buf, len, "%.*s", (int)(end - p), p);
}

int tracedat_fgraph__user_kallsyms(const struct lbrfile *f, struct tracedat_blob *ks)
{
	const struct lbr_attach_point *a;
	char line[600], file[256];
	const char *list, *p;
	size_t ap, i, n;
	int err = 0;

	for (ap = 0; ap < lbrfile__nr_attach(f) && !err; ap++) {
		list = calls_meta(f, ap);
		a = lbrfile__attach(f, ap);
		if (!list || !a || !ap_is_user(f, ap))
			continue;
		spec_file(a->spec, file, sizeof(file));
		n = nr_names(list);
		/* kallsyms text ends in a newline; a file's without one would join two lines */
		if (ks->len && ks->data[ks->len - 1] != '\n')
			err = tracedat_blob__append(ks, "\n", 1);
		for (i = 0, p = list; i <= n && !err; i++) {
			size_t len = strcspn(p, ",");
			int w;

			if (i < n)
				w = snprintf(line, sizeof(line), "%016llx t %.*s\t[%s]\n",
					     (unsigned long long)user_addr(ap, i), (int)len, p,
					     file);
			else
				w = snprintf(line, sizeof(line), "%016llx t %s\t[%s]\n",
					     (unsigned long long)user_addr(ap, i),
					     TRACEDAT_FGRAPH_END_MARK, file);
			p += len + (p[len] == ',');
			err = tracedat_blob__append(ks, line, w < (int)sizeof(line) ? w :
						    (int)sizeof(line) - 1);
		}
	}
	return err;
}

static void put_field(unsigned char *buf, const struct tracedat_fgraph_field *f, __u64 v)
{
	/* little endian: the low bytes of v are the field's */
	if (f->size)
		memcpy(buf + f->off, &v, f->size);
}

static void put_common(unsigned char *buf, int id, __u32 tid)
{
	__u16 type = id;

	memcpy(buf, &type, 2);
	buf[2] = 0;
	buf[3] = 0;
	memcpy(buf + 4, &tid, 4);
}

struct fg_emit {
	const struct tracedat_fgraph *g;
	const struct lbr_record_view *v;
	const __u64 *addrs;
	size_t nr_addrs;
	const __u64 *frame0;	/* frame 0's address, NULL: addrs[0] */
	tracedat_emit_fn fn;
	void *ctx;
	__u64 last;		/* the time stamp of the event before */
	int n;
};

static __u64 fg_ts(struct fg_emit *e, __u64 want)
{
	__u64 end = e->v->ev->time_ns;

	if (want > end)
		want = end;
	if (want < e->last)
		want = e->last;
	e->last = want;
	return want;
}

static __u64 fg_addr(const struct fg_emit *e, const struct lbrsnap_call *c)
{
	if (!c->func && e->frame0)
		return *e->frame0;
	return c->func < e->nr_addrs ? e->addrs[c->func] : 0;
}

static int fg_entry(struct fg_emit *e, const struct lbrsnap_call *c)
{
	unsigned char buf[4096] __attribute__((aligned(8)));

	memset(buf, 0, e->g->entry_len);
	put_common(buf, e->g->entry_id, e->v->ev->tid);
	put_field(buf, &e->g->e_func, fg_addr(e, c));
	put_field(buf, &e->g->e_depth, c->depth);
	e->n++;
	return e->fn(e->ctx, fg_ts(e, c->start_ns), buf, e->g->entry_len);
}

static int fg_exit(struct fg_emit *e, const struct lbrsnap_call *c)
{
	unsigned char buf[4096] __attribute__((aligned(8)));

	/* an exit that never came has no event: trace-cmd shows the call open */
	if (!(c->flags & LBRSNAP_CALL_RETURNED))
		return 0;
	memset(buf, 0, e->g->exit_len);
	put_common(buf, e->g->exit_id, e->v->ev->tid);
	put_field(buf, &e->g->x_func, fg_addr(e, c));
	put_field(buf, &e->g->x_depth, c->depth);
	put_field(buf, &e->g->x_overrun, 0);
	put_field(buf, &e->g->x_calltime, c->start_ns);
	put_field(buf, &e->g->x_rettime, c->end_ns);
	e->n++;
	return e->fn(e->ctx, fg_ts(e, c->end_ns), buf, e->g->exit_len);
}

int tracedat_fgraph__encode(const struct tracedat_fgraph *g, const struct lbr_record_view *v,
			    const __u64 *addrs, size_t nr_addrs, const __u64 *frame0,
			    tracedat_emit_fn fn, void *ctx)
{
	struct fg_emit e = { .g = g, .v = v, .addrs = addrs, .nr_addrs = nr_addrs,
			     .frame0 = frame0, .fn = fn, .ctx = ctx };
	unsigned int open[LBRSNAP_MAX_CALLS], nr_open = 0, i;
	const struct lbrsnap_calls *cs = v->calls;
	int err = 0;

	if (!cs || !cs->nr)
		return 0;
	if (cs->nr > LBRSNAP_MAX_CALLS || g->entry_len > 4096 || g->exit_len > 4096)
		return -EINVAL;
	/* entry order with depths: a call's entry closes the open calls at its depth or deeper */
	for (i = 0; i < cs->nr && !err; i++) {
		const struct lbrsnap_call *c = &cs->call[i];

		while (nr_open && !err && cs->call[open[nr_open - 1]].depth >= c->depth)
			err = fg_exit(&e, &cs->call[open[--nr_open]]);
		if (!err)
			err = fg_entry(&e, c);
		open[nr_open++] = i;
	}
	while (nr_open && !err)
		err = fg_exit(&e, &cs->call[open[--nr_open]]);
	return err ?: e.n;
}

const char tracedat_fgraph_calls_format[] =
	"name: calls\nID: 29999\nformat:\n" FGRAPH_COMMON
	"\tfield:__data_loc char[] attach;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int nr;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int origin;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int dropped;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] origin_func;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] origin_ret;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long span_ns;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"%s nr=%u dropped=%u origin=%s%s%s\", __get_str(attach), REC->nr, "
	"REC->dropped, __get_str(origin_func), REC->origin >= 0 ? \" ret=\" : \"\", "
	"__get_str(origin_ret)\n";

/* A string at *off as a __data_loc word at field offset at (NUL included) */
static int put_str(unsigned char *buf, size_t size, int at, unsigned int *off, const char *s)
{
	size_t len = strlen(s) + 1;
	__u32 loc;

	if (*off + len > size || len > 0xffff)
		return -ENAMETOOLONG;
	memcpy(buf + *off, s, len);
	loc = (__u32)len << 16 | *off;
	memcpy(buf + at, &loc, 4);
	*off += len;
	return 0;
}

int tracedat_fgraph__encode_calls(const struct lbr_record_view *v, tracedat_emit_fn fn,
				  void *ctx)
{
	unsigned char buf[8192] __attribute__((aligned(8)));
	const struct lbrsnap_calls *cs = v->calls;
	char func[256] = "", ret[LBR_RET_LEN] = "";
	unsigned int off = 40;
	__u64 span = 0;
	__s32 origin = -1;
	int err;

	if (!cs || !cs->nr)
		return 0;
	if (v->origin >= 0 && v->origin < cs->nr) {
		const struct lbrsnap_call *o = &cs->call[v->origin];

		origin = v->origin;
		lbr_record_view__call_name(v, origin, func, sizeof(func));
		if (o->flags & LBRSNAP_CALL_HAS_RET)
			lbr_ret__format(o->ret_kind, o->ret, ret, sizeof(ret));
	}
	if (cs->call[0].start_ns < v->ev->time_ns)
		span = v->ev->time_ns - cs->call[0].start_ns;
	memset(buf, 0, 40);
	put_common(buf, TRACEDAT_ID_CALLS, v->ev->tid);
	memcpy(buf + 12, &(__u32){ cs->nr }, 4);
	memcpy(buf + 16, &origin, 4);
	memcpy(buf + 20, &cs->dropped, 4);
	memcpy(buf + 32, &span, 8);
	err = put_str(buf, sizeof(buf), 8, &off, v->attach) ?:
	      put_str(buf, sizeof(buf), 24, &off, origin >= 0 ? func : "none") ?:
	      put_str(buf, sizeof(buf), 28, &off, ret);
	return err ?: fn(ctx, v->ev->time_ns, buf, off);
}
