/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The output fields of a record, each declared once, as the kernel's TRACE_EVENT declares an
 * event from one TP_STRUCT__entry. A row is
 *
 *	F(KIND, C type, name, source in the record view, one-line meaning)
 *
 *	NUM	an integer of the C type, from the source expression
 *	RET	the return value: an integer declared as its attach point's type says (perf)
 *	STR	a __data_loc char[] word; the source is the NUL-terminated text
 *	U64S	a __data_loc u64[] word; the source is a struct lbr_span
 *	PAD	room that keeps the next field aligned: in the struct, in no format
 *
 * Sources read `v`, the record's struct lbr_record_view (record-view.h), and `x`, the
 * encoder's own scratch for what only one output prints (struct lbr_fields_extra).
 *
 * Event lists compose the rows; from one list come the payload struct (LBR_F_MEMBER), its
 * static layout checks (LBR_F_CHECK), the format text's rows (LBR_F_DESC, then
 * lbr_fields__format()), the encoder (LBR_F_ENCODE), the reserved names, the perf Python
 * helper's field list and the man pages' field table (record-fields-doc.c). Adding a field
 * is one row here, its source in the view and its place in the lists that carry it.
 */
#ifndef LBRSNAP_RECORD_FIELDS_H
#define LBRSNAP_RECORD_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/types.h>
#include "view/record-view.h"

/* --- the fields ------------------------------------------------------------------------ */

#define LBRF_ap(F)		F(NUM, __u32, ap, v->ev->ap, \
				  "the attach point's index in the capture")
#define LBRF_attach(F)		F(STR, __u32, attach, v->attach, \
				  "the attach point's name, as record expanded it (fexit:do_sys_openat2)")
#define LBRF_seq(F)		F(NUM, __u64, seq, v->seq, \
				  "the attach point's invocation number: a gap is a record lost")
#define LBRF_ret(F)		F(RET, __s64, ret, v->ret, \
				  "the return value as its type reads (0 without one)")
#define LBRF_ret_kind(F)	F(NUM, __u8, ret_kind, v->ret_kind, \
				  "how ret reads: 0 none, 1 signed, 2 unsigned, 3 bool, 4 pointer")
#define LBRF_ret_str(F)		F(STR, __u32, ret_str, v->ret_str, \
				  "ret as lbrsnap report prints it (ERR_PTR(-ENOENT)), \"\" without")
#define LBRF_lbr_ret(F)		F(NUM, __s32, lbr_ret, v->ev->lbr_ret, \
				  "what bpf_get_branch_snapshot() returned: bytes, or -errno")
#define LBRF_stack_err(F)	F(NUM, __s32, stack_err, v->ev->stack_err, \
				  "bpf_get_stack()'s error, 0 when the stack was read")
#define LBRF_flags(F)		F(NUM, __u32, flags, v->ev->flags, \
				  "the record's LBRSNAP_EV_* flags (1 has ret, 2 clobbered, ...)")
#define LBRF_nr_branches(F)	F(NUM, __u16, nr_branches, v->ev->nr_branches, \
				  "branch entries captured")
#define LBRF_nr_stack(F)	F(NUM, __u16, nr_stack, v->ev->nr_stack, \
				  "kernel stack frames captured")
#define LBRF_trim_branches(F)	F(NUM, __u16, trim_branches, v->trim_branches, \
				  "the newest entries that are the tracing path's (trim.h)")
#define LBRF_trim_stack(F)	F(NUM, __u16, trim_stack, v->trim_stack, \
				  "the innermost frames that are the tracing path's")
#define LBRF_tracing_branches(F) F(U64S, __u32, tracing_branches, v->tracing_branches, \
				  "the entries left out of the sample (from, to, flags each)")
#define LBRF_tracing_stack(F)	F(U64S, __u32, tracing_stack, v->tracing_stack, \
				  "the frames left out of the callchain")
#define LBRF_call(F)		F(STR, __u32, call, v->call, \
				  "the call with its arguments (openat(dfd=-100, ...)), \"\" without")
#define LBRF_cgroup(F)		F(NUM, __u64, cgroup, v->cgroup, \
				  "the task's cgroup v2 id (its directory's inode), 0 if not captured")
