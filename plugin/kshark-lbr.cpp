// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * KernelShark 2.x plugin for lbrsnap's lbr events.
 *
 * Marks every lbr:branch_snapshot on the CPU and task graphs: the taller and warmer the
 * mark, the more branch entries the snapshot holds (grey: none, e.g. a kernel stack only).
 * Double-clicking a mark selects the snapshot (marker A, so the list view shows it) and
 * opens a window with its symbolized branch list and stack, decoded from the trace file
 * with the stream's own kallsyms. Like lbrsnap report (and the event list, through
 * plugin_lbr.so) it shows the return value as its type reads and leaves out the tracing
 * path's entries, saying how many; those stay in the file (tracing_entries, tracing_ips).
 *
 * Load with `kernelshark -p plugin-lbr.so`, Tools > Add plugins, or a saved session.
 */
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <QDialog>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QString>
#include <QVBoxLayout>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "KsPluginsGUI.hpp"
#include <traceevent/event-parse.h>

extern "C" {
#include "lbr-field.h"
#include "lbr-calls.h"
#include "lbrfile/ret-value.h"
}

/*
 * From libtracecmd's public trace-cmd.h, which cannot be included in C++: the tracefs.h it
 * pulls in does not compile as C++.
 */
extern "C" {
struct tep_record *tracecmd_read_at(struct tracecmd_input *handle, unsigned long long offset,
				    int *cpu);
struct tep_record *tracecmd_read_data(struct tracecmd_input *handle, int cpu);
int tracecmd_set_cpu_to_timestamp(struct tracecmd_input *handle, int cpu,
				  unsigned long long ts);
void tracecmd_free_record(struct tep_record *record);
}

#define LBR_MAX_ENTRIES	32	/* LBRSNAP_MAX_BRANCHES */
#define LBR_ENTRY_SIZE	24

struct lbr_context {
	int snapshot_id;
	int stack_id;
	kshark_data_container *snapshots;	/* entry + number of branch entries */
};

static void lbr_context_free(lbr_context *ctx)
{
	if (!ctx)
		return;
	kshark_free_data_container(ctx->snapshots);
	free(ctx);
}

KS_DEFINE_PLUGIN_CONTEXT(lbr_context, lbr_context_free);

/* The main window, handed over by the menu initializer; needed to move marker A. */
static void *ks_gui;

static std::string sym(tep_handle *tep, unsigned long long addr)
{
	const char *name = tep_find_function(tep, addr);
	char buf[320];

	if (name)
		snprintf(buf, sizeof(buf), "%s+0x%llx", name,
			 addr - tep_find_function_address(tep, addr));
	else
		snprintf(buf, sizeof(buf), "0x%llx", addr);
	return buf;
}

static unsigned long long field_val(tep_event *ev, tep_record *rec, const char *name,
				    unsigned long long def)
{
	unsigned long long v;

	if (lbr_field__val(ev, rec, name, &v))
		return def;
	return v;
}

static std::string trimmed_line(unsigned long long n, const char *what)
{
	char line[128];

	if (!n)
		return "";
	snprintf(line, sizeof(line), "    [%llu tracing-path %s trimmed]\n", n, what);
	return line;
}

/*
 * The record's call tree: its task's funcgraph events on its CPU from span_ns before the
 * snapshot up to it (lbr:calls, tracedat-fgraph.h)
 */
