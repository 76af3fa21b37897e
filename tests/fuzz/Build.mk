# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# libFuzzer targets, one per parser of untrusted input: `make fuzz` builds them in their own
# tree (FUZZ_OUT, default build-fuzz) with clang, -fsanitize=fuzzer and ASan + UBSan;
# tests/host/t-fuzz runs each briefly on its corpus and its regression inputs, and
# tests/fuzz/run-fuzz runs them for long. tests/fuzz/README.md tells the layout.

# Every tests/fuzz/fuzz-NAME.c but fuzz-file.c (the shared input helper) is a target.
FUZZ_TARGETS := $(filter-out file,$(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c)))
FUZZ_BINS := $(patsubst %,$(OUT)/tests/fuzz/fuzz-%,$(FUZZ_TARGETS))

$(OUT)/tests/fuzz/fuzz-%: $(OUT)/tests/fuzz/fuzz-%.o $(OUT)/tests/fuzz/fuzz-file.o $(LIBLBRSNAP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

# The plugin's own sources, built with the fuzzing flags (plugin/Build.mk's objects are not).
$(OUT)/tests/fuzz/plugin-%.o: plugin/%.c | deps-ok
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -Iplugin -c $< -o $@

$(OUT)/tests/fuzz/fuzz-plugin: $(OUT)/tests/fuzz/plugin-plugin_lbr.o \
	$(OUT)/tests/fuzz/plugin-lbr-field.o

# inject merges each input with the capture of the lbrfile seeds
$(OUT)/tests/fuzz/fuzz-inject.o: CFLAGS += \
	-DFUZZ_CAPTURE='"$(CURDIR)/tests/fuzz/corpus/lbrfile/record.data"'

# the structure target edits a real recording and merges the capture of the lbrfile seeds
$(OUT)/tests/fuzz/fuzz-tracedat-struct.o $(OUT)/tests/fuzz/fuzz-tracedat-check.o: CFLAGS += \
	-DFUZZ_RECORDING='"$(CURDIR)/tests/fuzz/corpus/tracedat/recording-v6.dat"' \
	-DFUZZ_CAPTURE='"$(CURDIR)/tests/fuzz/corpus/lbrfile/record.data"'
# fuzz-tracedat-check includes fuzz-tracedat-struct.c
$(OUT)/tests/fuzz/fuzz-tracedat-check.o: tests/fuzz/fuzz-tracedat-struct.c

.PHONY: fuzz-bins
fuzz-bins: $(FUZZ_BINS)
