# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# One Makefile for the BPF programs, both tools and the tests.  Everything it
# makes goes under $(O); nothing is written into the source tree.
#   make            build $(O)/ktraceb and $(O)/kdump
#   make test       build, then run tests/run.sh (needs root for the BPF tests)
#   make vmtest     KERNEL=6.1|6.12 [ARCH=arm64]: the tests on that kernel under qemu
#   make demo       build, trace a small command and print its kdump output
#   make install    PREFIX=/usr/local DESTDIR= [SETCAP=1: ktraceb gets CAP_BPF and
#                   CAP_PERFMON as file capabilities, so users trace their own processes]
#                   [SYSTEMD=1: also the units of root's socket-activated daemon,
#                   into SYSTEMDUNITDIR]
#   make deb        the Debian packages, into $(O)/deb (debian/, dpkg-buildpackage)
#   make deb-test   install, upgrade and purge them in a fresh Debian 12 root
#                   (tests/deb/run.sh: debootstrap, needs root and the mirror)
#   make deb-vmtest KERNEL=6.1: that root booted with systemd under qemu, the
#                   socket-activated, hardened daemon used (tests/deb/vm.sh)
#   make container-vmtest KERNEL=6.1: that root with podman and docker.io, their
#                   containers traced by name from their first process
#                   (tests/deb/containers.sh)
#   make V=1        show the commands

PREFIX ?= /usr/local
DESTDIR ?=
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
VERSION := 0.1

# ARCH is the kernel's name for the target (x86, arm64); another than the
# host's cross-compiles (make ARCH=arm64: Debian's gcc-aarch64-linux-gnu and
# the arm64 -dev packages, scripts/install-deps.sh --cross) into build-arm64.
HOST_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ARCH ?= $(HOST_ARCH)
ifeq ($(ARCH),$(HOST_ARCH))
O ?= build
else
O ?= build-$(ARCH)
CROSS_TRIPLET := $(if $(filter arm64,$(ARCH)),aarch64-linux-gnu,$(if $(filter x86,$(ARCH)),x86_64-linux-gnu,$(error unknown ARCH $(ARCH): x86 or arm64)))
ifeq ($(origin CC),default)
CC := $(CROSS_TRIPLET)-gcc
endif
export PKG_CONFIG_LIBDIR := /usr/lib/$(CROSS_TRIPLET)/pkgconfig:/usr/share/pkgconfig
endif
CLANG ?= clang
BPFTOOL ?= $(firstword $(wildcard /usr/sbin/bpftool /usr/bin/bpftool) bpftool)
PKG_CONFIG ?= pkg-config
VMLINUX_BTF ?=
VMLINUX_H := vmlinux/$(ARCH)/vmlinux.h

LIBBPF_CFLAGS := $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
LIBBPF_LIBS := $(or $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null),-lbpf) -lelf -lz

CFLAGS ?= -g -O2
# Every symbol bound at start, then read-only (full RELRO), as Debian's
# hardening links the package: a forked child, the held command, then
# writes no lazy binding into pages it shares with ktraceb, each a page
# fault here (docs/PERFORMANCE.md, "A command's own start").
BIND_NOW := -Wl,-z,relro,-z,now
WARNFLAGS := -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS_ALL := -Iinclude -Isrc/common -Isrc/decode -Isrc/ktraceb -Isrc/kdump -Isrc/kdump/reading -Isrc/kdump/kinds -Isrc/kdump/stacks -Isrc/kdump/outputs -I$(O) -I$(O)/gen -D_GNU_SOURCE \
	-DKTRACEB_VERSION='"$(VERSION)"'
DEPFLAGS = -MMD -MP -MF $(@:.o=.d)

