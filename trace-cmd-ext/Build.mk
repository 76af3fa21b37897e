# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# trace-cmd-lbr (convert, merge, record: lbrsnap's trace-cmd integration) and the synthetic
# capture writer its tests use.

# trace.dat v7 input may be zstd compressed (lib/tracedat/tracedat-input.c)
PKG_CONFIG_LIBS += libzstd

TCLBR_OBJS := $(patsubst %.c,$(OUT)/%.o,$(wildcard trace-cmd-ext/*.c))
$(TCLBR_OBJS) $(OUT)/trace-cmd-ext/tests/synth-capture.o: CFLAGS += -Itrace-cmd-ext
$(TCLBR_OBJS) $(OUT)/trace-cmd-ext/tests/synth-capture.o: | $(BPF_SKELS)

$(OUT)/trace-cmd-lbr: $(TCLBR_OBJS) $(LIBLBRSNAP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

$(OUT)/tests/helpers/synth-capture: $(OUT)/trace-cmd-ext/tests/synth-capture.o $(LIBLBRSNAP)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

ALL_TARGETS += $(OUT)/trace-cmd-lbr $(OUT)/tests/helpers/synth-capture

.PHONY: install-trace-cmd-lbr
install-trace-cmd-lbr: $(OUT)/trace-cmd-lbr
	$(Q)install -d $(DESTDIR)$(BINDIR)
	$(Q)install -m 0755 $(OUT)/trace-cmd-lbr $(DESTDIR)$(BINDIR)/trace-cmd-lbr
INSTALL_TARGETS += install-trace-cmd-lbr
UNINSTALL_FILES += $(BINDIR)/trace-cmd-lbr
