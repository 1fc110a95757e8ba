# dgctxch.mk: the context_chunks blob codec's fuzz target (see fuzz.mk).
# Each input is decoded as a row, and read as a list of chunk ids that is
# encoded and decoded back (tests/fuzz/dgctxch_fuzz.c says how).
FUZZ_TARGETS       += dgctxch
FUZZ_dgctxch_SRCS  := tests/fuzz/dgctxch_fuzz.c lib/dgctxch.c