# The system include dirs clang -target bpf needs (libbpf-bootstrap's recipe).
CLANG_BPF_SYS_INCLUDES := $(shell $(CLANG) -v -E - </dev/null 2>&1 \
	| sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# maps.bpf.c first: the libbpf 1.1 linker mis-places extern maps seen
# before their definition.
BPF_SRCS := bpf/maps.bpf.c $(filter-out bpf/maps.bpf.c,$(wildcard bpf/*.bpf.c))
BPF_OBJS := $(BPF_SRCS:%.c=$(O)/%.o)
# the same programs for kernels before 5.12 (bpf/old_kernel.bpf.h)
BPF_OLD_OBJS := $(BPF_SRCS:bpf/%.c=$(O)/bpf/old/%.o)
BPF_CFLAGS = -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude -Ibpf -I$(O)/gen \
	-Ivmlinux/$(ARCH) $(CLANG_BPF_SYS_INCLUDES) -Wall -Werror -MMD -MP

# the kernel's syscall tables (src/decode/tables/) the generated ones come from
SYSCALL_ABIS := x86_64 i386 arm64
SYSCALL_TBLS := $(SYSCALL_ABIS:%=src/decode/tables/syscall_%.tbl)
SYSCALL_SIGS := src/decode/tables/syscalls.sig src/decode/tables/syscalls.extra
GEN_SRCS := $(SYSCALL_ABIS:%=$(O)/gen/syscalls_%.c)
# ioctl requests, socket options and flags, from the kernel's uapi headers
# (scripts/genconsts.sh made the tables; the build makes C of them), for kdump
CONST_GEN_SRCS := $(O)/gen/ioctls.c $(O)/gen/consts.c
# each BSD's syscall and errno names, for kdump (src/decode/tables/bsd/)
BSD_SYSTEMS := freebsd openbsd netbsd darwin dragonfly
BSD_GEN_SRCS := $(BSD_SYSTEMS:%=$(O)/gen/bsd_%.c)
COMMON_SRCS := $(wildcard src/common/*.c src/decode/*.c)
KTRACEB_SRCS := $(wildcard src/ktraceb/*.c src/ktraceb/*/*.c src/ktraceb/daemon/*/*.c)
KDUMP_SRCS := $(wildcard src/kdump/*.c src/kdump/*/*.c)
# libktr: everything but the two main()s, shared with the unit tests
LIB_OBJS := $(patsubst %.c,$(O)/%.o,$(COMMON_SRCS) $(filter-out src/kdump/kdump.c,$(KDUMP_SRCS))) \
	$(GEN_SRCS:.c=.o) $(BSD_GEN_SRCS:.c=.o) $(CONST_GEN_SRCS:.c=.o)
KTRACEB_OBJS := $(patsubst %.c,$(O)/%.o,$(KTRACEB_SRCS))
KDUMP_OBJS := $(O)/src/kdump/kdump.o

TEST_SRCS := $(wildcard tests/unit/test_*.c)
TEST_BINS := $(patsubst tests/unit/%.c,$(O)/tests/unit/%,$(TEST_SRCS))
# tests/progs/lib*.c are shared libraries the test programs load
PROG_SRCS := $(filter-out tests/progs/lib%.c,$(wildcard tests/progs/*.c))
PROG_BINS := $(patsubst tests/progs/%.c,$(O)/tests/progs/%,$(PROG_SRCS)) \
	$(patsubst tests/progs/%.c,$(O)/tests/progs/%.so,$(wildcard tests/progs/lib*.c)) \
	$(patsubst tests/progs/%.cc,$(O)/tests/progs/%,$(wildcard tests/progs/*.cc)) \
	$(O)/tests/progs/stack_debian_fp
CXX ?= g++

.PHONY: all test test-build test-fixtures vmtest vm-build demo check bench install clean format format-check units deb \
	deb-test deb-vmtest container-vmtest
.DELETE_ON_ERROR:
.SECONDARY:

all: $(O)/ktraceb $(O)/kdump

# --- BPF -------------------------------------------------------------------
$(O)/bpf/%.bpf.o: bpf/%.bpf.c $(VMLINUX_H) | $(O)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(O)/bpf/old/%.bpf.o: bpf/%.bpf.c $(VMLINUX_H) | $(O)/bpf/old
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DKTR_OLD_KERNEL -c $< -o $@

# each program's chains of calls within the verifier's 512 bytes of stack
# (scripts/check_bpf_stack.sh: arm64's stacks differ from x86_64's)
$(O)/ktraceb.bpf.o: $(BPF_OBJS) scripts/check_bpf_stack.sh
	$(call msg,LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $(filter %.o,$^)
	$(Q)scripts/check_bpf_stack.sh $@

$(O)/ktraceb_old.bpf.o: $(BPF_OLD_OBJS) scripts/check_bpf_stack.sh
	$(call msg,LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $(filter %.o,$^)
	$(Q)scripts/check_bpf_stack.sh $@

$(O)/ktraceb.skel.h: $(O)/ktraceb.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name ktraceb_bpf > $@

# The loader opens the old build through the skeleton above (ktr_skel.c):
# it must have the same maps, programs and variables, and no atomic that
# kernels before 5.12 refuse (scripts/check_old_bpf.sh says which).
$(O)/ktraceb_old.skel.h: $(O)/ktraceb_old.bpf.o $(O)/ktraceb.skel.h scripts/check_old_bpf.sh
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name ktraceb_old_bpf > $@.tmp
	$(Q)scripts/check_old_bpf.sh $< $(O)/ktraceb.skel.h $@.tmp
	$(Q)mv $@.tmp $@

ifneq ($(VMLINUX_BTF),)
.PHONY: $(VMLINUX_H)
$(VMLINUX_H):
	$(call msg,GEN,$@)
	$(Q)vmlinux/gen.sh $(VMLINUX_BTF) > $@
endif

# --- generated syscall tables ----------------------------------------------
# From the kernel's syscall tables committed in src/decode/tables/ (kernel
# 6.18), never from the build machine's headers.

$(O)/gen/syscalls_%.c: src/decode/tables/syscall_%.tbl scripts/gensyscalls.sh $(SYSCALL_SIGS) | $(O)/gen
	$(call msg,GEN,$@)
	$(Q)scripts/gensyscalls.sh table $* $< $(SYSCALL_SIGS) > $@

$(O)/gen/bsd_%.c: src/decode/tables/bsd/%-syscalls.master src/decode/tables/bsd/%-errno.h \
		src/decode/tables/bsd/%-syscalls.extra \
		scripts/genbsdtables.sh | $(O)/gen
	$(call msg,GEN,$@)
	$(Q)scripts/genbsdtables.sh $* $(filter-out scripts/%,$^) > $@

$(O)/gen/ioctls.c: src/decode/tables/ioctls.tbl scripts/genconsts.sh | $(O)/gen
	$(call msg,GEN,$@)
	$(Q)scripts/genconsts.sh c-ioctls $< > $@

$(O)/gen/consts.c: src/decode/tables/consts.tbl scripts/genconsts.sh | $(O)/gen
	$(call msg,GEN,$@)
	$(Q)scripts/genconsts.sh c-consts $< > $@

$(O)/gen/syscall_names.h: $(SYSCALL_TBLS) scripts/gensyscalls.sh | $(O)/gen
	$(call msg,GEN,$@)
	$(Q)scripts/gensyscalls.sh names $(SYSCALL_TBLS) > $@

# A daemon serves only ktraceb commands built from the same sources in the
# same build directory: the id goes into its socket name and its bpffs
# directory (ktr_proto.h, ktr_pin.c), so two builds never share a daemon,
# also two checkouts of one commit (their tests would clear each other's).
BUILD_ID_SRCS := $(sort $(filter-out src/decode/tables/bsd,$(wildcard bpf/* include/ktraceb/* \
	src/ktraceb/*.c src/ktraceb/*/*.[ch] src/ktraceb/daemon/*/*.[ch] src/common/* src/decode/tables/*)))
# build_id.h for the build directory $(1) (the id, made in the recipe's shell)
build_id_h = id=$$( (cat $(BUILD_ID_SRCS); echo '$(abspath $(1))') | sha1sum | cut -c1-12); \
	printf '\#define KTRACEB_BUILD_ID "%s"\n' "$$id" > $@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(O)/gen/build_id.h: FORCE | $(O)/gen
	$(Q)$(call build_id_h,$(O))
.PHONY: FORCE
FORCE:

# the objects that hold the id
BUILD_ID_OBJS := src/ktraceb/client/ktr_client.o src/ktraceb/client/ktr_others.o \
	src/ktraceb/common/ktr_pin_dir.o src/ktraceb/daemon/programs/ktr_pin.o src/ktraceb/daemon/ktr_log.o \
	src/ktraceb/daemon/files/ktr_filestate.o
$(addprefix $(O)/,$(BUILD_ID_OBJS)): $(O)/gen/build_id.h

# A second build of the same sources, as "make O=$(O)/twin" would make it,
# with the id of that directory, for tests/e2e/t_builds.sh (two builds side
# by side): only the objects that hold the id are compiled again.
$(O)/twin/gen/build_id.h: FORCE
	@mkdir -p $(@D)
	$(Q)$(call build_id_h,$(O)/twin)

$(addprefix $(O)/twin/,$(BUILD_ID_OBJS)): $(O)/twin/%.o: %.c $(O)/twin/gen/build_id.h \
		| $(O)/ktraceb.skel.h $(O)/gen/syscall_names.h
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) $(CPPFLAGS) -I$(O)/twin/gen $(CPPFLAGS_ALL) $(LIBBPF_CFLAGS) \
		$(DEPFLAGS) -c $< -o $@

# --- user space --------------------------------------------------------------
$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) $(CPPFLAGS) $(CPPFLAGS_ALL) $(LIBBPF_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(O)/gen/%.o: $(O)/gen/%.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) $(CPPFLAGS) $(CPPFLAGS_ALL) $(DEPFLAGS) -c $< -o $@

# Tables keyed by syscall name check each name against the generated list.
$(LIB_OBJS) $(KTRACEB_OBJS) $(TEST_BINS:%=%.o): | $(O)/gen/syscall_names.h

# The loader includes the skeleton: build it before any ktraceb object.
$(KTRACEB_OBJS): | $(O)/ktraceb.skel.h $(O)/ktraceb_old.skel.h

$(O)/libktr.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# The tracer needs the syscall tables, not the decoders.
KTRACEB_LIBOBJS := $(O)/src/common/trstr.o $(O)/src/common/ktr_select.o \
	$(O)/src/common/ktr_sysclass.o $(O)/src/common/ktr_kernfs.o $(GEN_SRCS:.c=.o)
$(O)/ktraceb: $(KTRACEB_OBJS) $(KTRACEB_LIBOBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(BIND_NOW) $^ $(LIBBPF_LIBS) -pthread -o $@

$(O)/twin/ktraceb: $(filter-out $(addprefix $(O)/,$(BUILD_ID_OBJS)),$(KTRACEB_OBJS)) \
		$(addprefix $(O)/twin/,$(BUILD_ID_OBJS)) $(KTRACEB_LIBOBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(BIND_NOW) $^ $(LIBBPF_LIBS) -pthread -o $@

# zlib: kdump reads compressed traces (ktraceb -z); elfutils' libdw names
# the frames of user stacks (-k), libdl finds the C++ demangler if there
KDUMP_LIBS := -ldw -lelf -ldl -lz
$(O)/kdump: $(KDUMP_OBJS) $(O)/libktr.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(BIND_NOW) $^ $(KDUMP_LIBS) -o $@

# the capture tables live in the tracer; their names are checked here
$(O)/tests/unit/test_tables: $(O)/src/ktraceb/daemon/programs/ktr_captures.o \
	$(O)/src/ktraceb/common/ktr_arch.o
$(O)/tests/unit/test_flight: $(addprefix $(O)/src/ktraceb/daemon/,flight/ktr_flight.o \
	flight/ktr_flight_walk.o programs/ktr_pin.o ktr_record.o ktr_clock.o)
$(O)/tests/unit/test_tracefs: $(O)/src/ktraceb/common/ktr_tracefs.o
$(O)/tests/unit/test_usdt_sel: $(O)/src/ktraceb/common/ktr_usdt_sel.o
$(O)/tests/unit/test_usdt_notes: $(O)/src/ktraceb/common/ktr_usdt_notes.o
$(O)/tests/unit/test_share: $(O)/src/ktraceb/daemon/requests/ktr_share.o
$(O)/tests/unit/test_queue: $(O)/src/ktraceb/daemon/drain/ktr_queue.o
$(O)/tests/unit/test_writer: $(addprefix $(O)/src/ktraceb/,daemon/files/ktr_writer.o \
	daemon/files/ktr_writer_out.o daemon/ktr_record.o daemon/ktr_clock.o common/ktr_creds.o \
	common/ktr_perm.o)

$(O)/tests/unit/test_flight: LDLIBS := $(LIBBPF_LIBS)
$(O)/tests/unit/test_queue: LDLIBS := -pthread
$(O)/tests/unit/%: $(O)/tests/unit/%.o $(O)/libktr.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LDLIBS) $(KDUMP_LIBS) -o $@

$(O)/tests/progs/%: tests/progs/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) -Iinclude -pthread -MMD -MP -MF $@.d $< -o $@

# t_stack's known stacks: every frame keeps its frame pointer, lines in -g
$(O)/tests/progs/stack_chain: tests/progs/stack_chain.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls $(WARNFLAGS) \
		-MMD -MP -MF $@.d $< -o $@

$(O)/tests/progs/stack_cxx: tests/progs/stack_cxx.cc
	@mkdir -p $(@D)
	$(call msg,CXX,$@)
	$(Q)$(CXX) $(CFLAGS) -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls $(WARNFLAGS) \
		-MMD -MP -MF $@.d $< -o $@

# t_unwind's chains, as Debian builds its packages (-O2 -g, PIE, no frame pointers)
# and again with frame pointers
$(O)/tests/progs/stack_debian: tests/progs/stack_debian.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -fomit-frame-pointer -fPIE -pie -pthread $(WARNFLAGS) -MMD -MP -MF $@.d $< -o $@

$(O)/tests/progs/stack_debian_fp: tests/progs/stack_debian.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) -O0 -g -fno-omit-frame-pointer -fPIE -pie -pthread $(WARNFLAGS) -MMD -MP -MF $@.d \
		$< -o $@

$(O)/tests/progs/stack_throw: tests/progs/stack_throw.cc
	@mkdir -p $(@D)
	$(call msg,CXX,$@)
	$(Q)$(CXX) -O2 -g -fomit-frame-pointer $(WARNFLAGS) -MMD -MP -MF $@.d $< -o $@

# utrace.h must stay clean C++11 and strict C99
$(O)/tests/progs/%: tests/progs/%.cc
	@mkdir -p $(@D)
	$(call msg,CXX,$@)
	$(Q)$(CXX) $(CFLAGS) -std=c++11 -pedantic $(WARNFLAGS) -Iinclude -MMD -MP -MF $@.d $< -o $@

$(O)/tests/unit/utrace_strict.o: tests/unit/utrace_strict.c include/ktraceb/utrace.h
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -std=c99 -pedantic $(WARNFLAGS) -Iinclude -c $< -o $@

$(O)/tests/progs/%.so: tests/progs/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) -Iinclude -fPIC -shared -MMD -MP -MF $@.d $< -o $@

$(O)/bpf $(O)/bpf/old $(O)/gen:
	$(Q)mkdir -p $@

# --- fuzzing -------------------------------------------------------------------
# The kdump reader and printers, with the sanitizers: reader_replay runs the
# committed corpus (tests/fuzz/corpus) once, reader_fuzz is the libFuzzer
# target t_fuzz.sh runs for a few seconds.
FUZZ_LIB_SRCS := $(COMMON_SRCS) $(filter-out src/kdump/kdump.c,$(KDUMP_SRCS))
FUZZ_CFLAGS := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer $(CPPFLAGS_ALL)

$(O)/tests/fuzz/reader_replay: tests/fuzz/replay.c tests/fuzz/reader_fuzz.c $(FUZZ_LIB_SRCS) \
		$(GEN_SRCS) $(BSD_GEN_SRCS) $(CONST_GEN_SRCS) | $(O)/gen/syscall_names.h
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(FUZZ_CFLAGS) $(filter %.c,$^) $(KDUMP_LIBS) -o $@

$(O)/tests/fuzz/reader_fuzz: tests/fuzz/reader_fuzz.c $(FUZZ_LIB_SRCS) $(GEN_SRCS) $(BSD_GEN_SRCS) \
		$(CONST_GEN_SRCS) | $(O)/gen/syscall_names.h
	@mkdir -p $(@D)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(filter %.c,$^) $(KDUMP_LIBS) -o $@

FUZZ_BINS := $(O)/tests/fuzz/reader_replay $(O)/tests/fuzz/reader_fuzz

# --- tests, demo, bench ------------------------------------------------------
# make check: what needs neither root nor BPF (unit tests, the decoders, the
# reader, kdump on generated and hostile files, the fuzz corpus), run as an
# ordinary user (nobody when started by root).  make test: everything.
CHECK_BINS := $(O)/kdump $(TEST_BINS) $(O)/tests/unit/utrace_strict.o $(FUZZ_BINS) \
	$(O)/tests/progs/ktrgen $(O)/tests/progs/ktrwalk

check: $(CHECK_BINS)
	$(Q)O=$(O) KTR_TIER=check tests/run.sh

test-build: all $(TEST_BINS) $(PROG_BINS) $(O)/tests/unit/utrace_strict.o $(FUZZ_BINS) \
	$(O)/twin/ktraceb

# make test-fixtures: what takes minutes to make (t_container.sh's Debian
# root), outside any test's time limit (tests/fixtures.sh)
test-fixtures:
	$(Q)tests/fixtures.sh

test: test-build test-fixtures
	$(Q)O=$(O) tests/run.sh

# make vmtest KERNEL=6.1|6.12|linux-image-...: the end-to-end tests on that
# Debian kernel, booted under qemu (tests/vm/run.sh); with ARCH=arm64 the
# cross-built tracer on Debian's arm64 kernel (tests/vm/arm64-smoke.sh).
KERNEL ?= 6.1
ifeq ($(ARCH),arm64)
VM_BUILD := all $(addprefix $(O)/tests/progs/,forkexec fac_sig tp_events uev_sdt)
else
VM_BUILD := test-build
endif
vm-build: $(VM_BUILD)

vmtest: vm-build
	$(Q)O=$(O) tests/vm/run.sh --arch $(ARCH) $(KERNEL)

demo: all
	$(Q)O=$(O) scripts/demo.sh

BENCH_BINS := $(O)/bench/spans $(O)/bench/workloads $(O)/bench/empty_tp $(O)/bench/empty_tp.bpf.o \
	$(O)/bench/throw_loop $(O)/bench/http_srv $(O)/bench/http_load $(O)/bench/stack_calls
bench: all $(PROG_BINS) $(BENCH_BINS)
	$(Q)O=$(O) bench/run.sh
	$(Q)O=$(O) bench/scale.sh
	$(Q)O=$(O) bench/service.sh
	$(Q)O=$(O) bench/stack.sh

# bench/service.sh's threaded C server and its load client
$(O)/bench/http_%: bench/http_%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) $< -pthread -o $@

$(O)/bench/spans: bench/spans.c include/ktraceb/utrace.h
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) -Iinclude $< -o $@

$(O)/bench/workloads: bench/workloads.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) $< -pthread -o $@

$(O)/bench/stack_calls: bench/stack_calls.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g $(WARNFLAGS) $< -pthread -o $@

$(O)/bench/throw_loop: bench/throw_loop.cc
	@mkdir -p $(@D)
	$(call msg,CXX,$@)
	$(Q)$(CXX) $(CFLAGS) $(WARNFLAGS) $< -o $@

$(O)/bench/empty_tp: bench/empty_tp.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARNFLAGS) $(LIBBPF_CFLAGS) $< $(LIBBPF_LIBS) -o $@

$(O)/bench/empty_tp.bpf.o: bench/empty_tp.bpf.c $(VMLINUX_H)
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Ivmlinux/$(ARCH) \
		$(CLANG_BPF_SYS_INCLUDES) -Wall -Werror -c $< -o $@

# --- systemd and Debian --------------------------------------------------------
# Root's daemon as a socket-activated service: the socket's name holds this
# build's id, as ktraceb computes it (ktr_proto.h), and ExecStart the
# installed ktraceb.
UNITS := $(O)/systemd/ktracebd.socket $(O)/systemd/ktracebd@.service
units: $(UNITS)

$(O)/systemd/%: systemd/%.in $(O)/gen/build_id.h
	@mkdir -p $(@D)
	$(call msg,GEN,$@)
	$(Q)id=$$(sed -n 's/^#define KTRACEB_BUILD_ID "\(.*\)"$$/\1/p' $(O)/gen/build_id.h); \
	sed -e "s|@BUILD_ID@|$$id|g" -e "s|@BINDIR@|$(PREFIX)/bin|g" $< > $@

install: all $(if $(filter 1,$(SYSTEMD)),units)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/include/ktraceb
	install -m 0755 $(O)/ktraceb $(O)/kdump $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 include/ktraceb/utrace.h $(DESTDIR)$(PREFIX)/include/ktraceb/
	install -m 0644 man/ktraceb.1 man/kdump.1 $(DESTDIR)$(PREFIX)/share/man/man1/
ifeq ($(SYSTEMD),1)
	install -d $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 0644 $(UNITS) $(DESTDIR)$(SYSTEMDUNITDIR)/
endif
ifeq ($(SETCAP),1)
	setcap cap_bpf,cap_perfmon+ep $(DESTDIR)$(PREFIX)/bin/ktraceb
endif

# The packages are built in a copy of the sources under $(O)/deb, which
# keeps the tree clean (dpkg-buildpackage writes into debian/ and ..), and
# are left there: $(O)/deb/*.deb.
DEB_SRC := $(O)/deb/ktraceb-$(VERSION)
# what a dpkg-buildpackage run in the tree itself leaves in debian/
DEB_LEFTOVERS := build tmp .debhelper files debhelper-build-stamp ktraceb ktraceb-kdump ktraceb-dev \
	'*.substvars' '*.debhelper.log' '*.debhelper'
deb:
	$(Q)rm -rf $(O)/deb && mkdir -p $(DEB_SRC)
	$(Q)tar -c --exclude-vcs --exclude=./build --exclude='./build-*' \
		--exclude=./$(patsubst ./%,%,$(O)) $(DEB_LEFTOVERS:%=--exclude=./debian/%) . | \
		tar -x -C $(DEB_SRC)
	$(Q)cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b
	$(Q)ls $(O)/deb/*.deb

deb-test: deb
	$(Q)O=$(O) tests/deb/run.sh

# the packages booted with systemd under qemu (tests/deb/vm.sh), KERNEL as vmtest
deb-vmtest: deb all
	$(Q)O=$(O) tests/deb/vm.sh $(KERNEL)

# podman's and docker's containers in that root booted (tests/deb/containers.sh)
container-vmtest: all
	$(Q)O=$(O) tests/deb/containers.sh $(KERNEL)

# The .c files follow .clang-format; headers keep their tab-aligned tables
# (clang-format would mix tabs and spaces in them).
FORMAT_SRCS = bpf/*.c src/*/*.c src/ktraceb/*/*.c src/ktraceb/daemon/*/*.c tests/unit/*.c \
	tests/progs/*.c tests/fuzz/*.c bench/*.c
format:
	clang-format -i $(FORMAT_SRCS)

format-check:
	clang-format --dry-run --Werror $(FORMAT_SRCS)

clean:
	rm -rf $(O)

# (not the package build's copy, nor the Debian roots deb-test makes)
-include $(shell find $(O) \( -path $(O)/deb -o -path $(O)/deb-test \) -prune -o -name '*.d' -type f \
	-print 2>/dev/null)