#define LBRF_has_call(F)	F(NUM, __u8, has_call, v->call[0] != 0, \
				  "1 when call holds the arguments")
/* trace.dat's own: its events split a record in several */
#define LBRF_snap_nr(F)		F(NUM, __u32, nr, v->ev->nr_branches, \
				  "branch entries captured")
#define LBRF_entries(F)		F(U64S, __u32, entries, v->branches, \
				  "the entries shown (from, to, flags each), newest first")
#define LBRF_tracing_entries(F)	F(U64S, __u32, tracing_entries, v->tracing_branches, \
				  "the tracing path's entries, left out of entries")
#define LBRF_stack_nr(F)	F(NUM, __u32, nr, v->ev->nr_stack, \
				  "kernel stack frames captured")
#define LBRF_ips(F)		F(U64S, __u32, ips, v->stack, \
				  "the frames shown, innermost first")
#define LBRF_tracing_ips(F)	F(U64S, __u32, tracing_ips, v->tracing_stack, \
				  "the tracing path's frames, left out of ips")
#define LBRF_ips_hex(F)		F(STR, __u32, ips_hex, x->ips_hex, \
				  "ips as hex text, for trace-cmd report without the plugin")
#define LBRF_ustack_nr(F)	F(NUM, __u32, nr, v->rec->ustack->nr, \
				  "user stack entries captured")
#define LBRF_ustack_err(F)	F(NUM, __s32, ustack_err, v->rec->ustack->err, \
				  "the user stack walk's error, 0")
#define LBRF_uips(F)		F(U64S, __u32, ips, x->uips, \
				  "the user stack's addresses, innermost first")
#define LBRF_frames(F)		F(STR, __u32, frames, x->frames, \
				  "their names: \"c+0x22 (prog) <- b+0x9 (prog)\"")
#define LBRF_pid(F)		F(NUM, __u32, pid, v->ev->pid, \
				  "the process, whose maps name the addresses")
#define LBRF_br_from(F)		F(NUM, __u64, from, x->br->from, "the branch's source")
#define LBRF_br_to(F)		F(NUM, __u64, to, x->br->to, "the branch's target")
#define LBRF_br_flags(F)	F(NUM, __u64, flags, x->br->flags, \
				  "perf_branch_entry flags: mispred, predicted, cycles, type")
#define LBRF_br_idx(F)		F(NUM, __u16, idx, x->idx, "the entry's index, 0 the newest")
#define LBRF_br_nr(F)		F(NUM, __u16, nr, v->ev->nr_branches, "entries captured")
/* perf.data's lbr:call, one per call of a --calls scope (x->call, its index x->idx) */
#define LBRF_c_ret(F)		F(RET, __s64, ret, x->call->ret, \
				  "the call's return value, extended as its type says (0: none)")
#define LBRF_c_duration(F)	F(NUM, __u64, duration_ns, x->call->flags & \
				  LBRSNAP_CALL_RETURNED ? x->call->end_ns - x->call->start_ns : 0, \
				  "exit time - entry time, ns (0 when no exit was seen)")
#define LBRF_c_err(F)		F(NUM, __s32, err, x->err, \
				  "the errno ret stands for (2 for -ENOENT), 0")
#define LBRF_c_func(F)		F(STR, __u32, func, x->func, "the called function's name")
#define LBRF_c_result(F)	F(STR, __u32, result, x->result, \
				  "the result as lbrsnap report's tree prints it: -2 (ENOENT), (void)")
#define LBRF_c_depth(F)		F(NUM, __u16, depth, x->call->depth, \
				  "nesting depth, 0 the scope's own function")
#define LBRF_c_idx(F)		F(NUM, __u16, idx, x->idx, \
				  "the call's index in its scope, in entry order")
#define LBRF_c_nr(F)		F(NUM, __u16, nr, v->calls->nr, "calls recorded in the scope")
#define LBRF_c_origin(F)	F(NUM, __u8, origin, (int)x->idx == v->origin, \
				  "1 on the call where the scope's error began")
#define LBRF_c_returned(F)	F(NUM, __u8, returned, \
				  !!(x->call->flags & LBRSNAP_CALL_RETURNED), "1 when its exit was seen")
