# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Guest tests: the QEMU runner (tests/vm/run-vm) needs no build; the fexit smoke program does.
# It only runs inside a guest (fexit fails with EPERM on the development host), driven by
# tests/vm/t-smoke-fexit.

VM_SMOKE := $(OUT)/tests/vm/smoke/fexit_openat

$(VM_SMOKE).o: $(VM_SMOKE).skel.h

$(VM_SMOKE): $(VM_SMOKE).o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

ALL_TARGETS += $(VM_SMOKE)
