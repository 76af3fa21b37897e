# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# cli/: the lbrsnap front end (also run as perf-lbr, `perf lbr`): main.c dispatches to one
# builtin-NAME.c per subcommand; all the work is in liblbrsnap.a (lib/).

LBRSNAP_SRCS := $(wildcard cli/*.c)
LBRSNAP_OBJS := $(patsubst %.c,$(OUT)/%.o,$(LBRSNAP_SRCS))

$(LBRSNAP_OBJS): CFLAGS += -Icli
$(LBRSNAP_OBJS): | $(BPF_SKELS)

$(OUT)/lbrsnap: $(LBRSNAP_OBJS) $(LIBLBRSNAP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

$(OUT)/perf-lbr: $(OUT)/lbrsnap
	$(Q)ln -sf lbrsnap $@

ALL_TARGETS += $(OUT)/lbrsnap $(OUT)/perf-lbr

.PHONY: install-lbrsnap
install-lbrsnap: $(OUT)/lbrsnap
	$(Q)install -d $(DESTDIR)$(BINDIR)
	$(Q)install -m 0755 $(OUT)/lbrsnap $(DESTDIR)$(BINDIR)/lbrsnap
INSTALL_TARGETS += install-lbrsnap
UNINSTALL_FILES += $(BINDIR)/lbrsnap