#define LBRF_c_dropped(F)	F(NUM, __u32, dropped, v->calls->dropped, \
				  "calls of the scope not recorded (depth or count bounds)")
#define LBRF_pad8(F, n)		F(PAD, __u8, pad##n, 0, "")
#define LBRF_pad16(F, n)	F(PAD, __u16, pad##n, 0, "")
#define LBRF_pad32(F, n)	F(PAD, __u32, pad##n, 0, "")

/* --- the events ------------------------------------------------------------------------ */

/* perf.data: one tracepoint event per attach point, its arguments' fields after these */
#define LBR_PERF_FIELDS(F) \
	LBRF_ret(F) LBRF_seq(F) LBRF_lbr_ret(F) LBRF_stack_err(F) LBRF_flags(F) \
	LBRF_nr_branches(F) LBRF_nr_stack(F) LBRF_trim_branches(F) LBRF_trim_stack(F) \
	LBRF_tracing_branches(F) LBRF_tracing_stack(F) LBRF_ret_str(F) LBRF_ret_kind(F) \
	LBRF_pad8(F, 0) LBRF_pad16(F, 1) LBRF_call(F) LBRF_cgroup(F)

/*
 * perf.data lbr:call: one per call, at its entry time; seq and attach name the record whose
 * sample (its attach point's event, at the scope's end) follows them
 */
#define LBR_PERF_CALL_FIELDS(F) \
	LBRF_c_ret(F) LBRF_c_duration(F) LBRF_seq(F) LBRF_c_err(F) LBRF_c_func(F) \
	LBRF_c_result(F) LBRF_attach(F) LBRF_c_depth(F) LBRF_c_idx(F) LBRF_c_nr(F) \
	LBRF_c_origin(F) LBRF_c_returned(F) LBRF_c_dropped(F) LBRF_pad32(F, 0)

/* trace.dat lbr:branch_snapshot, one per record */
#define LBR_TD_SNAPSHOT_FIELDS(F) \
	LBRF_ap(F) LBRF_snap_nr(F) LBRF_ret(F) LBRF_flags(F) LBRF_lbr_ret(F) LBRF_attach(F) \
	LBRF_entries(F) LBRF_ret_str(F) LBRF_tracing_entries(F) LBRF_trim_branches(F) \
	LBRF_ret_kind(F) LBRF_has_call(F) LBRF_call(F) LBRF_seq(F) LBRF_cgroup(F)

/* trace.dat lbr:branch, one per entry shown */
#define LBR_TD_BRANCH_FIELDS(F) \
	LBRF_br_from(F) LBRF_br_to(F) LBRF_br_flags(F) LBRF_br_idx(F) LBRF_br_nr(F) LBRF_ap(F)

/* trace.dat lbr:stack */
#define LBR_TD_STACK_FIELDS(F) \
	LBRF_ap(F) LBRF_stack_nr(F) LBRF_stack_err(F) LBRF_attach(F) LBRF_ips(F) \
	LBRF_tracing_ips(F) LBRF_trim_stack(F) LBRF_pad16(F, 0) LBRF_ips_hex(F) LBRF_seq(F)

/* trace.dat lbr:user_stack */
#define LBR_TD_USER_STACK_FIELDS(F) \
	LBRF_ap(F) LBRF_ustack_nr(F) LBRF_ustack_err(F) LBRF_attach(F) LBRF_uips(F) \
	LBRF_frames(F) LBRF_pid(F) LBRF_pad32(F, 0) LBRF_seq(F)

/*
 * lbrsnap report --json: the record's numbers from the view, after "stack_err", as the rows
 * above name them (a struct json_writer *json in scope; LBR_F_JSON)
 */
#define LBR_JSON_FIELDS(F) \
	LBRF_seq(F) LBRF_trim_branches(F) LBRF_trim_stack(F) LBRF_cgroup(F)

