# fuzz.mk: the libFuzzer target of the log reader.
#
#   make -f tests/fuzz/fuzz.mk fuzz       (or `make fuzz` once the top
#                                          Makefile includes this file)
#   FUZZ_SECONDS=600 make ... fuzz        run longer
#
# Builds build/fuzz/dglog_fuzz from lib/dglog_fuzz.c and lib/dglog.c with
# clang -fsanitize=fuzzer,address,undefined and runs it for FUZZ_SECONDS on
# the seed corpus tests/fuzz/corpus/ (small valid logs written by
# build/tests/unit/mklogs) and the real logs of tests/fixtures/ (read only:
# libFuzzer writes the inputs it finds to the first directory,
# build/fuzz/corpus/),
# crashes to build/fuzz/.  clang's libFuzzer runtime comes with the Debian
# package libclang-rt-14-dev (or the clang package on older releases).
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

B            ?= build
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_B       := $(B)/fuzz
FUZZ_FLAGS   := -std=gnu11 -g -O1 -Ilib -D_GNU_SOURCE -DDGLOG_BUF_INITIAL=64 \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

.PHONY: fuzz fuzz-build

fuzz-build: $(FUZZ_B)/dglog_fuzz

$(FUZZ_B)/dglog_fuzz: lib/dglog_fuzz.c lib/dglog.c lib/dglog.h lib/dg_format.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ lib/dglog_fuzz.c lib/dglog.c

fuzz: $(FUZZ_B)/dglog_fuzz
	@mkdir -p $(FUZZ_B)/corpus
	cd $(FUZZ_B) && ./dglog_fuzz -max_total_time=$(FUZZ_SECONDS) \
		-max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 \
		corpus $(CURDIR)/tests/fuzz/corpus \
		$(if $(wildcard tests/fixtures/*.dg),$(CURDIR)/tests/fixtures)
