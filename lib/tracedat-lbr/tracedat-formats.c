// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbr event formats. Arrays are "__data_loc u64[]" because libtraceevent sizes array
 * elements by type name and knows u64 but not "unsigned long long". A __data_loc word is
 * (length << 16) | offset from the start of the record.
 *
 * The events show what lbrsnap report shows: the return value as its type reads (ret_str,
 * from lbr_ret__format(); ret and ret_kind hold the value and its kind) and the branches
 * and frames without the tracing path's (trim.h), whose count is "trimmed" and whose
 * addresses stay in tracing_entries / tracing_ips.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "arg-value.h"
#include "ret-value.h"
#include "trim.h"
#include "tracedat-formats.h"

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define PRINT_U64_ARRAY(f) \
	"__print_array(__get_dynamic_array(" f "), __get_dynamic_array_len(" f ") / 8, 8)"

/* Payload layouts; the format texts below describe exactly these offsets. */
struct lbr_common {
	__u16 type;
	__u8 flags;
	__u8 preempt_count;
	__s32 pid;
};

struct lbr_snapshot_ev {
	struct lbr_common c;
	__u32 ap;
	__u32 nr;		/* entries captured */
	__s64 ret;
	__u32 flags;
	__s32 lbr_ret;
	__u32 hook;		/* __data_loc char[] */
	__u32 entries;		/* __data_loc u64[]: from, to, flags per entry, tracing path left out */
	__u32 ret_str;		/* __data_loc char[]: lbr_ret__format(), "" without a value */
	__u32 tracing_entries;	/* __data_loc u64[]: the tracing path's (newest) entries */
	__u16 trimmed;		/* their number */
	__u8 ret_kind;		/* enum lbrsnap_ret_kind */
	__u8 has_call;		/* call holds the arguments */
	__u32 call;		/* __data_loc char[]: "openat(dfd=-100, ...)", "" without */
};

struct lbr_branch_ev {
	struct lbr_common c;
	__u64 from;
	__u64 to;
	__u64 flags;
	__u16 idx;
	__u16 nr;
	__u32 ap;
};

struct lbr_stack_ev {
	struct lbr_common c;
	__u32 ap;
	__u32 nr;		/* frames captured */
	__s32 stack_err;
	__u32 hook;		/* __data_loc char[] */
	__u32 ips;		/* __data_loc u64[]: tracing path left out */
	__u32 tracing_ips;	/* __data_loc u64[]: the tracing path's (innermost) frames */
	__u16 trimmed;		/* their number */
	__u16 pad;
	__u32 ips_hex;		/* __data_loc char[]: ips as "0xffffffff81... 0x...", printed */
};

struct lbr_user_stack_ev {
	struct lbr_common c;
	__u32 ap;
	__u32 nr;		/* frames captured */
	__s32 ustack_err;
	__u32 hook;		/* __data_loc char[] */
	__u32 ips;		/* __data_loc u64[] */
	__u32 frames;		/* __data_loc char[]: their names, " <- " between them */
	__u32 pid;		/* the process, whose maps name the addresses */
	__u32 pad;
};

