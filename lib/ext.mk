# ext.mk: the loadable SQLite extension build/lib/dgaccess.so (included by
# the top Makefile, which defines B, CC, HOST_CFLAGS, HOST_LDFLAGS, Q, EXTS).
#
#   make build/lib/dgaccess.so     (also built by `make all`)
#
# An extension must not link libsqlite3: it calls SQLite through the API
# table of the program that loads it.  So lib/dgvtab.c (which libdg.a also
# holds, calling sqlite3_* directly for programs such as dgsql) is compiled
# a second time here with -DDGVTAB_EXTENSION, and lib/dgchunk.c with it (and
# so are lib/dgcellvt.c, the chunk_cells_v table, and its codec), all
# with hidden visibility so that only sqlite3_dgaccess_init is exported and
# nothing clashes with a host that links libdg itself.  The entry point is
# lib/ext/dgaccess_ext.c, outside the lib/*.c that make libdg.a.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

EXT_B      := $(B)/obj/ext
EXT_CFLAGS := $(HOST_CFLAGS) -fvisibility=hidden -DDGVTAB_EXTENSION
EXT_OBJS   := $(EXT_B)/dgaccess_ext.o $(EXT_B)/dgvtab.o $(EXT_B)/dgchunk.o \
              $(EXT_B)/dgcellvt.o $(EXT_B)/dgcells.o

EXTS += $(B)/lib/dgaccess.so

$(EXT_B)/dgaccess_ext.o: lib/ext/dgaccess_ext.c lib/dgvtab.h
$(EXT_B)/dgvtab.o: lib/dgvtab.c lib/dgvtab.h lib/dgchunk.h lib/dgcellvt.h
$(EXT_B)/dgchunk.o: lib/dgchunk.c lib/dgchunk.h
$(EXT_B)/dgcellvt.o: lib/dgcellvt.c lib/dgcellvt.h lib/dgcells.h lib/dgcodec.h
$(EXT_B)/dgcells.o: lib/dgcells.c lib/dgcells.h lib/dgcodec.h

$(EXT_OBJS):
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(EXT_CFLAGS) -c -o $@ $<

$(B)/lib/dgaccess.so: $(EXT_OBJS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LINK  $@")
	$(Q)$(CC) -shared -o $@ $(EXT_OBJS) $(HOST_LDFLAGS) -lm
