# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# liblbrsnap.a: the user-space core every front end (lbrsnap, perf-lbr, trace-cmd-lbr) and
# the unit tests link. One folder per concern; data flows one way through them:
#
#   capture/       BPF loading and attaching, LBR enabling, workload, capture options,
#                  filters, watchpoints, user probes
#   lbrfile/       lbrsnap.data (the record stream on disk), typed return values and the
#                  branch filter words its META names
#   symbols/       kallsyms, DWARF file:line, trimming of the tracing path
#   view/          the record view (what a record shows, computed once from the file and the
#                  symbols) and the field schema every output encodes it by
#   report/        text and JSON rendering of captures
#   perf/          perf.data reader and writer (generic, no lbr knowledge)
#   perf-lbr/      lbr records as perf.data events: convert, merge (on perf/)
#   tracedat/      trace.dat reader, writer and ring-buffer pages (generic)
#   tracedat-lbr/  lbr records as trace.dat events: formats, convert, merge (on tracedat/)
#   util/          small helpers shared by all of the above
#
# A new .c file in one of them needs no Makefile change.

LIB_SRCS := $(wildcard lib/*/*.c)
LIB_OBJS := $(patsubst %.c,$(OUT)/%.o,$(LIB_SRCS))
BPF_SKELS := $(patsubst %.bpf.c,$(OUT)/%.skel.h,$(wildcard bpf/*.bpf.c))
LIBLBRSNAP := $(OUT)/liblbrsnap.a

# Headers are included by folder ("capture/lbr-enable.h"), so a crossing between folders
# shows in a diff: lib/ alone is on the include path.
CFLAGS += -Ilib

# Sources include the skeletons, so they must exist before any object compiles.
$(LIB_OBJS): | $(BPF_SKELS)

$(LIBLBRSNAP): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# x86-64 syscall numbers are ABI, so their names are built in, as in perf's syscalltbl:
# from the build machine's <asm/unistd_64.h>, then lib/capture/syscalls-late.tbl for the
# syscalls newer than those headers. Arguments come from the running kernel.
SYSCALL_NAMES := $(OUT)/syscall-names.h
SYSCALLS_LATE := lib/capture/syscalls-late.tbl

$(SYSCALL_NAMES): $(SYSCALLS_LATE)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && echo '#include <asm/unistd_64.h>' | $(CC) -dM -E - | \
		sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9]*\)$$/\2 \1/p' | \
		awk 'NR == FNR { seen[$$1] = 1; print; next } \
		     !/^#/ && NF == 2 && !($$1 in seen)' - $(SYSCALLS_LATE) | sort -n | \
		awk '{ printf "\t[%s] = \"%s\",\n", $$1, $$2 }' > $@.tmp && mv $@.tmp $@

$(LIB_OBJS): | $(SYSCALL_NAMES)
