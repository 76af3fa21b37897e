# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# lbrsnap top-level Makefile.
#
#   make                 build lbrsnap, trace-cmd-lbr, the plugins, man pages and test programs
#   make install PREFIX=/usr/local DESTDIR=
#   make uninstall
#   make deps            install the Debian packages of the build and of the tests (as root)
#   make check           run every test layer: unit, host, their ASan + UBSan build's, vm
#   make check-unit|check-host|check-vm
#   make check-asan      build in build-asan with ASan + UBSan, run the unit and host layers
#   make fuzz            build the libFuzzer targets in build-fuzz (tests/fuzz/README.md)
#   make bench           benchmarks (speed and memory targets)
#   make vmlinux-h       regenerate bpf/vmlinux.h from the BTF of VMLINUX_KERNEL
#
# Building needs only the BUILD_PKGS below and no root: missing ones are installed when make
# runs as root, else make stops and names them. The test goals need TEST_PKGS too.
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

# The Debian 12 packages that `make` needs: compilers, bpftool, the libraries the code, the
# plugins (KernelShark's and Qt's for plugin-lbr.so) and the unit tests (CUnit, json-c) link,
# the man page tool chain, and <sys/sdt.h> for the uprobe test helper's USDT probe.
BUILD_PKGS := make gcc g++ pkg-config clang bpftool libbpf-dev libelf-dev zlib1g-dev libzstd-dev \
	libdw-dev libtraceevent-dev libtracefs-dev libtracecmd-dev libkshark-dev qtbase5-dev \
	libcunit1-dev libjson-c-dev python3 asciidoc-base docbook-xml docbook-xsl xsltproc \
	systemtap-sdt-dev
# ...and the ones only the tests run: the tools whose output the tests judge (llvm-objdump,
# perf, trace-cmd, jq; bpftrace, a peer in `make bench`), the QEMU guest runner's, the
# KernelShark screenshot's, clang's libFuzzer and sanitizer runtimes (make fuzz) and valgrind
# (tests/host/t-valgrind).
TEST_PKGS := llvm linux-perf trace-cmd bpftrace jq qemu-system-x86 busybox-static cpio xz-utils \
	zstd kernelshark xvfb xdotool imagemagick libclang-rt-14-dev valgrind

# The goals that run tests want both lists; every other goal only the build's.
ifneq ($(filter deps check check-% bench fuzz,$(MAKECMDGOALS)),)
NEED_PKGS := $(BUILD_PKGS) $(TEST_PKGS)
else
NEED_PKGS := $(BUILD_PKGS)
endif

# bpf/vmlinux.h is part of the tree, like libbpf-tools' headers, so building never fetches a
# kernel. `make vmlinux-h` regenerates it from the BTF of the oldest supported kernel, fetched
# and cached by the guest runner's fetch-kernel: a field that kernel lacks is a compile error
# here instead of a CO-RE load failure on a user's machine. tests/vm/t-vmlinux-h checks that
# the committed header is still that kernel's.
VMLINUX_KERNEL ?= 6.1
VMLINUX_H ?= bpf/vmlinux.h

# SANITIZE=asan or fuzz (set by asan-build and fuzz for their own build trees): ASan and UBSan,
# every undefined behaviour fatal; fuzz adds libFuzzer's coverage instrumentation (clang).
SANITIZE ?=
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifeq ($(SANITIZE),asan)
SAN_CFLAGS = $(SAN_FLAGS)
SAN_LDFLAGS = $(SAN_FLAGS)
else ifeq ($(SANITIZE),fuzz)
SAN_CFLAGS = $(SAN_FLAGS) -fsanitize=fuzzer-no-link
SAN_LDFLAGS = $(SAN_FLAGS)
endif
ASAN_OUT ?= build-asan
FUZZ_OUT ?= build-fuzz

PKG_CONFIG_LIBS := libbpf libelf zlib libtraceevent libtracefs libtracecmd libdw
CFLAGS ?= -g -O2
CFLAGS += -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-D_GNU_SOURCE -std=gnu11 -Ibpf -I$(OUT) -I$(OUT)/bpf $(SAN_CFLAGS)
LDFLAGS += $(SAN_LDFLAGS)
# <bpf/usdt.bpf.h> includes <linux/errno.h>, whose <asm/errno.h> lives in the host's multiarch
# directory, which clang does not search for -target bpf. gcc names it (x86_64-linux-gnu) even
# when CC is clang (x86_64-pc-linux-gnu), as in the fuzz build.
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Wall -Wno-unused-function -Ibpf \
	-idirafter /usr/include/$(shell gcc -dumpmachine 2>/dev/null)

