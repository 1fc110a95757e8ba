# failif.mk: the --fail-if condition parser's fuzz target (see fuzz.mk and
# failif_fuzz.c).  Each input is a condition's text.
FUZZ_TARGETS       += failif
FUZZ_failif_SRCS   := tests/fuzz/failif_fuzz.c dgsql/failif.c
FUZZ_failif_CFLAGS := -Idgsql
FUZZ_failif_LIBS   := -lm
FUZZ_failif_DEPS   := dgsql/failif.h
FUZZ_failif_MAX_LEN := 256
