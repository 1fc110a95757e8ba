# Datagrind — top-level Makefile.
#
#   make                 build everything into build/
#   make test            install missing Debian packages, build, run every test
#   make demo            install missing Debian packages, build, trace a sample
#   make install         install the tool into Valgrind's tool dir, programs into
#                        PREFIX/bin, the sqlite3 extension into PREFIX/lib/datagrind
#   make bench           run the benchmarks (figures, no assertions)
#   make asan            build the host programs with AddressSanitizer+UBSan
#   make fuzz            run every fuzz target a minute (clang libFuzzer; FUZZ=NAME,
#                        FUZZ_SECONDS=N); make test replays their corpora
#   make clean
#
# Options (make VAR=value):
#   PREFIX        install prefix for programs and datagrind.h  [/usr/local]
#   VG_TOOLDIR    Valgrind's launcher tool dir                  [/usr/libexec/valgrind]
#   DESTDIR       staging root for packagers                    []
#   SANITIZE      e.g. address,undefined for host programs      []
#   V=1           show full commands
#
# The tool is built out of Valgrind's tree against exactly the installed
# valgrind package: its headers, static libraries and version.

VERSION    := 0.1.0
.DEFAULT_GOAL := all
PREFIX     ?= /usr/local
VG_TOOLDIR ?= /usr/libexec/valgrind
DESTDIR    ?=
B          := build

ifneq ($(V),1)
Q := @
endif

# ---------------------------------------------------------------- valgrind
VG_INC     := $(shell pkg-config --variable=includedir valgrind 2>/dev/null)
VG_LIBDIR  := $(shell pkg-config --variable=libdir valgrind 2>/dev/null)/valgrind
VG_VERSION := $(shell pkg-config --modversion valgrind 2>/dev/null)
VG_LOAD    := $(shell pkg-config --variable=valt_load_address valgrind 2>/dev/null)
VG_PLAT    := amd64-linux

TOOL_NAMES := datagrind exp-datagrind
TOOL_CFLAGS := -m64 -O2 -g -std=gnu99 -Wall -Wextra -Wno-unused-parameter \
	-Wmissing-prototypes -Wshadow -Wpointer-arith \
	-fno-stack-protector -fno-strict-aliasing -fno-builtin -fomit-frame-pointer \
	-fno-pic -fno-pie \
	-I$(VG_INC) -Ilib -DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 \
	-DVGPV_amd64_linux_vanilla=1 -DDG_VG_VERSION='"$(VG_VERSION)"' -DDG_IMPORTER='"$(PREFIX)/bin/dg-import"'
TOOL_LDFLAGS := -m64 -static -nodefaultlibs -nostartfiles -u _start \
	-Wl,-Ttext-segment=$(VG_LOAD) -no-pie
TOOL_LIBS  := -L$(VG_LIBDIR) -lcoregrind-$(VG_PLAT) -lvex-$(VG_PLAT) -lgcc

