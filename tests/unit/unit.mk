# unit.mk: the C unit tests of lib/ (included by tests/tests.mk).
#
#   make unit-tests    build build/tests/unit/test_dglog (plain), its
#                      test_dglog-asan twin (AddressSanitizer + UBSan, no
#                      recovery, and a 64-byte first read buffer so that
#                      refilling and growing it are exercised) and mklogs
#                      (sample logs for the scripts)
#
# tests/t0100-reader-unit.sh runs them.  They compile the reader (lib/dglog.c
# and its lib/dglog_*.c) and lib/dgwrite.c themselves so the sanitized build
# needs no second libdg.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

UNIT_B      := $(B)/tests/unit
UNIT_LIB    := lib/dglog.c lib/dglog_rec.c lib/dglog_cur.c lib/dgwrite.c \
               tests/unit/logs.c
UNIT_HDRS   := $(wildcard lib/*.h tests/unit/*.h)
UNIT_CFLAGS := -std=gnu11 $(WARN) -O2 -g -Ilib -Itests/unit -D_GNU_SOURCE
UNIT_ASAN   := -fsanitize=address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer -DDGLOG_BUF_INITIAL=64

.PHONY: unit-tests
unit-tests: $(UNIT_B)/test_dglog $(UNIT_B)/test_dglog-asan $(UNIT_B)/mklogs

$(UNIT_B)/test_dglog: tests/unit/test_dglog.c $(UNIT_LIB) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/test_dglog.c $(UNIT_LIB)

$(UNIT_B)/test_dglog-asan: tests/unit/test_dglog.c $(UNIT_LIB) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) $(UNIT_ASAN) -o $@ tests/unit/test_dglog.c $(UNIT_LIB)

$(UNIT_B)/mklogs: tests/unit/mklogs.c $(UNIT_LIB) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/mklogs.c $(UNIT_LIB)

# test_dgsym: the symbolizer, plain and sanitized.  It compiles its own small
# test programs at run time (cc, c++, strip, nm, addr2line) and needs libdw.
DGSYM_LIBS := -ldw -lelf -lstdc++
DGSYM_SRCS := lib/dgsym.c lib/dgscope.c lib/dgdebugf.c lib/dgplt.c lib/dgentry.c

unit-tests: $(UNIT_B)/test_dgsym $(UNIT_B)/test_dgsym-asan

$(UNIT_B)/test_dgsym: tests/unit/test_dgsym.c $(DGSYM_SRCS) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/test_dgsym.c $(DGSYM_SRCS) $(DGSYM_LIBS)

$(UNIT_B)/test_dgsym-asan: tests/unit/test_dgsym.c $(DGSYM_SRCS) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) $(UNIT_ASAN) -o $@ tests/unit/test_dgsym.c $(DGSYM_SRCS) $(DGSYM_LIBS)

# test_dgvtab: the accesses virtual table, sanitized (tests/t1400 runs it);
# DGVTAB_SRCS (its sources) comes from lib/ext.mk; dgvt_par and dgvt_live,
# which dgsql's DuckDB scan adds, are checked against it.
unit-tests: $(UNIT_B)/test_dgvtab

$(UNIT_B)/test_dgvtab: tests/unit/test_dgvtab.c $(DGVTAB_SRCS) lib/dgvt_par.c lib/dgvt_live.c lib/dghash.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) $(UNIT_ASAN) -o $@ $(filter %.c,$^) -lsqlite3 -lm

# test_dgtypes: types and variables from DWARF, plain and sanitized (t0106
# runs them).  It compiles its own small C and C++ programs at run time.
unit-tests: $(UNIT_B)/test_dgtypes $(UNIT_B)/test_dgtypes-asan

$(UNIT_B)/test_dgtypes: tests/unit/test_dgtypes.c lib/dgtypes.c lib/dghash.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) -o $@ $(filter %.c,$^) -ldw -lelf

$(UNIT_B)/test_dgtypes-asan: tests/unit/test_dgtypes.c lib/dgtypes.c lib/dghash.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) $(UNIT_ASAN) -o $@ $(filter %.c,$^) -ldw -lelf

# test_dgpctype: the accessing instruction's type, sanitized, on the field
# oracle's -O0 and -O2 builds (tests/t0107-pctype-unit.sh runs it).
DGPCTYPE_SRCS := lib/dgpctype.c lib/dgtypes.c lib/dghash.c $(DGSYM_SRCS)

unit-tests: $(UNIT_B)/test_dgpctype

$(UNIT_B)/test_dgpctype: tests/unit/test_dgpctype.c $(DGPCTYPE_SRCS) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) $(UNIT_ASAN) -o $@ tests/unit/test_dgpctype.c $(DGPCTYPE_SRCS) \
		-lcapstone $(DGSYM_LIBS)

# test_dgreuse: reuse distances against an LRU stack, sanitized (t0108).
unit-tests: $(UNIT_B)/test_dgreuse

$(UNIT_B)/test_dgreuse: tests/unit/test_dgreuse.c lib/dgreuse.c lib/dghash.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(UNIT_CFLAGS) $(UNIT_ASAN) -o $@ $(filter %.c,$^)