/* The other keys of a record's JSON object, K(ID, "key", meaning) */
#define LBR_JSON_RECORD_KEYS(K) \
	K(TIME_NS, "time_ns", "CLOCK_MONOTONIC time of the record, a string of digits") \
	K(CPU, "cpu", "the CPU") \
	K(PID, "pid", "the process") \
	K(TID, "tid", "the thread") \
	K(COMM, "comm", "the thread's name") \
	K(AP, "ap", "the attach point's index in the capture") \
	K(ATTACH, "attach", "the attach point's name, as record expanded it") \
	K(TARGET, "target", "the traced function or tracepoint") \
	K(RET, "ret", "the return value as its type reads, null without one") \
	K(RET_TYPE, "ret_type", "the return value's C type") \
	K(ERRNO, "errno", "the errno name ret stands for, null") \
	K(SYSCALL, "syscall", "sys_enter, sys_exit: the syscall's name") \
	K(ARGS, "args", "the arguments: name to value") \
	K(ARGS_TRUNCATED, "args_truncated", "the strings cut at --string-len") \
	K(FLAGS, "flags", "the record's LBRSNAP_EV_* flags") \
	K(CLOBBERED, "clobbered", "the snapshot slot was reused: branches dropped") \
	K(LBR_RET, "lbr_ret", "what bpf_get_branch_snapshot() returned") \
	K(STACK_ERR, "stack_err", "bpf_get_stack()'s error, 0") \
	K(LBR_STALE, "lbr_stale", "taken while LBR was off on its CPU") \
	K(BRANCHES, "branches", "the branch entries, oldest first") \
	K(STACK, "stack", "the kernel stack, innermost first") \
	K(TRIMMED, "trimmed", "in an entry or frame: it is the tracing path's") \
	K(CALLS, "calls", "--calls: the scope's calls in entry order ({func, depth, start_ns, " \
	  "duration_ns, ret, errno})") \
	K(ORIGIN, "origin", "--calls: the call where the error began ({func, depth, ret, " \
	  "errno}), null") \
	K(CALLS_DROPPED, "calls_dropped", "--calls: calls of the scope not recorded (bounds)") \
	K(SNAPSHOT_AT, "snapshot_at", "--calls: where the branches and stacks were taken: " \
	  "\"origin\" (the origin's return) or \"scope\" (the scope's return)")

#define LBR_F_JSON_ENUM(id, key, doc) LBR_JSON_##id,
enum lbr_json_key {
	LBR_JSON_RECORD_KEYS(LBR_F_JSON_ENUM)
	LBR_JSON__MAX
};
#undef LBR_F_JSON_ENUM

extern const char *const lbr_json_keys[LBR_JSON__MAX];
/* A record key's text: LBR_KEY(ATTACH) is "attach" */
#define LBR_KEY(id) (lbr_json_keys[LBR_JSON_##id])

/* --- what the lists make ----------------------------------------------------------------- */

/* The fields every tracefs event starts with */
struct lbr_common_fields {
	__u16 common_type;
	__u8 common_flags;
	__u8 common_preempt_count;
	__s32 common_pid;
};

/* What the encoders print that no other output does */
struct lbr_fields_extra {
	const char *ips_hex;
	const char *frames;
	struct lbr_span uips;
	const struct lbrsnap_branch *br;
	__u16 idx;
	/* lbr:call's */
	const struct lbrsnap_call *call;
	const char *func;
	const char *result;
	int err;
};

/* A struct member per row: struct NAME { struct lbr_common_fields c; LIST(LBR_F_MEMBER) } */
#define LBR_F_MEMBER(kind, ctype, name, src, doc) ctype name;

