# dgdb.mk: the trace database fuzz target (see fuzz.mk and dgdb_fuzz.c).
# Each input is a recipe of tampering applied to an in-memory copy of a
# seed database, which dg-import makes here from each golden fixture log;
# then dgsql's own code (all of dgsql/ but main.c and the server, serve.c, and lib/) reads it.
# DGVTAB_SRCS (the accesses table's sources) comes from lib/ext.mk.
FUZZ_TARGETS     += dgdb
DGDB_SEEDS_DIR   := $(FUZZ_B)/dgdb-seeds
DGDB_SEED_DBS    := $(patsubst %,$(DGDB_SEEDS_DIR)/%.db,writes-fill ranges-main threads-worker)
FUZZ_dgdb_SRCS   := tests/fuzz/dgdb_fuzz.c $(filter-out dgsql/main.c dgsql/serve.c,$(wildcard dgsql/*.c)) \
                    $(DGVTAB_SRCS) lib/dgsqlfn.c lib/dgfilter.c lib/dgstacks.c \
                    lib/dgplot.c lib/dgctxset.c lib/dgfsum.c lib/dgiv.c lib/dghash.c lib/dgesc.c lib/dghist.c lib/dgcache.c lib/dgreuse.c
FUZZ_dgdb_CFLAGS := -Idgsql -DDG_SCHEMA_VERSION=$(DG_SCHEMA_VERSION) -DDGDB_SEED_DIR='"$(abspath $(DGDB_SEEDS_DIR))"' \
                    -DDGDB_QUERIES='"$(abspath queries)"'
FUZZ_dgdb_LIBS   := -lsqlite3 -lreadline -lm
FUZZ_dgdb_DEPS   := $(DGDB_SEED_DBS) $(wildcard dgsql/*.h)
FUZZ_dgdb_MAX_LEN := 512

# Repacked in 4 KiB pages: the same rows in a quarter of dg-import's
# 16 KiB pages, and every input copies its seed afresh (a third less time).
$(DGDB_SEEDS_DIR)/%.db: tests/fixtures/%.dg $(B)/bin/dg-import
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(B)/bin/dg-import -q $< $@ && \
		sqlite3 $@ 'PRAGMA page_size = 4096; VACUUM;' >/dev/null