TOOL_SRCS  := $(wildcard tool/dg_*.c)
TOOL_OBJS  := $(patsubst tool/%.c,$(B)/obj/tool/%.o,$(TOOL_SRCS))
TOOL_HDRS  := $(wildcard tool/*.h) lib/dg_format.h lib/dgcodec.h
VGLIB      := $(B)/lib/valgrind
TOOL_EXES  := $(foreach t,$(TOOL_NAMES),$(VGLIB)/$(t)-$(VG_PLAT))
TOOL_PRELOADS := $(foreach t,$(TOOL_NAMES),$(VGLIB)/vgpreload_$(t)-$(VG_PLAT).so)

# ---------------------------------------------------------------- host programs
CC       ?= cc
WARN     := -Wall -Wextra -Wshadow -Wpointer-arith -Wmissing-prototypes \
            -Wstrict-prototypes -Wno-unused-parameter
CFLAGS   ?= -O2 -g
HOST_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) -fPIC -Ilib -Itool -D_GNU_SOURCE \
	$(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer)
HOST_LDFLAGS := $(LDFLAGS) $(if $(SANITIZE),-fsanitize=$(SANITIZE))

LIB_SRCS := $(wildcard lib/*.c)
LIB_OBJS := $(patsubst lib/%.c,$(B)/obj/lib/%.o,$(LIB_SRCS))
LIBDG    := $(B)/obj/libdg.a

# Host programs.  Each directory's fragment (importer/importer.mk,
# dgsql/dgsql.mk, lib/ext.mk) adds its programs to PROGS and its loadable
# SQLite extensions to EXTS, with their own rules, linked with $(LIBDG).
PROGS    := $(B)/bin/dg-dump
EXTS     :=
PROG_dg-dump_SRCS := $(wildcard dump/dg-dump*.c)
-include lib/ext.mk importer/importer.mk dgsql/dgsql.mk

all: check-valgrind $(TOOL_EXES) $(TOOL_PRELOADS) $(VGLIB)/vgpreload_core-$(VG_PLAT).so \
     $(B)/bin/datagrind $(B)/include/datagrind.h $(PROGS) $(EXTS) tests-progs

.PHONY: all check-valgrind deps test demo install clean bench asan fuzz tests-progs

check-valgrind:
	@test -n "$(VG_VERSION)" || { echo "datagrind: pkg-config cannot find valgrind; install the Debian package 'valgrind' (make deps)" >&2; exit 1; }
	@test -f $(VG_INC)/pub_tool_basics.h || { echo "datagrind: $(VG_INC)/pub_tool_basics.h missing; install the Debian package 'valgrind'" >&2; exit 1; }
	@test -f $(VG_LIBDIR)/libcoregrind-$(VG_PLAT).a || { echo "datagrind: $(VG_LIBDIR)/libcoregrind-$(VG_PLAT).a missing; install the Debian package 'valgrind'" >&2; exit 1; }
	@v=$$(valgrind --version 2>/dev/null); test "$$v" = "valgrind-$(VG_VERSION)" || { echo "datagrind: headers are valgrind $(VG_VERSION) but 'valgrind --version' says '$$v'; the tool must match the installed core" >&2; exit 1; }

deps:
	$(Q)sh scripts/install-deps.sh

# ---------------------------------------------------------------- the tool
$(B)/obj/tool/%.o: tool/%.c $(TOOL_HDRS) | check-valgrind
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $<")
	$(Q)$(CC) $(TOOL_CFLAGS) -c -o $@ $<

$(VGLIB)/datagrind-$(VG_PLAT): $(TOOL_OBJS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LINK  $@")
	$(Q)$(CC) $(TOOL_LDFLAGS) -o $@ $(TOOL_OBJS) $(TOOL_LIBS)

$(VGLIB)/exp-datagrind-$(VG_PLAT): $(VGLIB)/datagrind-$(VG_PLAT)
	$(Q)ln -sf datagrind-$(VG_PLAT) $@

# The preload replaces malloc and friends; Valgrind's static archive provides
# every replacement, we only name it for our tool.
$(VGLIB)/vgpreload_datagrind-$(VG_PLAT).so:
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LINK  $@")
	$(Q)$(CC) -m64 -fpic -shared -nodefaultlibs -Wl,-z,interpose,-z,initfirst \
		-o $@ -Wl,--whole-archive $(VG_LIBDIR)/libreplacemalloc_toolpreload-$(VG_PLAT).a \
		-Wl,--no-whole-archive

$(VGLIB)/vgpreload_exp-datagrind-$(VG_PLAT).so: $(VGLIB)/vgpreload_datagrind-$(VG_PLAT).so
	$(Q)ln -sf vgpreload_datagrind-$(VG_PLAT).so $@

# A copy, not a link: a package upgrade then fails loudly instead of mixing.
$(VGLIB)/vgpreload_core-$(VG_PLAT).so: $(VG_TOOLDIR)/vgpreload_core-$(VG_PLAT).so
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(B)/bin/datagrind: scripts/datagrind.in
	@mkdir -p $(@D)
	$(Q)sed -e 's|@VERSION@|$(VERSION)|' $< > $@ && chmod +x $@

$(B)/include/datagrind.h: tool/datagrind.h
	@mkdir -p $(@D)
	$(Q)cp $< $@

# ---------------------------------------------------------------- host code
$(B)/obj/lib/%.o: lib/%.c $(wildcard lib/*.h)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $<")
	$(Q)$(CC) $(HOST_CFLAGS) -c -o $@ $<

$(LIBDG): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/bin/dg-dump: $(PROG_dg-dump_SRCS) $(LIBDG) $(wildcard lib/*.h)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(HOST_CFLAGS) -o $@ $(PROG_dg-dump_SRCS) $(LIBDG) $(HOST_LDFLAGS)

# ---------------------------------------------------------------- tests
include tests/tests.mk
include tests/fuzz/fuzz.mk

# Host programs and unit tests under AddressSanitizer and UBSan, in their
# own build directory so that the normal build is untouched.
asan:
	$(Q)$(MAKE) --no-print-directory B=build-asan SANITIZE=address,undefined \
		build-asan/bin/dg-dump build-asan/bin/dg-import tests-progs

# The build one job a CPU (a fresh one compiles every program twice more
# under the sanitizers for the fuzz replays); the scripts as tests/run.sh
# schedules them.
NPROC := $(shell nproc 2>/dev/null || echo 2)

test: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)sh tests/run.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/demo.sh

bench: all
	$(Q)sh bench/run.sh

# ---------------------------------------------------------------- install
install: all install-dgsql
	install -d $(DESTDIR)$(VG_TOOLDIR) $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/valgrind \
		$(DESTDIR)$(PREFIX)/lib/datagrind
	install -m 755 $(EXTS) $(DESTDIR)$(PREFIX)/lib/datagrind/
	install -m 755 $(VGLIB)/datagrind-$(VG_PLAT) $(DESTDIR)$(VG_TOOLDIR)/
	ln -sf datagrind-$(VG_PLAT) $(DESTDIR)$(VG_TOOLDIR)/exp-datagrind-$(VG_PLAT)
	install -m 755 $(VGLIB)/vgpreload_datagrind-$(VG_PLAT).so $(DESTDIR)$(VG_TOOLDIR)/
	ln -sf vgpreload_datagrind-$(VG_PLAT).so $(DESTDIR)$(VG_TOOLDIR)/vgpreload_exp-datagrind-$(VG_PLAT).so
	install -m 644 tool/datagrind.h $(DESTDIR)$(PREFIX)/include/valgrind/datagrind.h
	install -m 755 $(PROGS) $(DESTDIR)$(PREFIX)/bin/

clean:
	rm -rf $(B)
