# count.mk: the count fast path's statement parser's fuzz target (see
# fuzz.mk and count_fuzz.c).  Each input is a statement's text.
# DGVTAB_SRCS (the accesses table's sources) comes from lib/ext.mk.
FUZZ_TARGETS       += count
FUZZ_count_SRCS    := tests/fuzz/count_fuzz.c dgsql/count.c dgsql/terms.c dgsql/shape.c lib/dgsqlfn.c lib/dghist.c $(DGVTAB_SRCS)
FUZZ_count_CFLAGS  := -Idgsql
FUZZ_count_LIBS    := -lsqlite3 -lm
FUZZ_count_DEPS    := dgsql/count.h dgsql/shape.h lib/dgvtab.h
FUZZ_count_MAX_LEN := 256
