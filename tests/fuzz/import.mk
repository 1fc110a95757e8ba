# import.mk: the whole import path's fuzz target (see fuzz.mk).  Each input
# is a log file imported by the real importer (every importer/*.c but the
# command line's dg-import.c) into a database that is then checked.  The
# seeds are the golden logs, whose MMAP records name real binaries.
FUZZ_TARGETS       += import
FUZZ_import_SRCS   := tests/fuzz/import_fuzz.c \
                      $(filter-out importer/dg-import.c,$(wildcard importer/*.c)) \
                      $(wildcard lib/*.c)
FUZZ_import_CFLAGS := -Iimporter -I$(B)/gen
FUZZ_import_LIBS   := -lsqlite3 -lcapstone -ldw -lelf -lstdc++ -pthread
FUZZ_import_DEPS   := $(B)/gen/schema_sql.h $(wildcard importer/*.h)
FUZZ_import_SEEDS  := tests/fixtures