static const char *const formats[TRACEDAT_NR_FORMATS] = {
	"name: branch_snapshot\nID: 30000\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int ap;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int nr;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:long long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned int flags;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int lbr_ret;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] hook;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc u64[] entries;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] ret_str;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc u64[] tracing_entries;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned short trimmed;\toffset:48;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char ret_kind;\toffset:50;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char has_call;\toffset:51;\tsize:1;\tsigned:0;\n"
	"\tfield:__data_loc char[] call;\toffset:52;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%s%s%s%s%s nr=%u trimmed=%u entries=%s\", __get_str(hook), "
	"REC->has_call ? \" \" : \"\", __get_str(call), "
	"REC->ret_kind ? \" ret=\" : \"\", __get_str(ret_str), REC->nr, REC->trimmed, "
	PRINT_U64_ARRAY("entries") "\n",

	"name: branch\nID: 30001\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long long from;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long to;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long flags;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned short idx;\toffset:32;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned short nr;\toffset:34;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned int ap;\toffset:36;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"[%u/%u] %pS -> %pS flags=0x%llx\", REC->idx, REC->nr, REC->from, REC->to, "
	"REC->flags\n",

	"name: stack\nID: 30002\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int ap;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int nr;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int stack_err;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] hook;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc u64[] ips;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u64[] tracing_ips;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned short trimmed;\toffset:32;\tsize:2;\tsigned:0;\n"
	"\tfield:__data_loc char[] ips_hex;\toffset:36;\tsize:4;\tsigned:1;\n\n"
	/* libtraceevent's __print_array() is decimal only: addresses come as text */
	"print fmt: \"%s nr=%u trimmed=%u ips=%s\", __get_str(hook), REC->nr, REC->trimmed, "
	"__get_str(ips_hex)\n",

	"name: user_stack\nID: 30003\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int ap;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int nr;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int ustack_err;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] hook;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc u64[] ips;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] frames;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int pid;\toffset:32;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s nr=%u: %s\", __get_str(hook), REC->nr, __get_str(frames)\n",
};

const char *tracedat_format(int i)
{
	return i >= 0 && i < TRACEDAT_NR_FORMATS ? formats[i] : NULL;
}

struct field_check {
	const char *name;
	int offset;
	int size;
};

static int check_fields(struct tep_event *ev, const struct field_check *fc)
{
	struct tep_format_field *f;

	for (; fc->name; fc++) {
		f = tep_find_field(ev, fc->name);
		if (!f || f->offset != fc->offset || f->size != fc->size)
			return -EINVAL;
	}
	return 0;
}

int tracedat_formats__check(void)
{
	static const struct field_check checks[TRACEDAT_NR_FORMATS][12] = {
		{ { "ap", 8, 4 }, { "nr", 12, 4 }, { "ret", 16, 8 }, { "hook", 32, 4 },
		  { "entries", 36, 4 }, { "ret_str", 40, 4 }, { "tracing_entries", 44, 4 },
		  { "trimmed", 48, 2 }, { "ret_kind", 50, 1 }, { "has_call", 51, 1 },
		  { "call", 52, 4 } },
		{ { "from", 8, 8 }, { "to", 16, 8 }, { "flags", 24, 8 }, { "idx", 32, 2 },
		  { "nr", 34, 2 }, { "ap", 36, 4 } },
		{ { "ap", 8, 4 }, { "nr", 12, 4 }, { "hook", 20, 4 }, { "ips", 24, 4 },
		  { "tracing_ips", 28, 4 }, { "trimmed", 32, 2 }, { "ips_hex", 36, 4 } },
		{ { "ap", 8, 4 }, { "nr", 12, 4 }, { "ustack_err", 16, 4 }, { "hook", 20, 4 },
		  { "ips", 24, 4 }, { "frames", 28, 4 }, { "pid", 32, 4 } },
	};
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev;
	int err = 0;
	int i;

	if (!tep)
		return -ENOMEM;
	for (i = 0; i < TRACEDAT_NR_FORMATS && !err; i++) {
		if (tep_parse_event(tep, formats[i], strlen(formats[i]), TRACEDAT_LBR_SYSTEM)) {
			err = -EINVAL;
			break;
		}
		ev = tep_find_event(tep, TRACEDAT_ID_SNAPSHOT + i);
		if (!ev || (ev->flags & TEP_EVENT_FL_FAILED))
			err = -EINVAL;
		else
			err = check_fields(ev, checks[i]);
	}
	tep_free(tep);
	return err;
}

__u32 tracedat_format__args_id(__u32 ap)
{
	return ap <= TRACEDAT_ID_MAX - TRACEDAT_ID_ARGS ? TRACEDAT_ID_ARGS + ap : 0;
}