static std::string call_tree(tep_handle *tep, tracecmd_input *in, int cpu, tep_record *snap,
			     tep_event *calls, tep_record *rec)
{
	unsigned long long span = field_val(calls, rec, "span_ns", 0);
	unsigned long long nr = field_val(calls, rec, "nr", 0);
	long long origin = (int)field_val(calls, rec, "origin", (unsigned long long)-1);
	tep_event *en = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	tep_event *ex = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");
	std::vector<tep_record *> recs;
	std::string out = "\ncalls (origin ";
	const unsigned char *p;
	tep_record *r;
	int len = 0, pid = tep_data_pid(tep, snap);
	unsigned long long start = snap->ts > span ? snap->ts - span : 0, entries = 0;
	char *tree;

	p = (const unsigned char *)lbr_field__raw(calls, rec, "origin_func", &len);
	out += origin >= 0 && p && len > 0 ?
		std::string((const char *)p, strnlen((const char *)p, len)) : "none";
	p = (const unsigned char *)lbr_field__raw(calls, rec, "origin_ret", &len);
	if (origin >= 0 && p && len > 1)
		out += ", ret=" + std::string((const char *)p, strnlen((const char *)p, len));
	out += "):\n";
	if (!en || !ex)
		return out + "    (the file has no funcgraph formats)\n";
	if (tracecmd_set_cpu_to_timestamp(in, cpu, start) < 0)
		return out + "    (cannot be read)\n";
	/* the task's entries and exits from the tree's start to the snapshot */
	while ((r = tracecmd_read_data(in, cpu)) && r->ts <= snap->ts) {
		int type = tep_data_type(tep, r);

		if (r->ts >= start && tep_data_pid(tep, r) == pid &&
		    (type == en->id || (type == ex->id && entries)) &&
		    (type == ex->id || entries < nr)) {
			entries += type == en->id;
			recs.push_back(r);
			continue;
		}
		tracecmd_free_record(r);
	}
	if (r)
		tracecmd_free_record(r);
	tree = lbr_calls__tree(tep, recs.data(), recs.size(), origin);
	out += tree ? tree : "";
	free(tree);
	for (tep_record *x : recs)
		tracecmd_free_record(x);
	return out;
}

/* The record of the snapshot, and of the stack event right behind it on the same CPU. */
static std::string describe(int sd, const kshark_entry *e)
{
	kshark_context *kctx = nullptr;
	kshark_data_stream *stream;
	tracecmd_input *in;
	tep_handle *tep;
	tep_event *snap, *stack, *ustack, *calls;
	std::string tree;
	tep_record *rec, *next;
	const unsigned char *p;
	char line[128], ret[LBR_RET_LEN] = "";
	std::string out;
	int len = 0, cpu, kind;

	if (!kshark_instance(&kctx) || !(stream = kshark_get_data_stream(kctx, sd)))
		return "no data stream";
	tep = kshark_get_tep(stream);
	in = kshark_get_tep_input(stream);
	snap = tep ? tep_find_event_by_name(tep, "lbr", "branch_snapshot") : nullptr;
	stack = tep ? tep_find_event_by_name(tep, "lbr", "stack") : nullptr;
	rec = in && snap ? tracecmd_read_at(in, e->offset, &cpu) : nullptr;
	if (!rec)
		return "the snapshot record cannot be read";
	p = (const unsigned char *)lbr_field__raw(snap, rec, lbr_field__name(snap, "attach", "hook"),
						  &len);
	out = p && len > 0 ? std::string((const char *)p, strnlen((const char *)p, len)) : "?";
	/* the call with its arguments, in files that have them */
	if (field_val(snap, rec, "has_call", 0)) {
		p = (const unsigned char *)lbr_field__raw(snap, rec, "call", &len);
		if (p && len > 0)
			out += " " + std::string((const char *)p, strnlen((const char *)p, len));
	}
	/* files from before typed return values hold a signed value in every snapshot */
	kind = field_val(snap, rec, "ret_kind", LBRSNAP_RET_SIGNED);
	if (kind) {
		out += "  ret=";
		lbr_ret__format((enum lbrsnap_ret_kind)kind, field_val(snap, rec, "ret", 0), ret,
				sizeof(ret));
	}
	snprintf(line, sizeof(line), "%s  CPU %d  pid %d\n\nbranches (most recent first):\n", ret,
		 e->cpu, e->pid);
	out += line;
	/* entries left after trimming keep their index in the snapshot */
	int first = field_val(snap, rec, lbr_field__name(snap, "trim_branches", "trimmed"), 0);
	out += trimmed_line(first, "entries");
	p = (const unsigned char *)lbr_field__raw(snap, rec, "entries", &len);
	for (int i = 0; p && i < len / LBR_ENTRY_SIZE; i++, p += LBR_ENTRY_SIZE) {
		snprintf(line, sizeof(line), "%2d  ", first + i);
		out += line + sym(tep, tep_read_number(tep, p, 8)) + "  ->  " +
		       sym(tep, tep_read_number(tep, p + 8, 8)) + "\n";
	}
	if (!field_val(snap, rec, "nr", 0))
		out += "  (none: no LBR on this machine, or not captured)\n";
	ustack = tep_find_event_by_name(tep, "lbr", "user_stack");
	calls = tep_find_event_by_name(tep, "lbr", "calls");
	/*
	 * branch events, then the stack and the user stack follow the snapshot, all with its
	 * time: the record's events end at the first other time
	 */
	next = stack || ustack || calls ? tracecmd_read_data(in, cpu) : nullptr;
	while (next && next->ts == rec->ts) {
		int type = tep_data_type(tep, next);

		/* another record's snapshot at the same time: this record's events are over */
		if (type == snap->id)
			break;

		if (stack && type == stack->id) {
			out += "\nkernel stack (innermost first):\n";
			const char *trim = lbr_field__name(stack, "trim_stack", "trimmed");

			out += trimmed_line(field_val(stack, next, trim, 0), "frames");
			p = (const unsigned char *)lbr_field__raw(stack, next, "ips", &len);
			for (int i = 0; p && i < len / 8; i++, p += 8)
				out += "    " + sym(tep, tep_read_number(tep, p, 8)) + "\n";
		} else if (ustack && type == ustack->id) {
			/* named when the trace was written: " <- " between frames */
			p = (const unsigned char *)lbr_field__raw(ustack, next, "frames", &len);
			std::string frames = p && len > 0 ?
				std::string((const char *)p, strnlen((const char *)p, len)) : "";
			size_t at = 0, sep;

			out += "\nuser stack (innermost first):\n";
			while (!frames.empty()) {
				sep = frames.find(" <- ", at);
				out += "    " + frames.substr(at, sep == std::string::npos ?
							 std::string::npos : sep - at) + "\n";
				if (sep == std::string::npos)
					break;
				at = sep + 4;
			}
		} else if (calls && type == calls->id) {
			/* the record's last event: reading its tree moves the CPU's cursor */
			tree = call_tree(tep, in, cpu, rec, calls, next);
			break;
		}
		tracecmd_free_record(next);
		next = tracecmd_read_data(in, cpu);
	}
	if (next)
		tracecmd_free_record(next);
	tracecmd_free_record(rec);
	return out + tree;
}

