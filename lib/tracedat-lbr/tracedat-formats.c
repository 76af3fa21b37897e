// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbr event formats. Arrays are "__data_loc u64[]" because libtraceevent sizes array
 * elements by type name and knows u64 but not "unsigned long long". A __data_loc word is
 * (length << 16) | offset from the start of the record.
 *
 * The events show what lbrsnap report shows: the return value as its type reads (ret_str,
 * from lbr_ret__format(); ret and ret_kind hold the value and its kind) and the branches
 * and frames without the tracing path's (trim.h), whose counts are trim_branches and
 * trim_stack and whose addresses stay in tracing_entries / tracing_ips. The fields and
 * their layout come from record-fields.h; the encoders fill them from the record's view.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "view/record-fields.h"
#include "tracedat-lbr/tracedat-formats.h"
#include "util/num-text.h"

#define PRINT_U64_ARRAY(f) \
	"__print_array(__get_dynamic_array(" f "), __get_dynamic_array_len(" f ") / 8, 8)"

/* The fields come from the schema (record-fields.h); what each event prints is its own */
struct td_format {
	const char *name;
	enum lbr_event_schema_id schema;
	const char *print;
};

static const struct td_format td_formats[TRACEDAT_NR_FORMATS] = {
	{ "branch_snapshot", LBR_SCHEMA_TD_SNAPSHOT,
	  "\"%s%s%s%s%s nr=%u trim_branches=%u entries=%s\", __get_str(attach), "
	  "REC->has_call ? \" \" : \"\", __get_str(call), "
	  "REC->ret_kind ? \" ret=\" : \"\", __get_str(ret_str), REC->nr, REC->trim_branches, "
	  PRINT_U64_ARRAY("entries") },
	{ "branch", LBR_SCHEMA_TD_BRANCH,
	  "\"[%u/%u] %pS -> %pS flags=0x%llx\", REC->idx, REC->nr, REC->from, REC->to, "
	  "REC->flags" },
	/* libtraceevent's __print_array() is decimal only: addresses come as text */
	{ "stack", LBR_SCHEMA_TD_STACK,
	  "\"%s nr=%u trim_stack=%u ips=%s\", __get_str(attach), REC->nr, REC->trim_stack, "
	  "__get_str(ips_hex)" },
	{ "user_stack", LBR_SCHEMA_TD_USER_STACK,
	  "\"%s nr=%u: %s\", __get_str(attach), REC->nr, __get_str(frames)" },
};

static char *td_texts[TRACEDAT_NR_FORMATS];

static char *format_text(int i)
{
	const struct td_format *tf = &td_formats[i];
	const struct lbr_event_schema *sc = &lbr_event_schemas[tf->schema];
	char *fields = lbr_fields__format(sc->fields, sc->nr, true);
	char *text;

	if (!fields)
		return NULL;
	if (asprintf(&text, "name: %s\nID: %d\nformat:\n%s\nprint fmt: %s\n", tf->name,
		     TRACEDAT_ID_SNAPSHOT + i, fields, tf->print) < 0)
		text = NULL;
	free(fields);
	return text;
}

const char *tracedat_format(int i)
{
	if (i < 0 || i >= TRACEDAT_NR_FORMATS)
		return NULL;
	/* built once, kept for the process's life as the static texts were */
	if (!td_texts[i])
		td_texts[i] = format_text(i);
	return td_texts[i];
}

/* Every field of the schema where libtraceevent reads it from the text */
static int check_fields(struct tep_event *ev, const struct lbr_event_schema *sc)
{
	struct tep_format_field *f;
	size_t i;

	for (i = 0; i < sc->nr; i++) {
		if (sc->fields[i].kind == LBR_FIELD_PAD)
			continue;
		f = tep_find_field(ev, sc->fields[i].name);
		if (!f || f->offset != sc->fields[i].offset || f->size != sc->fields[i].size)
			return -EINVAL;
	}
	return 0;
}

