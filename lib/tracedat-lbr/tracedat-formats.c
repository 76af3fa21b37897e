// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbr event formats. Arrays are "__data_loc u64[]" because libtraceevent sizes array
 * elements by type name and knows u64 but not "unsigned long long". A __data_loc word is
 * (length << 16) | offset from the start of the record.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
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
	__u32 nr;
	__s64 ret;
	__u32 flags;
	__s32 lbr_ret;
	__u32 hook;		/* __data_loc char[] */
	__u32 entries;		/* __data_loc u64[]: from, to, flags per entry */
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
	__u32 nr;
	__s32 stack_err;
	__u32 hook;		/* __data_loc char[] */
	__u32 ips;		/* __data_loc u64[] */
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
	"\tfield:__data_loc u64[] entries;\toffset:36;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s ret=%lld nr=%u entries=%s\", __get_str(hook), REC->ret, REC->nr, "
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
	"\tfield:__data_loc u64[] ips;\toffset:24;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s nr=%u ips=%s\", __get_str(hook), REC->nr, " PRINT_U64_ARRAY("ips") "\n",
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
	static const struct field_check checks[TRACEDAT_NR_FORMATS][8] = {
		{ { "ap", 8, 4 }, { "nr", 12, 4 }, { "ret", 16, 8 }, { "hook", 32, 4 },
		  { "entries", 36, 4 } },
		{ { "from", 8, 8 }, { "to", 16, 8 }, { "flags", 24, 8 }, { "idx", 32, 2 },
		  { "nr", 34, 2 }, { "ap", 36, 4 } },
		{ { "ap", 8, 4 }, { "nr", 12, 4 }, { "hook", 20, 4 }, { "ips", 24, 4 } },
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

static void common_init(struct lbr_common *c, __u16 id, const struct lbrsnap_event *ev)
{
	c->type = id;
	c->flags = 0;
	c->preempt_count = 0;
	c->pid = ev->tid;
}

/* Scratch space for the largest event: 32 branches, the stack and the hook string. */
#define EV_BUF_SIZE	(64 + LBRSNAP_MAX_BRANCHES * LBRSNAP_BRANCH_SIZE + LBRSNAP_MAX_STACK * 8 + 128)

/*
 * Puts the u64 array and then the hook string behind the fixed part (off bytes) and sets
 * their __data_loc words; returns the payload length.
 */
static unsigned int put_tail(unsigned char *buf, unsigned int off, const void *array,
			     unsigned int alen, const char *hook, size_t hlen, __u32 *array_loc,
			     __u32 *hook_loc)
{
	*array_loc = alen << 16 | off;
	memcpy(buf + off, array, alen);
	off += alen;
	*hook_loc = hlen << 16 | off;
	memcpy(buf + off, hook, hlen);
	return off + hlen;
}

static int emit_snapshot(const struct lbr_record *rec, const char *hook, size_t hlen,
			 tracedat_emit_fn fn, void *ctx, unsigned char *buf)
{
	const struct lbrsnap_event *e = rec->ev;
	struct lbr_snapshot_ev *s = (void *)buf;
	unsigned int len;

	common_init(&s->c, TRACEDAT_ID_SNAPSHOT, e);
	s->ap = e->ap;
	s->nr = e->nr_branches;
	s->ret = e->ret;
	s->flags = e->flags;
	s->lbr_ret = e->lbr_ret;
	len = put_tail(buf, sizeof(*s), rec->branches, e->nr_branches * LBRSNAP_BRANCH_SIZE,
		       hook, hlen, &s->entries, &s->hook);
	return fn(ctx, e->time_ns, buf, len);
}

static int emit_stack(const struct lbr_record *rec, const char *hook, size_t hlen,
		      tracedat_emit_fn fn, void *ctx, unsigned char *buf)
{
	const struct lbrsnap_event *e = rec->ev;
	struct lbr_stack_ev *s = (void *)buf;
	unsigned int len;

	common_init(&s->c, TRACEDAT_ID_STACK, e);
	s->ap = e->ap;
	s->nr = e->nr_stack;
	s->stack_err = e->stack_err;
	s->pad = 0;
	len = put_tail(buf, sizeof(*s), rec->stack, e->nr_stack * 8, hook, hlen, &s->ips,
		       &s->hook);
	return fn(ctx, e->time_ns, buf, len);
}

int tracedat_lbr__encode(const struct lbr_record *rec, const char *hook, tracedat_emit_fn fn,
			 void *ctx)
{
	unsigned char buf[EV_BUF_SIZE] __attribute__((aligned(8)));
	const struct lbrsnap_event *e = rec->ev;
	struct lbr_branch_ev b;
	char name[128];
	size_t hlen;
	int n = 0;
	int err;
	int i;

	if (e->nr_branches > LBRSNAP_MAX_BRANCHES || e->nr_stack > LBRSNAP_MAX_STACK)
		return -EINVAL;
	/* a spec longer than the scratch space allows is cut, still NUL-terminated */
	snprintf(name, sizeof(name), "%s", hook ? hook : "?");
	hlen = strlen(name) + 1;
	memset(buf, 0, sizeof(buf));
	err = emit_snapshot(rec, name, hlen, fn, ctx, buf);
	if (err)
		return err;
	n++;
	for (i = 0; i < e->nr_branches; i++) {
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
		err = emit_stack(rec, name, hlen, fn, ctx, buf);
		if (err)
			return err;
		n++;
	}
	return n;
}
