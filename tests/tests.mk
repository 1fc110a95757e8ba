# tests.mk: the test programs of the end-to-end suite (included by the top
# Makefile, which defines B, CC and the target `test`).
#
#   make tests-progs     build every tests/progs/*.c and *.cc into
#                        build/tests/progs/ (and the unit tests, if any)
#
# The test scripts compare the tool's counts with what these programs provably
# do, so they are compiled for predictability, not speed:
#   -O0            every source-level load and store stays one machine access
#                  of the declared size: no vectorised fill loops, no values
#                  kept in registers, no loops folded away.  The scripts'
#                  exact counts (100 writes of 4 bytes, ...) rely on it.
#   -fno-inline    functions named in checks (fill, sum, ...) exist as calls.
#   -no-pie        the executable runs at its link address, so the addresses
#                  of `nm` are run-time addresses (no load bias to apply).
#   -fno-stack-protector  no canary loads that differ between distributions.
# The programs include build/include/datagrind.h and Valgrind's valgrind.h.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

CXX ?= g++

TESTS_PROG_DIR  := $(B)/tests/progs
TESTS_PROG_C    := $(wildcard tests/progs/*.c)
TESTS_PROG_CC   := $(wildcard tests/progs/*.cc)
TESTS_PROGS     := $(patsubst tests/progs/%.c,$(TESTS_PROG_DIR)/%,$(TESTS_PROG_C)) \
                   $(patsubst tests/progs/%.cc,$(TESTS_PROG_DIR)/%,$(TESTS_PROG_CC))
TESTS_PROG_INC  := -I$(B)/include -I/usr/include/valgrind
TESTS_PROG_FLAGS := -O0 -g -fno-inline -fno-stack-protector -fno-pie -no-pie \
                    -pthread -Wall -Wextra $(TESTS_PROG_INC)

# The colleagues' C unit tests, when they exist (target unit-tests).
-include tests/unit/unit.mk

tests-progs: $(TESTS_PROGS) $(if $(wildcard tests/unit/unit.mk),unit-tests) fuzz-replay

$(TESTS_PROG_DIR)/%: tests/progs/%.c $(B)/include/datagrind.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) -std=gnu11 $(TESTS_PROG_FLAGS) -o $@ $<

$(TESTS_PROG_DIR)/%: tests/progs/%.cc $(B)/include/datagrind.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CXX   $@")
	$(Q)$(CXX) -std=gnu++17 $(TESTS_PROG_FLAGS) -o $@ $<

# The cache simulation's program (t1800): -O2, so that its loops keep their
# counters in registers and touch only its static arrays, whose addresses
# are the same under cachegrind (the stack and the heap are not).
tests-progs: $(TESTS_PROG_DIR)/cachesim

$(TESTS_PROG_DIR)/cachesim: tests/progs/cache/cachesim.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) -std=gnu11 -O2 -g -fno-stack-protector -fno-pie -no-pie -Wall -Wextra -o $@ $<

# regress.c's worse build (-DWORSE: one block read twice), for t1700's
# dgsql --compare: another build of the same program, other addresses.
tests-progs: $(TESTS_PROG_DIR)/regress-worse

$(TESTS_PROG_DIR)/regress-worse: tests/progs/regress.c $(B)/include/datagrind.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) -std=gnu11 $(TESTS_PROG_FLAGS) -DWORSE -o $@ $<

# The symbol tests' program and libraries (tests/progs/sym/): a PIE linked to
# libsymlib.so, and two builds of one plugin that it dlopens in turn.  -g: the
# tests split the debug info off and strip them themselves.
SYM_DIR   := $(TESTS_PROG_DIR)/sym
SYM_FLAGS := -std=gnu11 -O0 -g -fno-inline -fno-stack-protector -Wall -Wextra
SYM_PROGS := $(SYM_DIR)/symprog $(SYM_DIR)/libsymlib.so $(SYM_DIR)/libsyma.so \
             $(SYM_DIR)/libsymb.so

tests-progs: $(SYM_PROGS)

$(SYM_DIR)/libsymlib.so: tests/progs/sym/symlib.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(SYM_FLAGS) -fPIC -shared -Wl,-soname,libsymlib.so -o $@ $<

$(SYM_DIR)/libsyma.so $(SYM_DIR)/libsymb.so: $(SYM_DIR)/libsym%.so: tests/progs/sym/plug.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(SYM_FLAGS) -fPIC -shared -DN=$(if $(filter a,$*),70,90) -o $@ $<

$(SYM_DIR)/symprog: tests/progs/sym/symprog.c $(SYM_DIR)/libsymlib.so
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(SYM_FLAGS) -fPIE -pie -o $@ $< -L$(SYM_DIR) -lsymlib -ldl

# The struct-field oracle (tests/progs/pctype/), built twice: -O0 (every
# pointer through a stack slot: the instruction tracker's case) and -O2
# (pointers in registers, named by location lists).
PCTYPE_DIR   := $(TESTS_PROG_DIR)/pctype
PCTYPE_PROGS := $(PCTYPE_DIR)/fields-O0 $(PCTYPE_DIR)/fields-O2 \
	$(foreach o,0 1 2 3,$(PCTYPE_DIR)/alloc-O$(o)) \
	$(PCTYPE_DIR)/alloc_cxx-O0 $(PCTYPE_DIR)/alloc_cxx-O2

tests-progs: $(PCTYPE_PROGS)

$(PCTYPE_DIR)/fields-O%: tests/progs/pctype/fields.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) -std=gnu11 -O$* -g -fno-stack-protector -Wall -Wextra -o $@ $<

# Heap blocks typed where they are allocated (issue 12), at every level.
$(PCTYPE_DIR)/alloc-O%: tests/progs/pctype/alloc.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) -std=gnu11 -O$* -g -fno-stack-protector -Wall -Wextra -o $@ $<

$(PCTYPE_DIR)/alloc_cxx-O%: tests/progs/pctype/alloc_cxx.cc
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CXX   $@")
	$(Q)$(CXX) -O$* -g -fno-stack-protector -Wall -Wextra -o $@ $<
