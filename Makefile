# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# lbrsnap top-level Makefile.
#
#   make                 build everything (installs missing Debian packages first)
#   make deps            install the Debian packages the build and the tests need
#   make check           run every test layer: unit, host, vm
#   make check-unit|check-host|check-vm
#   make bench           benchmarks (speed and memory targets)
#   make install PREFIX=/usr/local DESTDIR=
#   make uninstall
#
# Sub-directories add their targets through Build.mk fragments (see the include below), so
# each part of the tree owns its own rules.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
LIBDIR := $(PREFIX)/lib
MANDIR := $(PREFIX)/share/man
DATADIR := $(PREFIX)/share/lbrsnap

OUT := build
CLANG ?= clang
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)
CC ?= gcc
V ?= 0

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# The Debian 12 packages the build and every test layer need. `make deps` installs the missing
# ones; the check is cheap, so `make` and `make check` run it every time.
DEPS_PKGS := make gcc pkg-config clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev \
	libtraceevent-dev libtracefs-dev libtracecmd-dev libdw-dev libcunit1-dev libzstd-dev \
	trace-cmd linux-perf python3 qemu-system-x86 busybox-static cpio xz-utils zstd kmod \
	kernelshark libkshark-dev libjson-c-dev qtbase5-dev xvfb xdotool imagemagick asciidoc-base docbook-xsl docbook-xml xsltproc

# The kernel whose BTF becomes vmlinux.h: the oldest supported guest kernel, so that a field
# 6.1 lacks is a compile error here instead of a CO-RE load failure on a user's machine.
VMLINUX_KERNEL ?= 6.1

PKG_CONFIG_LIBS := libbpf libelf zlib libtraceevent libtracefs libtracecmd libdw
CFLAGS ?= -g -O2
CFLAGS += -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-D_GNU_SOURCE -std=gnu11 -Ibpf -I$(OUT) -I$(OUT)/bpf
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Wall -Wno-unused-function \
	-I$(OUT) -Ibpf

# pkg-config flags are only known once the packages are present.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKG_CONFIG_LIBS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKG_CONFIG_LIBS) 2>/dev/null)

.DEFAULT_GOAL := all
# Keep BPF objects: skeletons embed them but the static tests read them too.
.SECONDARY:
.PHONY: all deps check check-unit check-host check-vm bench install uninstall clean \
	install-bin install-man FORCE

ALL_TARGETS :=
INSTALL_TARGETS :=
UNINSTALL_FILES :=
CLEAN_FILES :=
UNIT_TESTS :=

# The library first: every other fragment links it.
include lib/Build.mk
include $(filter-out lib/Build.mk,$(sort $(wildcard */Build.mk tests/*/Build.mk)))

all: deps-ok $(ALL_TARGETS)

# `deps-ok` is the cheap "is anything missing" check in front of every build.
.PHONY: deps-ok
deps-ok:
	$(Q)./tests/deps --check >/dev/null || ./tests/deps --install $(DEPS_PKGS)

deps:
	$(Q)./tests/deps --install $(DEPS_PKGS)

$(OUT)/.dir:
	$(Q)mkdir -p $(OUT) && touch $@

# vmlinux.h from the guest kernel's own image (fetched and cached by the guest runner).
$(OUT)/vmlinux.h: | $(OUT)/.dir deps-ok
	$(call msg,GEN,$@)
	$(Q)kdir=$$(./tests/vm/fetch-kernel $(VMLINUX_KERNEL)) && \
		$(BPFTOOL) btf dump file $$kdir/vmlinux format c > $@.tmp && mv $@.tmp $@

$(OUT)/%.bpf.o: %.bpf.c $(OUT)/vmlinux.h $(wildcard bpf/*.h) | deps-ok
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp && mv $@.tmp $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$(notdir $*))_bpf > $@.tmp && mv $@.tmp $@

$(OUT)/%.o: %.c | deps-ok
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(OUT) -name '*.d' 2>/dev/null)

check: all
	$(Q)./tests/run-tests unit host vm

check-unit: all
	$(Q)./tests/run-tests unit

check-host: all
	$(Q)./tests/run-tests host

check-vm: all
	$(Q)./tests/run-tests vm

install: all $(INSTALL_TARGETS)

uninstall:
	$(Q)for f in $(UNINSTALL_FILES); do rm -f "$(DESTDIR)$$f"; done

clean:
	$(call msg,CLEAN,$(OUT))
	$(Q)rm -rf $(OUT) $(CLEAN_FILES)

# The README's main job: a real capture on this machine, its report printed.
.PHONY: demo
demo: all
	$(Q)cd $(OUT) && ./lbrsnap record -o demo.data -- ls /nonexistent; \
		./lbrsnap report -i demo.data
