# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Unit tests: every tests/unit/test-*.c is one CUnit program linked with liblbrsnap.a.
# tests/run-tests runs build/tests/unit/test-*; each prints "ok - NAME" / "not ok - NAME".

UNIT_SRCS := $(wildcard tests/unit/test-*.c)
UNIT_BINS := $(patsubst %.c,$(OUT)/%,$(UNIT_SRCS))

$(OUT)/tests/unit/%.o: CFLAGS += -Itests/unit -Icli
$(patsubst %,%.o,$(UNIT_BINS)): | $(BPF_SKELS)

$(OUT)/tests/unit/test-%: $(OUT)/tests/unit/test-%.o $(OUT)/tests/unit/cunit-main.o $(LIBLBRSNAP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lcunit -lpthread

ALL_TARGETS += $(UNIT_BINS)

# test-report and test-json-writer read their JSON back with json-c (libjson-c-dev, in
# BUILD_PKGS).
$(OUT)/tests/unit/test-report $(OUT)/tests/unit/test-json-writer: PKG_LIBS += -ljson-c
# test-report runs the report command itself
$(OUT)/tests/unit/test-report: $(OUT)/cli/builtin-report.o