int tracedat_formats__check(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev;
	const char *text;
	int err = 0;
	int i;

	if (!tep)
		return -ENOMEM;
	for (i = 0; i < TRACEDAT_NR_FORMATS && !err; i++) {
		text = tracedat_format(i);
		if (!text) {
			err = -ENOMEM;
			break;
		}
		if (tep_parse_event(tep, text, strlen(text), TRACEDAT_LBR_SYSTEM)) {
			err = -EINVAL;
			break;
		}
		ev = tep_find_event(tep, TRACEDAT_ID_SNAPSHOT + i);
		if (!ev || (ev->flags & TEP_EVENT_FL_FAILED))
			err = -EINVAL;
		else
			err = check_fields(ev, &lbr_event_schemas[td_formats[i].schema]);
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
	char *common = NULL, *fields = NULL, *fmt = NULL, *args = NULL, *text = NULL;
	__u32 id = tracedat_format__args_id(ap->id);

	*err = 0;
	if (!ef->nr || !id)
		return NULL;
	common = lbr_fields__format(NULL, 0, false);
	fields = event_fields__format(ef);
	*err = common && fields ? event_fields__print(ef, &fmt, &args) : -ENOMEM;
	if (*err)
		goto cleanup;
	if (asprintf(&text, "name: %s\nID: %u\nformat:\n%s%s\n"
		     "print fmt: \"%s\", %s\n", name, id, common, fields, fmt, args) < 0) {
		text = NULL;
		*err = -ENOMEM;
	}
cleanup:
	free(common);
	free(fields);
	free(fmt);
	free(args);
	return text;
}

/* The common fields at the start of payload */
static void common_init(void *payload, __u16 id, const struct lbrsnap_event *ev)
{
	struct lbr_common_fields c = { .common_type = id, .common_pid = ev->tid };

	memcpy(payload, &c, sizeof(c));
}

/* Room for an attach point's name: a user probe's holds a path */
#define TD_ATTACH_ROOM	(4096 + 256)

/* The names of a user stack's frames, as many as fit */
#define FRAMES_LEN	8192

/*
 * Scratch space for the largest event: 32 branches, the stack (and its hex), the strings, or
 * the arguments; or a user stack with its names
 */
#define EV_BUF_SIZE	(64 + LBRSNAP_MAX_BRANCHES * LBRSNAP_BRANCH_SIZE + \
			 LBRSNAP_MAX_STACK * (8 + 19) + \
			 TD_ATTACH_ROOM + LBR_RET_LEN + LBR_CALL_LEN + FRAMES_LEN + \
			 LBRSNAP_MAX_ARGS * (LBRSNAP_MAX_STRING_LEN + 2 + 8))

static int emit_snapshot(const struct lbr_record_view *v, tracedat_emit_fn fn, void *ctx,
			 unsigned char *buf)
{
	struct lbr_td_snapshot *payload = (void *)buf;
	/* its rows read the view only */
	const struct lbr_fields_extra *x __attribute__((unused)) = NULL;
	unsigned int off = sizeof(*payload);

	common_init(payload, TRACEDAT_ID_SNAPSHOT, v->ev);
	LBR_TD_SNAPSHOT_FIELDS(LBR_F_ENCODE)
	return fn(ctx, v->ev->time_ns, buf, off);
}