char *tracedat_format__args(const struct lbr_attach_point *ap, const char *name,
			    const struct event_fields *ef, int *err)
{
	char *fields = NULL, *fmt = NULL, *args = NULL, *text = NULL;
	__u32 id = tracedat_format__args_id(ap->id);

	*err = 0;
	if (!ef->nr || !id)
		return NULL;
	fields = event_fields__format(ef);
	*err = fields ? event_fields__print(ef, &fmt, &args) : -ENOMEM;
	if (*err)
		goto cleanup;
	if (asprintf(&text, "name: %s\nID: %u\nformat:\n" COMMON_FIELDS "%s\n"
		     "print fmt: \"%s\", %s\n", name, id, fields, fmt, args) < 0) {
		text = NULL;
		*err = -ENOMEM;
	}
cleanup:
	free(fields);
	free(fmt);
	free(args);
	return text;
}

static void common_init(struct lbr_common *c, __u16 id, const struct lbrsnap_event *ev)
{
	c->type = id;
	c->flags = 0;
	c->preempt_count = 0;
	c->pid = ev->tid;
}

/* The names of a user stack's frames, as many as fit */
#define FRAMES_LEN	8192

/*
 * Scratch space for the largest event: 32 branches, the stack (and its hex), the strings, or
 * the arguments; or a user stack with its names
 */
#define EV_BUF_SIZE	(64 + LBRSNAP_MAX_BRANCHES * LBRSNAP_BRANCH_SIZE + \
			 LBRSNAP_MAX_STACK * (8 + 19) + \
			 128 + LBR_RET_LEN + LBR_CALL_LEN + FRAMES_LEN + \
			 LBRSNAP_MAX_ARGS * (LBRSNAP_MAX_STRING_LEN + 2 + 8))

/* Puts len bytes behind the event at *off and returns their __data_loc word. */
static __u32 put_tail(unsigned char *buf, unsigned int *off, const void *data, unsigned int len)
{
	__u32 loc = len << 16 | *off;

	memcpy(buf + *off, data, len);
	*off += len;
	return loc;
}

static int emit_snapshot(const struct lbr_record *rec, const struct tracedat_lbr_view *v,
			 tracedat_emit_fn fn, void *ctx, unsigned char *buf)
{
	const struct lbrsnap_event *e = rec->ev;
	struct lbr_snapshot_ev *s = (void *)buf;
	unsigned int off = sizeof(*s);
	char ret[LBR_RET_LEN] = "";

	common_init(&s->c, TRACEDAT_ID_SNAPSHOT, e);
	s->ap = e->ap;
	s->nr = e->nr_branches;
	s->ret = e->ret;
	s->flags = e->flags;
	s->lbr_ret = e->lbr_ret;
	s->trimmed = v->trim_branches;
	s->ret_kind = v->ret_kind;
	if (v->ret_kind)
		lbr_ret__format(v->ret_kind, e->ret, ret, sizeof(ret));
	s->entries = put_tail(buf, &off, rec->branches + v->trim_branches,
			      (e->nr_branches - v->trim_branches) * LBRSNAP_BRANCH_SIZE);
	s->tracing_entries = put_tail(buf, &off, rec->branches,
				      v->trim_branches * LBRSNAP_BRANCH_SIZE);
	s->hook = put_tail(buf, &off, v->hook, strlen(v->hook) + 1);
	s->ret_str = put_tail(buf, &off, ret, strlen(ret) + 1);
	s->has_call = v->call[0] != 0;
	s->call = put_tail(buf, &off, v->call, strlen(v->call) + 1);
	return fn(ctx, e->time_ns, buf, off);
}

