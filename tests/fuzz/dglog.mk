# dglog.mk: the log reader's fuzz target (see fuzz.mk).  Each input is read
# as a log from memory and through a descriptor with a 64-byte first buffer.
FUZZ_TARGETS      += dglog
FUZZ_dglog_SRCS   := tests/fuzz/dglog_fuzz.c lib/dglog.c lib/dglog_rec.c \
                     lib/dglog_cur.c
FUZZ_dglog_CFLAGS := -DDGLOG_BUF_INITIAL=64
FUZZ_dglog_SEEDS  := tests/fixtures
