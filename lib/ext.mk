# ext.mk: the loadable SQLite extension build/lib/dgaccess.so (included by
# the top Makefile, which defines B, CC, HOST_CFLAGS, HOST_LDFLAGS, Q, EXTS).
#
#   make build/lib/dgaccess.so     (also built by `make all`)
#
# An extension must not link libsqlite3: it calls SQLite through the API
# table of the program that loads it.  So the table's sources, DGVTAB_SRCS
# (which libdg.a also holds, calling sqlite3_* directly for programs such
# as dgsql: lib/dgvtab.c, its lib/dgvt_*.c modules, lib/dgside.c (the
# side thread of a split scan), lib/dgchunk.c and
# lib/dgcellvt.c, the chunk_cells_v table, and lib/dgsumfnblock.c, the
# sum_fn_block table, with their codecs), are compiled a
# second time here with -DDGVTAB_EXTENSION, with hidden visibility so that
# only sqlite3_dgaccess_init is exported and nothing clashes with a host
# that links libdg itself.  The entry point is lib/ext/dgaccess_ext.c,
# outside the lib/*.c that make libdg.a.  The unit test and the fuzz
# targets that need the table compile DGVTAB_SRCS too.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

DGVTAB_SRCS := lib/dgside.c lib/dgvtab.c lib/dgvt_db.c lib/dgvt_model.c lib/dgvt_plan.c lib/dgvt_filter.c lib/dgvt_source.c lib/dgvt_cursor.c lib/dgvt_scan.c lib/dgchunk.c lib/dgcellvt.c lib/dgcells.c lib/dgsumfnblock.c lib/dgblockfns.c lib/dgctxch.c lib/dgctxfn.c

EXT_B      := $(B)/obj/ext
EXT_CFLAGS := $(HOST_CFLAGS) -fvisibility=hidden -DDGVTAB_EXTENSION
EXT_LIBOBJS := $(patsubst lib/%.c,$(EXT_B)/%.o,$(DGVTAB_SRCS))
EXT_OBJS   := $(EXT_B)/dgaccess_ext.o $(EXT_LIBOBJS)

EXTS += $(B)/lib/dgaccess.so

$(EXT_B)/dgaccess_ext.o: lib/ext/dgaccess_ext.c
$(EXT_LIBOBJS): $(EXT_B)/%.o: lib/%.c
$(EXT_OBJS): $(wildcard lib/*.h)

$(EXT_OBJS):
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(EXT_CFLAGS) -c -o $@ $<

$(B)/lib/dgaccess.so: $(EXT_OBJS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LINK  $@")
	$(Q)$(CC) -shared -o $@ $(EXT_OBJS) $(HOST_LDFLAGS) -lm
