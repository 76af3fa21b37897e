# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# perf integration: `perf lbr` (perf-lbr on PATH and in perf's exec path), the perf script
# Python scripts where `perf script -l` lists them, and the synthetic-capture helper of the
# perf tests. perf-lbr(1), which `perf help lbr` opens, is built by Documentation/Build.mk.

# perf runs perf-CMD and finds scripts in its exec path (`perf --exec-path`), whatever PREFIX.
ifndef PERF_EXEC_DIR
PERF_EXEC_DIR := $(shell perf --exec-path 2>/dev/null || echo /usr/lib/perf-core)
endif
PERF_SCRIPTS_DIR := $(PERF_EXEC_DIR)/scripts/python
PERF_PY := lbr-calltree.py lbr-flow.py lbr-paths.py lbrsnap_perf.py
PERF_PY_BIN := lbr-calltree-record lbr-calltree-report lbr-flow-record lbr-flow-report lbr-paths-record lbr-paths-report

# lib/Build.mk (LIBLBRSNAP) is read after this file: name the archive itself.
$(OUT)/tests/host/perf-mkcapture: $(OUT)/tests/host/t-perf-mkcapture.o $(OUT)/liblbrsnap.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

ALL_TARGETS += $(OUT)/tests/host/perf-mkcapture

# perf-count: what lbrsnap's perf.data reader gets out of a file (t-real-inputs), and
# tracedat-count the same for trace.dat
$(OUT)/tests/host/perf-count: $(OUT)/tests/host/t-perf-count.o $(OUT)/liblbrsnap.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

# tracedat-count: the same for trace.dat, through the trace.dat reader
$(OUT)/tests/host/tracedat-count: $(OUT)/tests/host/t-tracedat-count.o $(OUT)/liblbrsnap.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

ALL_TARGETS += $(OUT)/tests/host/perf-count $(OUT)/tests/host/tracedat-count

.PHONY: install-perf
install-perf: $(OUT)/lbrsnap
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PERF_EXEC_DIR) \
		$(DESTDIR)$(PERF_SCRIPTS_DIR)/bin
	$(Q)ln -sf lbrsnap $(DESTDIR)$(BINDIR)/perf-lbr
	$(Q)ln -sf $(BINDIR)/lbrsnap $(DESTDIR)$(PERF_EXEC_DIR)/perf-lbr
	$(Q)install -m 0644 $(addprefix perf-scripts/,$(PERF_PY)) $(DESTDIR)$(PERF_SCRIPTS_DIR)/
	$(Q)install -m 0755 $(addprefix perf-scripts/bin/,$(PERF_PY_BIN)) \
		$(DESTDIR)$(PERF_SCRIPTS_DIR)/bin/

INSTALL_TARGETS += install-perf
UNINSTALL_FILES += $(BINDIR)/perf-lbr $(PERF_EXEC_DIR)/perf-lbr \
	$(addprefix $(PERF_SCRIPTS_DIR)/,$(PERF_PY)) \
	$(addprefix $(PERF_SCRIPTS_DIR)/bin/,$(PERF_PY_BIN))