# pkg-config flags are only known once the packages are present.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKG_CONFIG_LIBS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKG_CONFIG_LIBS) 2>/dev/null)

.DEFAULT_GOAL := all
# Keep BPF objects: skeletons embed them but the static tests read them too.
.SECONDARY:
.PHONY: all deps check check-unit check-host check-vm check-asan asan-build fuzz bench install \
	uninstall clean install-bin install-man vmlinux-h FORCE

ALL_TARGETS :=
INSTALL_TARGETS :=
UNINSTALL_FILES :=
CLEAN_FILES :=
UNIT_TESTS :=

# The library first: every other fragment links it.
include lib/Build.mk
include $(filter-out lib/Build.mk,$(sort $(wildcard */Build.mk tests/*/Build.mk)))

all: deps-ok $(ALL_TARGETS)

# `deps-ok` is the cheap "is anything missing" check (one dpkg-query) in front of every build.
.PHONY: deps-ok
deps-ok:
	$(Q)./tests/deps $(NEED_PKGS)

deps: deps-ok
	@echo "deps: $(words $(BUILD_PKGS)) build and $(words $(TEST_PKGS)) test packages installed"

vmlinux-h: | deps-ok
	$(call msg,GEN,$(VMLINUX_H))
	$(Q)kdir=$$(./tests/vm/fetch-kernel $(VMLINUX_KERNEL)) && \
		{ printf '/* Generated by "make vmlinux-h" from the BTF of %s (%s). */\n\n' \
			"$${kdir##*/}" "$$(cat $$kdir/kver)" && \
		  $(BPFTOOL) btf dump file $$kdir/vmlinux format c; } > $(VMLINUX_H).tmp && \
		mv $(VMLINUX_H).tmp $(VMLINUX_H)

# BPF_FROM=TREE (asan-build, fuzz): the BPF objects are not the sanitizers' business, so such
# a tree copies TREE's instead of compiling them again (capture.bpf.c alone takes clang minutes)
ifeq ($(BPF_FROM),)
$(OUT)/%.bpf.o: %.bpf.c $(wildcard bpf/*.h) | deps-ok
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp && mv $@.tmp $@
else
$(OUT)/%.bpf.o: $(BPF_FROM)/%.bpf.o
	$(call msg,CP,$@)
	$(Q)mkdir -p $(@D)
	$(Q)cp $< $@.tmp && mv $@.tmp $@
endif

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$(notdir $*))_bpf > $@.tmp && mv $@.tmp $@

$(OUT)/%.o: %.c | deps-ok
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(OUT) -name '*.d' 2>/dev/null)

# CI runs `make check`: its builds use every CPU (JOBS, default nproc) unless make was already
# given -j.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check_jobs = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))

# ASAN_SKIP: the tests whose code under test is not the ASan build's, each said skipped with
# its reason in the asan-* layers (an explicit list: a new test always runs there).
ASAN_SKIP := t-bench-smoke=it checks that the bench scripts (tests/bench) run (the host layer \
	runs it);t-fuzz=the fuzz targets are an ASan + UBSan build of their own (make fuzz), run \
	by the host layer
ASAN_ENV = LBRSNAP_ASAN_BUILD="$(CURDIR)/$(ASAN_OUT)" LBRSNAP_ASAN_SKIP='$(ASAN_SKIP)'

# Every layer: the host layer runs the fuzz targets briefly (tests/host/t-fuzz), the asan-*
# layers run the unit and host tests again on the user space built with ASan + UBSan, and the
# vm layer's guests run beside them all (tests/run-tests), which sets CI's time.
check:
	$(Q)$(MAKE) --no-print-directory $(check_jobs) all fuzz asan-build
	$(Q)LBRSNAP_VM_BESIDE=1 $(ASAN_ENV) ./tests/run-tests unit host asan-unit asan-host vm

check-unit: all
	$(Q)./tests/run-tests unit

check-host: all fuzz
	$(Q)./tests/run-tests host

# The user space again with ASan + UBSan, in its own tree, with the BPF objects of this one
asan-build: all
	$(Q)$(MAKE) --no-print-directory OUT=$(ASAN_OUT) SANITIZE=asan BPF_FROM=$(OUT) all

check-asan: asan-build
	$(Q)$(ASAN_ENV) ./tests/run-tests asan-unit asan-host

fuzz: $(OUT)/bpf/capture.bpf.o | deps-ok
	$(Q)$(MAKE) --no-print-directory OUT=$(FUZZ_OUT) CC=clang SANITIZE=fuzz BPF_FROM=$(OUT) \
		fuzz-bins

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
	$(Q)./demo/demo.sh $(OUT)
