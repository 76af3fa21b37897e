# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Programs the capture tests drive: a syscall load with exact, known counts, a load making
# kernel functions of each return type return known values, and a BPF object that breaks the
# snapshot-first rule on purpose (the static check must reject it).

$(OUT)/tests/helpers/syscall-load: $(OUT)/tests/helpers/syscall-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lpthread

# Static: guests exec it through 9p, where every shared library costs a round trip. The
# sanitizers' runtimes do not link statically: it is built without them in every tree.
$(OUT)/tests/helpers/ret-load: SAN_CFLAGS :=
$(OUT)/tests/helpers/ret-load: SAN_LDFLAGS :=
$(OUT)/tests/helpers/ret-load: $(OUT)/tests/helpers/ret-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -static -o $@ $^

# Static and not position independent: the watchpoint tests take its variable's address
# from nm.
$(OUT)/tests/helpers/watch-load: SAN_CFLAGS :=
$(OUT)/tests/helpers/watch-load: SAN_LDFLAGS :=
$(OUT)/tests/helpers/watch-load: $(OUT)/tests/helpers/watch-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -static -no-pie -o $@ $^

# Dynamic (the tests probe its libc by name), with DWARF at -O1 so that the uprobe tests type
# its functions' arguments and return values, and with <sys/sdt.h> for its USDT probe
# (systemtap-sdt-dev, a build package).
$(OUT)/tests/helpers/uprobe-load.o: SAN_CFLAGS :=
$(OUT)/tests/helpers/uprobe-load.o: CFLAGS += -g -O1
$(OUT)/tests/helpers/uprobe-load: SAN_LDFLAGS :=
$(OUT)/tests/helpers/uprobe-load: $(OUT)/tests/helpers/uprobe-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# A known call tree for --calls, typed from its DWARF as uprobe-load is; frame pointers, so
# that the user stack at a return (the origin's) walks up to main.
$(OUT)/tests/helpers/calls-load.o: SAN_CFLAGS :=
$(OUT)/tests/helpers/calls-load.o: CFLAGS += -g -O1 -fno-omit-frame-pointer \
	-mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls
$(OUT)/tests/helpers/calls-load: SAN_LDFLAGS :=
$(OUT)/tests/helpers/calls-load: $(OUT)/tests/helpers/calls-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# Dynamically linked, with frame pointers: user stacks walk through it, and its maps hold
# the executable and libc, as a real program's do.
$(OUT)/tests/helpers/ustack-load.o: CFLAGS += -O1 -fno-omit-frame-pointer \
	-mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls
$(OUT)/tests/helpers/ustack-load: SAN_CFLAGS :=
$(OUT)/tests/helpers/ustack-load: SAN_LDFLAGS :=
$(OUT)/tests/helpers/ustack-load: $(OUT)/tests/helpers/ustack-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# Without frame pointers, as distribution binaries are built (the walk of its user stack
# reads data), no red zone (its asm pushes), with a build id for its separate debug file.
$(OUT)/tests/helpers/nofp-load.o: CFLAGS += -O2 -fomit-frame-pointer -mno-red-zone
$(OUT)/tests/helpers/nofp-load: SAN_CFLAGS :=
$(OUT)/tests/helpers/nofp-load: SAN_LDFLAGS :=
$(OUT)/tests/helpers/nofp-load: $(OUT)/tests/helpers/nofp-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -Wl,--build-id -o $@ $^

$(OUT)/tests/helpers/timer-load: $(OUT)/tests/helpers/timer-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(OUT)/tests/helpers/ia32-load: $(OUT)/tests/helpers/ia32-load.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

ALL_TARGETS += $(OUT)/tests/helpers/ustack-load $(OUT)/tests/helpers/nofp-load \
	$(OUT)/tests/helpers/timer-load $(OUT)/tests/helpers/ia32-load
# A thread that execs (t-filter-remembered: its tid becomes the leader's)
$(OUT)/tests/helpers/exec-thread: $(OUT)/tests/helpers/exec-thread.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lpthread

ALL_TARGETS += $(OUT)/tests/helpers/exec-thread
ALL_TARGETS += $(OUT)/tests/helpers/syscall-load $(OUT)/tests/helpers/ret-load \
	$(OUT)/tests/helpers/watch-load $(OUT)/tests/helpers/bad-snapshot.bpf.o \
	$(OUT)/tests/helpers/uprobe-load $(OUT)/tests/helpers/calls-load

# With DWARF at -O1 and <sys/sdt.h>, as uprobe-load; its twin file linked first (its DWARF
# first) so that typing a function by its name alone would take the wrong twin's.
VALUES_LOAD_OBJS := $(OUT)/tests/helpers/values-load-twin.o $(OUT)/tests/helpers/values-load.o
$(VALUES_LOAD_OBJS): SAN_CFLAGS :=
$(VALUES_LOAD_OBJS): CFLAGS += -g -O1
$(OUT)/tests/helpers/values-load: SAN_LDFLAGS :=
$(OUT)/tests/helpers/values-load: $(VALUES_LOAD_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

ALL_TARGETS += $(OUT)/tests/helpers/values-load

# The capture programs with a helper call planted before the snapshot on the filter-first
# path (LBRSNAP_PLANT_CALL): t-snapshot-first shows the static check finds it.
ifeq ($(BPF_FROM),)
$(OUT)/tests/helpers/capture-planted.bpf.o: bpf/capture.bpf.c $(wildcard bpf/*.h) | deps-ok
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DLBRSNAP_PLANT_CALL -c $< -o $@.tmp && mv $@.tmp $@
endif
ALL_TARGETS += $(OUT)/tests/helpers/capture-planted.bpf.o

# tracing_multi on its own (tests/vm/t-tracing-multi): linked with the library it proves, as
# the unit tests are (the sanitizers' trees build the library with them).
$(OUT)/tests/helpers/tmulti-load: $(OUT)/tests/helpers/tmulti-load.o $(LIBLBRSNAP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

ALL_TARGETS += $(OUT)/tests/helpers/tmulti-load

# The rows of KernelShark's list view through libkshark (t-trace-kernelshark-rows), no
# display; without the sanitizers: it exercises libkshark, not lbrsnap
$(OUT)/tests/helpers/ks-rows.o: SAN_CFLAGS :=
$(OUT)/tests/helpers/ks-rows.o: CFLAGS += -I/usr/include/kernelshark -Wno-ignored-qualifiers \
	$(shell pkg-config --cflags libtraceevent 2>/dev/null)
$(OUT)/tests/helpers/ks-rows: SAN_LDFLAGS :=
$(OUT)/tests/helpers/ks-rows: $(OUT)/tests/helpers/ks-rows.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lkshark

ALL_TARGETS += $(OUT)/tests/helpers/ks-rows

# A machine whose watchpoints never fire, preloaded (t-mem-nofire): a shared object, built
# without the sanitizers, whose runtimes must come first in a preloaded process.
$(OUT)/tests/helpers/nofire.o: SAN_CFLAGS :=
$(OUT)/tests/helpers/nofire.o: CFLAGS += -fPIC
$(OUT)/tests/helpers/nofire.so: SAN_LDFLAGS :=
$(OUT)/tests/helpers/nofire.so: $(OUT)/tests/helpers/nofire.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -shared -o $@ $^ -ldl

ALL_TARGETS += $(OUT)/tests/helpers/nofire.so