class SnapshotMark : public KsPlot::PlotObject {
public:
	SnapshotMark(const KsPlot::Point &base, int height, int sd, const kshark_entry *e)
	: _base(base.x(), base.y()), _height(height), _sd(sd), _entry(e) {}

	double distance(int x, int y) const override
	{
		int dx = x - _base.x(), top = _base.y() - _height;

		if (y < top || y > _base.y())
			return 1e9;
		return dx < 0 ? -dx : dx;
	}

private:
	KsPlot::Point _base;
	int _height;
	int _sd;
	const kshark_entry *_entry;

	void _draw(const KsPlot::Color &col, float size) const override
	{
		int top = _base.y() - _height, w = 3;
		KsPlot::Rectangle flag;

		KsPlot::drawLine(_base, KsPlot::Point(_base.x(), top), col, size);
		flag.setPoint(0, _base.x(), top);
		flag.setPoint(1, _base.x() + 2 * w, top);
		flag.setPoint(2, _base.x() + 2 * w, top + 2 * w);
		flag.setPoint(3, _base.x(), top + 2 * w);
		flag._color = col;
		flag.draw();
	}

	void _doubleClick() const override
	{
		QDialog *dlg = new QDialog();
		QPlainTextEdit *text = new QPlainTextEdit(dlg);
		QVBoxLayout *layout = new QVBoxLayout(dlg);

		if (ks_gui)
			markEntryA(ks_gui, _entry);
		text->setReadOnly(true);
		text->setLineWrapMode(QPlainTextEdit::NoWrap);
		text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
		std::string what = describe(_sd, _entry);

		/* the window's text on stderr too, for the tests to read */
		if (getenv("LBRSNAP_KS_VERBOSE"))
			fprintf(stderr, "lbr plugin: window:\n%s\nlbr plugin: end of window\n",
				what.c_str());
		text->setPlainText(QString::fromStdString(what));
		layout->addWidget(text);
		dlg->setWindowTitle("LBR snapshot");
		dlg->setAttribute(Qt::WA_DeleteOnClose);
		dlg->resize(900, 520);
		dlg->show();
	}
};

