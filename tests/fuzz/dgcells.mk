# dgcells.mk: the chunk_cells blob codec's fuzz target (see fuzz.mk).  Each
# input is decoded as a blob, and read as a list of cells that are encoded
# and decoded back (tests/fuzz/dgcells_fuzz.c says how).
FUZZ_TARGETS       += dgcells
FUZZ_dgcells_SRCS  := tests/fuzz/dgcells_fuzz.c lib/dgcells.c
