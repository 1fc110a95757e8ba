# dgblockfns.mk: the blocks.fns blob codec's fuzz target (see fuzz.mk).
# Each input is decoded as a blob, and read as a list of (function,
# direction) counts that are encoded and decoded back
# (tests/fuzz/dgblockfns_fuzz.c says how).
FUZZ_TARGETS          += dgblockfns
FUZZ_dgblockfns_SRCS  := tests/fuzz/dgblockfns_fuzz.c lib/dgblockfns.c
