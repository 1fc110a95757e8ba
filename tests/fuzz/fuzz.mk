# fuzz.mk: every fuzz target, built two ways (included by the top Makefile).
#
#   make fuzz                         run each target FUZZ_SECONDS (60) under
#                                     clang's libFuzzer, ASAN and UBSan
#   make fuzz FUZZ=dgdb FUZZ_SECONDS=1800    one target, longer
#   make fuzz-replay                  build the replay twins (make test does)
#
# A target NAME is declared by its own file tests/fuzz/NAME.mk:
#   FUZZ_TARGETS     += NAME
#   FUZZ_NAME_SRCS   := tests/fuzz/NAME_fuzz.c and every .c it needs
#   FUZZ_NAME_CFLAGS := extra compiler flags        (optional)
#   FUZZ_NAME_LIBS   := libraries to link           (optional)
#   FUZZ_NAME_DEPS   := files whose change rebuilds (optional; prerequisites
#                       such as a generated header go here too)
#   FUZZ_NAME_SEEDS  := read-only seed directories  (optional)
#   FUZZ_NAME_MAX_LEN := libFuzzer's -max_len       (optional; 65536)
# and its kept corpus is the directory tests/fuzz/NAME/.
#
# Two binaries per target:
#   build/fuzz/NAME-fuzz    clang -fsanitize=fuzzer,address,undefined: the
#                           fuzzer.  New inputs go to build/fuzz/NAME-corpus/
#                           (the first corpus directory is the one libFuzzer
#                           writes to), crashes to build/fuzz/.  Copy the
#                           inputs worth keeping into tests/fuzz/NAME/.
#   build/fuzz/NAME-replay  gcc -fsanitize=address,undefined, no recovery,
#                           linked with tests/fuzz/replay.c instead of
#                           libFuzzer: tests/t0190-fuzz-corpus.sh runs it over
#                           tests/fuzz/NAME/ and the seeds in `make test`, so
#                           no clang is needed there.
# clang's libFuzzer runtime comes with the Debian package clang (through
# libclang-rt-NN-dev).
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

B            ?= build
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_B       := $(B)/fuzz
FUZZ_TARGETS :=
FUZZ_COMMON  := -std=gnu11 -g -O1 -Ilib -D_GNU_SOURCE -fno-omit-frame-pointer \
                -fno-sanitize-recover=all
FUZZ_LF      := $(FUZZ_COMMON) -fsanitize=fuzzer,address,undefined
FUZZ_RP      := $(FUZZ_COMMON) -fsanitize=address,undefined

include $(filter-out tests/fuzz/fuzz.mk,$(wildcard tests/fuzz/*.mk))

FUZZ ?= $(FUZZ_TARGETS)

# fuzz_rules NAME: the two binaries of one target.
define fuzz_rules
$(FUZZ_B)/$(1)-fuzz: $$(FUZZ_$(1)_SRCS) $$(FUZZ_$(1)_DEPS) $(wildcard lib/*.h)
	@mkdir -p $$(@D)
	$$(if $$(Q),@echo "  FUZZ  $$@")
	$$(Q)$$(FUZZ_CC) $$(FUZZ_LF) $$(FUZZ_$(1)_CFLAGS) -o $$@ \
		$$(filter %.c,$$(FUZZ_$(1)_SRCS)) $$(FUZZ_$(1)_LIBS)

$(FUZZ_B)/$(1)-replay: tests/fuzz/replay.c $$(FUZZ_$(1)_SRCS) $$(FUZZ_$(1)_DEPS) $(wildcard lib/*.h)
	@mkdir -p $$(@D)
	$$(if $$(Q),@echo "  CC    $$@")
	$$(Q)$$(CC) $$(FUZZ_RP) $$(FUZZ_$(1)_CFLAGS) -o $$@ tests/fuzz/replay.c \
		$$(filter %.c,$$(FUZZ_$(1)_SRCS)) $$(FUZZ_$(1)_LIBS)

.PHONY: fuzz-run-$(1)
fuzz-run-$(1): fuzz-check-clang $(FUZZ_B)/$(1)-fuzz
	@mkdir -p $(FUZZ_B)/$(1)-corpus
	@echo "fuzz: $(1) for $$(FUZZ_SECONDS) s"
	$$(Q)cd $(FUZZ_B) && ./$(1)-fuzz -max_total_time=$$(FUZZ_SECONDS) \
		-max_len=$$(or $$(FUZZ_$(1)_MAX_LEN),65536) -rss_limit_mb=2048 \
		-print_final_stats=1 $(1)-corpus \
		$$(abspath $$(wildcard tests/fuzz/$(1) $$(FUZZ_$(1)_SEEDS)))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rules,$(t))))

.PHONY: fuzz fuzz-build fuzz-replay fuzz-check-clang

fuzz-replay: $(foreach t,$(FUZZ_TARGETS),$(FUZZ_B)/$(t)-replay)

fuzz-check-clang:
	@command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: no $(FUZZ_CC); install the Debian package clang" >&2; exit 1; }

fuzz-build: fuzz-check-clang $(foreach t,$(FUZZ),$(FUZZ_B)/$(t)-fuzz)


# Targets run one after another (order-only), each on its own corpus.
fuzz: $(foreach t,$(FUZZ),fuzz-run-$(t))