static int emit_stack(const struct lbr_record_view *v, tracedat_emit_fn fn, void *ctx,
		      unsigned char *buf)
{
	struct lbr_td_stack *payload = (void *)buf;
	char hex[LBRSNAP_MAX_STACK * 19 + 1];	/* "0x" and 16 digits and a space each */
	struct lbr_fields_extra extra = { .ips_hex = hex }, *x = &extra;
	const __u64 *ips = v->stack.p;
	unsigned int off = sizeof(*payload), i;
	size_t len = 0;

	hex[0] = 0;
	/* "%s0x%llx" with a space between: hex has room for every frame */
	for (i = 0; i < v->stack.len / 8; i++) {
		if (len)
			len += num_text__put(hex + len, sizeof(hex) - len, " ", 1);
		len += num_text__hex(hex + len, sizeof(hex) - len, ips[i]);
	}
	common_init(payload, TRACEDAT_ID_STACK, v->ev);
	LBR_TD_STACK_FIELDS(LBR_F_ENCODE)
	return fn(ctx, v->ev->time_ns, buf, off);
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

static int emit_user_stack(const struct lbrfile *f, const struct lbr_record_view *v,
			   struct usyms *us, tracedat_emit_fn fn, void *ctx, unsigned char *buf)
{
	const struct lbr_record *rec = v->rec;
	struct lbr_td_user_stack *payload = (void *)buf;
	struct lbr_fields_extra extra, *x = &extra;
	unsigned int off = sizeof(*payload);
	char *frames = malloc(FRAMES_LEN);
	int err;

	if (!frames)
		return -ENOMEM;
	user_frames(f, rec, us, frames, FRAMES_LEN);
	extra.frames = frames;
	extra.uips.p = rec->ustack->ip;
	extra.uips.len = rec->ustack->nr * 8;
	common_init(payload, TRACEDAT_ID_USER_STACK, v->ev);
	LBR_TD_USER_STACK_FIELDS(LBR_F_ENCODE)
	err = fn(ctx, v->ev->time_ns, buf, off);
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
	common_init(buf, tracedat_format__args_id(rec->ev->ap), rec->ev);
	event_fields__encode(ef, view, buf, &off, EV_BUF_SIZE);
	return fn(ctx, rec->ev->time_ns, buf, off);
}

/* One event per entry shown: what %pS prints is what lbrsnap report prints */
static int emit_branches(const struct lbr_record_view *v, tracedat_emit_fn fn, void *ctx)
{
	struct lbr_td_branch b, *payload = &b;
	struct lbr_fields_extra extra, *x = &extra;
	unsigned int i, off = sizeof(b);
	int err;

	for (i = v->skip_branches; i < v->ev->nr_branches; i++) {
		memset(&b, 0, sizeof(b));
		common_init(&b, TRACEDAT_ID_BRANCH, v->ev);
		extra.br = &v->rec->branches[i];
		extra.idx = i;
		LBR_TD_BRANCH_FIELDS(LBR_F_ENCODE)
		err = fn(ctx, v->ev->time_ns, &b, off);
		if (err)
			return err;
	}
	return v->ev->nr_branches - v->skip_branches;
}

int tracedat_lbr__encode(const struct lbrfile *f, const struct lbr_record_view *v,
			 const struct event_fields *ef, struct usyms *us, tracedat_emit_fn fn,
			 void *ctx)
{
	unsigned char buf[EV_BUF_SIZE] __attribute__((aligned(8)));
	const struct lbrsnap_event *e = v->ev;
	int n = 0;
	int err;

	if (e->nr_branches > LBRSNAP_MAX_BRANCHES || e->nr_stack > LBRSNAP_MAX_STACK)
		return -EINVAL;
	if (strlen(v->attach) >= TD_ATTACH_ROOM)
		return -ENAMETOOLONG;
	if (v->has_args && ef && ef->nr && tracedat_format__args_id(e->ap)) {
		err = emit_args(v->rec, &v->args, ef, fn, ctx, buf);
		if (err)
			return err;
		n++;
	}
	/* the fixed part only: the tails are copied whole after it (tens of KiB otherwise) */
	memset(buf, 0, sizeof(struct lbr_td_snapshot));
	err = emit_snapshot(v, fn, ctx, buf);
	if (err)
		return err;
	n++;
	err = emit_branches(v, fn, ctx);
	if (err < 0)
		return err;
	n += err;
	if (e->nr_stack) {
		memset(buf, 0, sizeof(struct lbr_td_stack));
		err = emit_stack(v, fn, ctx, buf);
		if (err)
			return err;
		n++;
	}
	if (v->rec->ustack) {
		memset(buf, 0, sizeof(struct lbr_td_user_stack));
		err = emit_user_stack(f, v, us, fn, ctx, buf);
		if (err)
			return err;
		n++;
	}
	return n;
}