static void draw_snapshots(kshark_cpp_argv *argv_c, int sd, int val, int draw_action)
{
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	lbr_context *ctx = __get_context(sd);
	IsApplicableFunc check;

	if (!ctx || !(draw_action & (KSHARK_CPU_DRAW | KSHARK_TASK_DRAW)))
		return;
	if (draw_action & KSHARK_CPU_DRAW)
		check = [=] (kshark_data_container *d, ssize_t i) {
			return d->data[i]->entry->cpu == val &&
			       d->data[i]->entry->stream_id == sd;
		};
	else
		check = [=] (kshark_data_container *d, ssize_t i) {
			return d->data[i]->entry->pid == val &&
			       d->data[i]->entry->stream_id == sd;
		};
	auto make = [=] (std::vector<const KsPlot::Graph *> graph, std::vector<int> bin,
			 std::vector<kshark_data_field_int64 *> data, KsPlot::Color, float) {
		int nr = data[0]->field, h = graph[0]->height();
		KsPlot::Color col;
		SnapshotMark *mark;

		nr = nr < 0 ? 0 : nr > LBR_MAX_ENTRIES ? LBR_MAX_ENTRIES : nr;
		/* a third of the graph for an empty snapshot up to the full height for 32 */
		mark = new SnapshotMark(graph[0]->bin(bin[0])._base,
					h / 3 + (h - h / 3) * nr / LBR_MAX_ENTRIES, sd,
					data[0]->entry);
		if (nr)
			col.setRainbowColor(nr * 3);
		else
			col.set(128, 128, 128);
		mark->_color = col;
		mark->_size = nr > 16 ? 3 : 2;
		return (KsPlot::PlotObject *)mark;
	};
	/* per bin, the snapshot with the most entries speaks for the bin */
	eventFieldPlotMax(argv, ctx->snapshots, check, make, {}, 0);
}

static void on_snapshot(kshark_data_stream *stream, void *rec, kshark_entry *entry)
{
	lbr_context *ctx = __get_context(stream->stream_id);
	int64_t nr, trimmed;

	/* the entries the branch list shows: the tracing path's are left out */
	/* "trimmed" in files written before the rename */
	if (kshark_read_record_field_int(stream, rec, "trim_branches", &trimmed) &&
	    kshark_read_record_field_int(stream, rec, "trimmed", &trimmed))
		trimmed = 0;
	if (ctx && !kshark_read_record_field_int(stream, rec, "nr", &nr))
		kshark_data_container_append(ctx->snapshots, entry, nr - trimmed);
}

extern "C" {

int KSHARK_PLOT_PLUGIN_INITIALIZER(kshark_data_stream *stream)
{
	lbr_context *ctx;
	int id = kshark_find_event_id(stream, "lbr/branch_snapshot");

	/* streams without lbr events are not ours */
	if (id < 0)
		return 0;
	ctx = __init(stream->stream_id);
	if (!ctx)
		return 0;
	ctx->snapshot_id = id;
	ctx->snapshots = kshark_init_data_container();
	if (!ctx->snapshots) {
		__close(stream->stream_id);
		return 0;
	}
	kshark_register_event_handler(stream, id, on_snapshot);
	kshark_register_draw_handler(stream, draw_snapshots);
	if (getenv("LBRSNAP_KS_VERBOSE"))
		fprintf(stderr, "lbr plugin: stream %d (%s): lbr/branch_snapshot id %d\n",
			stream->stream_id, stream->file, id);
	return 1;
}

int KSHARK_PLOT_PLUGIN_DEINITIALIZER(kshark_data_stream *stream)
{
	lbr_context *ctx = __get_context(stream->stream_id);

	if (!ctx)
		return 0;
	kshark_unregister_event_handler(stream, ctx->snapshot_id, on_snapshot);
	kshark_unregister_draw_handler(stream, draw_snapshots);
	__close(stream->stream_id);
	return 1;
}

void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui_ptr)
{
	ks_gui = gui_ptr;
	return nullptr;
}

}
