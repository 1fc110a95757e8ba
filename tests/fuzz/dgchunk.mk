# dgchunk.mk: the chunk codec's fuzz target (see fuzz.mk).  Each input gives
# context shapes, then bytes decoded as a chunk and runs encoded and decoded
# back (tests/fuzz/dgchunk_fuzz.c says how the bytes are read).
FUZZ_TARGETS       += dgchunk
FUZZ_dgchunk_SRCS  := tests/fuzz/dgchunk_fuzz.c lib/dgchunk.c