static int emit_stack(const struct lbr_record *rec, const struct tracedat_lbr_view *v,
		      tracedat_emit_fn fn, void *ctx, unsigned char *buf)
{
	const struct lbrsnap_event *e = rec->ev;
	struct lbr_stack_ev *s = (void *)buf;
	char hex[LBRSNAP_MAX_STACK * 19 + 1];	/* "0x" and 16 digits and a space each */
	unsigned int off = sizeof(*s), i;
	size_t len = 0;

	common_init(&s->c, TRACEDAT_ID_STACK, e);
	s->ap = e->ap;
	s->nr = e->nr_stack;
	s->stack_err = e->stack_err;
	s->trimmed = v->trim_stack;
	s->ips = put_tail(buf, &off, rec->stack + v->trim_stack, (e->nr_stack - v->trim_stack) * 8);
	s->tracing_ips = put_tail(buf, &off, rec->stack, v->trim_stack * 8);
	s->hook = put_tail(buf, &off, v->hook, strlen(v->hook) + 1);
	hex[0] = 0;
	for (i = v->trim_stack; i < e->nr_stack; i++)
		len += snprintf(hex + len, sizeof(hex) - len, "%s0x%llx", len ? " " : "",
				(unsigned long long)rec->stack[i]);
	s->ips_hex = put_tail(buf, &off, hex, len + 1);
	return fn(ctx, e->time_ns, buf, off);
}

/* One frame of a user stack: "c+0x22 (prog)", "0x7f.. (libc.so.6)" or "0x7f.." */
static void frame_text(const struct lbrfile *f, const struct lbr_record *rec, struct usyms *us,
		       unsigned int i, char *one, size_t size)
{
	const struct lbrsnap_ustack *u = rec->ustack;
	struct usym_loc loc;
	const char *base;

	memset(&loc, 0, sizeof(loc));
	if (us)
		usyms__lookup_pid(us, f, rec->ev->pid, u->ip[i], i > 0, &loc);
	base = loc.path ? strrchr(loc.path, '/') : NULL;
	base = base ? base + 1 : loc.path;
	if (loc.name)
		snprintf(one, size, "%s+0x%llx (%s)", loc.name, (unsigned long long)loc.off, base);
	else if (base)
		snprintf(one, size, "0x%llx (%s)", (unsigned long long)u->ip[i], base);
	else
		snprintf(one, size, "0x%llx", (unsigned long long)u->ip[i]);
}

/*
 * "c+0x22 (prog) <- b+0x9 (prog) <- 0x7f..." into buf, cut at a whole frame; repeats
 * collapsed and the end of the frames said, as lbrsnap report does (usyms__stack_len())
 */
static void user_frames(const struct lbrfile *f, const struct lbr_record *rec, struct usyms *us,
			char *buf, size_t size)
{
	const struct lbrsnap_ustack *u = rec->ustack;
	unsigned int i, j, shown;
	size_t len = 0;
	char one[512];
	int n;

	buf[0] = 0;
	shown = usyms__stack_len(f, rec->ev->pid, u->ip, u->nr);
	for (i = 0; i < u->nr; i = j) {
		for (j = i + 1; j < shown && u->ip[j] == u->ip[i]; j++)
			;
		if (i >= shown) {
			snprintf(one, sizeof(one), "[stack cut: 0x%llx in no executable mapping, "
				 "%u entr%s left out]", (unsigned long long)u->ip[i], u->nr - i,
				 u->nr - i == 1 ? "y" : "ies");
			j = u->nr;
		} else {
			frame_text(f, rec, us, i, one, sizeof(one));
			if (j - i > 1)
				snprintf(one + strlen(one), sizeof(one) - strlen(one),
					 " <- [%u repeated frames]", j - i - 1);
		}
		n = snprintf(buf + len, size - len, "%s%s", i ? " <- " : "", one);
		if (n < 0 || (size_t)n >= size - len) {
			buf[len] = 0;
			return;
		}
		len += n;
	}
}

static int emit_user_stack(const struct lbrfile *f, const struct lbr_record *rec,
			   const struct tracedat_lbr_view *v, struct usyms *us,
			   tracedat_emit_fn fn, void *ctx, unsigned char *buf)
{
	const struct lbrsnap_event *e = rec->ev;
	struct lbr_user_stack_ev *s = (void *)buf;
	unsigned int off = sizeof(*s);
	char *frames = malloc(FRAMES_LEN);
	int err;

	if (!frames)
		return -ENOMEM;
	user_frames(f, rec, us, frames, FRAMES_LEN);
	common_init(&s->c, TRACEDAT_ID_USER_STACK, e);
	s->ap = e->ap;
	s->nr = rec->ustack->nr;
	s->ustack_err = rec->ustack->err;
	s->pid = e->pid;
	s->ips = put_tail(buf, &off, rec->ustack->ip, rec->ustack->nr * 8);
	s->hook = put_tail(buf, &off, v->hook, strlen(v->hook) + 1);
	s->frames = put_tail(buf, &off, frames, strlen(frames) + 1);
	err = fn(ctx, e->time_ns, buf, off);
	free(frames);
	return err;
}