/* Per row, with LBR_F_STRUCT the struct: every value on its natural alignment */
#define LBR_F_ALIGN(ctype) (sizeof(ctype) < 8 ? sizeof(ctype) : 8)
#define LBR_F_CHECK(kind, ctype, name, src, doc) \
	_Static_assert(offsetof(LBR_F_STRUCT, name) % LBR_F_ALIGN(ctype) == 0, \
		       #name " is not aligned");

enum lbr_field_kind {
	LBR_FIELD_NUM,
	LBR_FIELD_RET,
	LBR_FIELD_STR,
	LBR_FIELD_U64S,
	LBR_FIELD_PAD,
};

struct lbr_field_desc {
	const char *name;
	enum lbr_field_kind kind;
	unsigned short offset;
	unsigned short size;
	bool is_signed;
	const char *meaning;
};

/* A struct lbr_field_desc per row, with LBR_F_STRUCT the struct */
#define LBR_F_DESC(kind, ctype, name, src, doc) \
	{ #name, LBR_FIELD_##kind, offsetof(LBR_F_STRUCT, name), sizeof(ctype), \
	  (ctype)-1 < (ctype)1, doc },

/* A field's name per row (PAD rows give theirs too: nothing else may use them) */
#define LBR_F_NAME(kind, ctype, name, src, doc) #name,
/* One row's name: LBRF_seq(LBR_F_STR) is "seq" */
#define LBR_F_STR(kind, ctype, name, src, doc) #name

/* A JSON key and number per row, written to json (struct json_writer *) */
#define LBR_F_JSON(kind, ctype, name, src, doc) json__field_u64(json, #name, (src));

/*
 * The encoder, per row: reads v and x, writes the struct at `payload`, the __data_loc tails
 * at `buf` + `off` (advanced).
 */
#define LBR_F_ENCODE(kind, ctype, name, src, doc) LBR_F_ENC_##kind(name, src)
#define LBR_F_ENC_NUM(name, src) payload->name = (src);
#define LBR_F_ENC_RET(name, src) payload->name = (src);
#define LBR_F_ENC_STR(name, src) \
	payload->name = lbr_fields__tail(buf, &off, (src), strlen(src) + 1);
#define LBR_F_ENC_U64S(name, src) \
	payload->name = lbr_fields__tail(buf, &off, (src).p, (src).len);
#define LBR_F_ENC_PAD(name, src)

/* Puts len bytes at buf + *off (advanced) and returns their __data_loc word. */
static inline __u32 lbr_fields__tail(void *buf, unsigned int *off, const void *data,
				     unsigned int len)
{
	__u32 loc = len << 16 | *off;

	memcpy((char *)buf + *off, data, len);
	*off += len;
	return loc;
}

/*
 * The format's field lines: the common fields, an empty line, then one line per field of d;
 * a RET field is declared signed or not as ret_signed says. malloc()ed, NULL if no memory.
 */
char *lbr_fields__format(const struct lbr_field_desc *d, size_t nr, bool ret_signed);
/* The tracefs type of a field: "unsigned short", "__data_loc char[]", ... */
const char *lbr_field__type(const struct lbr_field_desc *d, bool ret_signed);

/* The payloads, packed: perf's RAW data sits at 4 past an 8-byte boundary */
#define LBR_F_PAYLOAD(name, list) \
	struct name { \
		struct lbr_common_fields c; \
		list(LBR_F_MEMBER) \
	} __attribute__((packed))

LBR_F_PAYLOAD(lbr_perf_raw, LBR_PERF_FIELDS);
LBR_F_PAYLOAD(lbr_perf_call_raw, LBR_PERF_CALL_FIELDS);
LBR_F_PAYLOAD(lbr_td_snapshot, LBR_TD_SNAPSHOT_FIELDS);
LBR_F_PAYLOAD(lbr_td_branch, LBR_TD_BRANCH_FIELDS);
LBR_F_PAYLOAD(lbr_td_stack, LBR_TD_STACK_FIELDS);
LBR_F_PAYLOAD(lbr_td_user_stack, LBR_TD_USER_STACK_FIELDS);

/* One event of an output: its fields */
struct lbr_event_schema {
	const char *output;		/* "perf.data", "trace.dat" */
	const char *name;		/* "lbr:<attach point>", "lbr:branch_snapshot" */
	const struct lbr_field_desc *fields;
	size_t nr;
	size_t size;			/* bytes of the payload struct */
};

enum lbr_event_schema_id {
	LBR_SCHEMA_PERF,
	LBR_SCHEMA_PERF_CALL,
	LBR_SCHEMA_TD_SNAPSHOT,
	LBR_SCHEMA_TD_BRANCH,
	LBR_SCHEMA_TD_STACK,
	LBR_SCHEMA_TD_USER_STACK,
	LBR_SCHEMA__MAX,
};

extern const struct lbr_event_schema lbr_event_schemas[LBR_SCHEMA__MAX];
/* Names no argument field may take in perf's lbr events: theirs and a few more; NULL ends */
extern const char *const lbr_fields_reserved[];

#endif /* LBRSNAP_RECORD_FIELDS_H */
