# dgreport.mk: `dgsql --report` over tampered trace databases: dgdb's
# recipes (dgdb_fuzz.c, built with DGDB_REPORT) fed to report_write
# instead of the shell's readers.  Its own corpus, tests/fuzz/dgreport/.
FUZZ_TARGETS          += dgreport
FUZZ_dgreport_SRCS = $(FUZZ_dgdb_SRCS)
FUZZ_dgreport_CFLAGS = $(FUZZ_dgdb_CFLAGS) -DDGDB_REPORT
FUZZ_dgreport_LIBS = $(FUZZ_dgdb_LIBS)
FUZZ_dgreport_DEPS = $(FUZZ_dgdb_DEPS)
FUZZ_dgreport_MAX_LEN = $(FUZZ_dgdb_MAX_LEN)
