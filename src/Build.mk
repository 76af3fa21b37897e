# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The user-space core (capture, record model, writers) and the lbrsnap front end.
#
# Every src/*.c but main.c goes into build/liblbrsnap.a, which the front ends and the unit
# tests link; a new file in src/ needs no Makefile change.

CORE_SRCS := $(filter-out src/main.c,$(wildcard src/*.c))
CORE_OBJS := $(patsubst %.c,$(OUT)/%.o,$(CORE_SRCS))
BPF_SKELS := $(patsubst %.bpf.c,$(OUT)/%.skel.h,$(wildcard bpf/*.bpf.c))
LIBLBRSNAP := $(OUT)/liblbrsnap.a

# Sources include the skeletons, so they must exist before any core object compiles.
$(CORE_OBJS) $(OUT)/src/main.o: | $(BPF_SKELS)

$(LIBLBRSNAP): $(CORE_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUT)/lbrsnap: $(OUT)/src/main.o $(LIBLBRSNAP)
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