/* The record's arguments as their attach point's typed fields */
static int emit_args(const struct lbr_record *rec, const struct lbr_args *view,
		     const struct event_fields *ef, tracedat_emit_fn fn, void *ctx,
		     unsigned char *buf)
{
	unsigned int off = ef->end;

	memset(buf, 0, ef->end);
	common_init((struct lbr_common *)buf, tracedat_format__args_id(rec->ev->ap), rec->ev);
	event_fields__encode(ef, view, buf, &off, EV_BUF_SIZE);
	return fn(ctx, rec->ev->time_ns, buf, off);
}

int tracedat_lbr__encode(const struct lbrfile *f, const struct lbr_record *rec,
			 const struct lbr_attach_point *ap, const struct event_fields *ef,
			 const struct ksyms *ks, struct usyms *us, tracedat_emit_fn fn, void *ctx)
{
	unsigned char buf[EV_BUF_SIZE] __attribute__((aligned(8)));
	const struct lbrsnap_event *e = rec->ev;
	const char *target = ap ? ap->target : NULL;
	struct tracedat_lbr_view v = { 0 };
	struct lbr_branch_ev b;
	struct lbr_args args;
	char hook[128], call[LBR_CALL_LEN];
	bool has_args;
	int n = 0;
	int err;
	int i;

	if (e->nr_branches > LBRSNAP_MAX_BRANCHES || e->nr_stack > LBRSNAP_MAX_STACK)
		return -EINVAL;
	/* a spec longer than the scratch space allows is cut, still NUL-terminated */
	snprintf(hook, sizeof(hook), "%s", ap && ap->spec ? ap->spec : "?");
	v.hook = hook;
	v.ret_kind = lbr_ret__record_kind(ap, e->flags);
	call[0] = 0;
	has_args = lbr_args__view(f, ap, rec, &args);
	if (has_args)
		lbr_args__format_call(&args, call, sizeof(call));
	v.call = call;
	if (ks) {
		v.trim_branches = trim__branches(ks, rec->branches, e->nr_branches, target);
		v.trim_stack = trim__stack(ks, rec->stack, e->nr_stack, target);
	}
	if (has_args && ef && ef->nr && tracedat_format__args_id(e->ap)) {
		err = emit_args(rec, &args, ef, fn, ctx, buf);
		if (err)
			return err;
		n++;
	}
	memset(buf, 0, sizeof(buf));
	err = emit_snapshot(rec, &v, fn, ctx, buf);
	if (err)
		return err;
	n++;
	/* one event per entry left: what %pS prints is what lbrsnap report prints */
	for (i = v.trim_branches; i < e->nr_branches; i++) {
		memset(&b, 0, sizeof(b));
		common_init(&b.c, TRACEDAT_ID_BRANCH, e);
		b.from = rec->branches[i].from;
		b.to = rec->branches[i].to;
		b.flags = rec->branches[i].flags;
		b.idx = i;
		b.nr = e->nr_branches;
		b.ap = e->ap;
		err = fn(ctx, e->time_ns, &b, sizeof(b));
		if (err)
			return err;
		n++;
	}
	if (e->nr_stack) {
		memset(buf, 0, sizeof(buf));
		err = emit_stack(rec, &v, fn, ctx, buf);
		if (err)
			return err;
		n++;
	}
	if (rec->ustack) {
		memset(buf, 0, sizeof(buf));
		err = emit_user_stack(f, rec, &v, us, fn, ctx, buf);
		if (err)
			return err;
		n++;
	}
	return n;
}
