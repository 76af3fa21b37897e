# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Speed and memory benchmarks: `make bench` (not part of `make check`; timings do not belong
# in tests). tests/bench/run-bench writes build/bench/results.txt and fails when a target is
# missed; tests/bench/README.md describes every number.

BENCH_BINS := $(OUT)/tests/bench/bench-attach $(OUT)/tests/bench/bench-run \
	      $(OUT)/tests/bench/bench-callcost $(OUT)/tests/bench/reject-batches
BENCH_OBJS := $(OUT)/tests/bench/empty.bpf.o $(OUT)/tests/bench/reference.bpf.o \
	      $(OUT)/tests/bench/empty-reject.bpf.o $(OUT)/tests/bench/empty-fexit.bpf.o \
	      $(OUT)/tests/bench/clock-pair.bpf.o

$(OUT)/tests/bench/bench-attach: $(OUT)/tests/bench/bench-attach.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(OUT)/tests/bench/bench-run: $(OUT)/tests/bench/bench-run.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(OUT)/tests/bench/bench-callcost: $(OUT)/tests/bench/bench-callcost.o $(OUT)/tests/bench/bench-progs.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(OUT)/tests/bench/reject-batches: $(OUT)/tests/bench/reject-batches.o $(OUT)/tests/bench/bench-progs.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# built with everything else: make check runs each section briefly (tests/host/t-bench-smoke)
ALL_TARGETS += $(BENCH_BINS) $(BENCH_OBJS)

bench: all $(BENCH_BINS) $(BENCH_OBJS)
	$(Q)./tests/bench/run-bench
