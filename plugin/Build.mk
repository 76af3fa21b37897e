# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Viewer plugins for lbr events in trace.dat files:
#   plugin_lbr.so   libtraceevent plugin (trace-cmd report, KernelShark's list, perf script)
#   plugin-lbr.so   KernelShark 2.x plot plugin (snapshot marks, branch list on double-click)
# (in its own directory: perf and trace-cmd try every .so of a libtraceevent plugin directory)

# libtraceevent and KernelShark look in their own library directories, not under PREFIX.
TEP_PLUGIN_DIR ?= $(shell pkg-config --variable=libdir libtraceevent 2>/dev/null)/traceevent/plugins
KS_PLUGIN_DIR ?= $(shell pkg-config --variable=libdir libkshark 2>/dev/null)/kernelshark/plugins
# perf reads only $TRACEEVENT_PLUGIN_DIR and this per-user directory
TEP_USER_PLUGIN_DIR ?= $(HOME)/.local/lib/traceevent/plugins

PLUGIN_CFLAGS := -g -O2 -fPIC -Wall -Wextra -Wno-unused-parameter -Ilib -Ibpf
KS_PKGS := libkshark Qt5Widgets libtraceevent

# Both plugins print return values with lbrsnap's own formatter: lib/lbrfile/ret-value.c, built
# position-independent and hidden, so that the two plugins in one KernelShark process and
# their hosts never see each other's copy.
$(OUT)/plugin/ret-value.o: lib/lbrfile/ret-value.c lib/lbrfile/ret-value.h | deps-ok
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PLUGIN_CFLAGS) -D_GNU_SOURCE -fvisibility=hidden -c -o $@ $<

# Record-bounded field reads, shared by both plugins the same way.
$(OUT)/plugin/lbr-field.o: plugin/lbr-field.c plugin/lbr-field.h | deps-ok
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PLUGIN_CFLAGS) -D_GNU_SOURCE -fvisibility=hidden \
		$(shell pkg-config --cflags libtraceevent 2>/dev/null) -c -o $@ $<

# The window's call tree (--calls): the KernelShark plugin's only
$(OUT)/plugin/lbr-calls.o: plugin/lbr-calls.c plugin/lbr-calls.h plugin/lbr-field.h | deps-ok
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PLUGIN_CFLAGS) -D_GNU_SOURCE -fvisibility=hidden \
		$(shell pkg-config --cflags libtraceevent 2>/dev/null) -c -o $@ $<

# No -ltraceevent: the symbols must bind to the host (perf links libtraceevent statically).
$(OUT)/plugin/plugin_lbr.so: plugin/plugin_lbr.c $(OUT)/plugin/ret-value.o \
		$(OUT)/plugin/lbr-field.o | deps-ok
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PLUGIN_CFLAGS) -shared $(shell pkg-config --cflags libtraceevent 2>/dev/null) \
		-o $@ $^

$(OUT)/plugin/kernelshark/plugin-lbr.so: plugin/kshark-lbr.cpp $(OUT)/plugin/ret-value.o \
		$(OUT)/plugin/lbr-field.o $(OUT)/plugin/lbr-calls.o | deps-ok
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CXX) -std=c++17 $(PLUGIN_CFLAGS) -Wno-ignored-qualifiers -shared \
		$(shell pkg-config --cflags $(KS_PKGS) 2>/dev/null) -I/usr/include/kernelshark \
		-o $@ $^ -lkshark -lkshark-plot -lkshark-gui \
		$(shell pkg-config --libs Qt5Widgets 2>/dev/null) -ltracecmd -ltraceevent

ALL_TARGETS += $(OUT)/plugin/plugin_lbr.so $(OUT)/plugin/kernelshark/plugin-lbr.so

.PHONY: install-plugins install-plugin-user
install-plugins: $(OUT)/plugin/plugin_lbr.so $(OUT)/plugin/kernelshark/plugin-lbr.so
	$(Q)install -d $(DESTDIR)$(TEP_PLUGIN_DIR) $(DESTDIR)$(KS_PLUGIN_DIR)
	$(Q)install -m 0644 $(OUT)/plugin/plugin_lbr.so $(DESTDIR)$(TEP_PLUGIN_DIR)/plugin_lbr.so
	$(Q)install -m 0644 $(OUT)/plugin/kernelshark/plugin-lbr.so $(DESTDIR)$(KS_PLUGIN_DIR)/plugin-lbr.so
INSTALL_TARGETS += install-plugins
UNINSTALL_FILES += $(TEP_PLUGIN_DIR)/plugin_lbr.so $(KS_PLUGIN_DIR)/plugin-lbr.so

# For perf: `make install-plugin-user` (as the user who runs perf)
install-plugin-user: $(OUT)/plugin/plugin_lbr.so
	$(Q)install -d $(TEP_USER_PLUGIN_DIR)
	$(Q)install -m 0644 $(OUT)/plugin/plugin_lbr.so $(TEP_USER_PLUGIN_DIR)/plugin_lbr.so
