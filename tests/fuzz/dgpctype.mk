# dgpctype.mk: the code analysis's fuzz target (see fuzz.mk).  Each input
# is machine code put in place of the oracle program's (build/tests/progs/
# pctype/alloc-O2, whose DWARF stays) and analysed at every byte: the type
# tracker's fixpoint and the allocation scan (tests/fuzz/dgpctype_fuzz.c).
FUZZ_TARGETS          += dgpctype
FUZZ_dgpctype_SRCS    := tests/fuzz/dgpctype_fuzz.c lib/dgpctype.c lib/dghash.c \
                         lib/dgsym.c lib/dgscope.c lib/dgdebugf.c lib/dgplt.c lib/dgentry.c
FUZZ_dgpctype_CFLAGS  := -DDGPCTYPE_FUZZ_PROG='"$(abspath $(B))/tests/progs/pctype/alloc-O2"'
FUZZ_dgpctype_LIBS    := -lcapstone -ldw -lelf -lstdc++
FUZZ_dgpctype_DEPS    := $(B)/tests/progs/pctype/alloc-O2
FUZZ_dgpctype_MAX_LEN := 4096
