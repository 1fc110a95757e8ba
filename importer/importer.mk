# importer.mk: dg-import (included by the top Makefile).
# The schema is compiled in: schema/schema.sql becomes a C string.

PROGS += $(B)/bin/dg-import
IMPORTER_SRCS := $(wildcard importer/*.c)
IMPORTER_LIBS := -lsqlite3 -lcapstone -ldw -lelf -lstdc++ -pthread
# The importer's sources are compiled as one program with link-time
# optimisation: the per-access path crosses modules (imp_run -> imp_heap,
# imp_hsum, imp_pctype), and inlining across them cut the import's CPU by
# 7-10 % on the xz trace (bench/HISTORY.md, 2026-11-23, fourth session).
# lib/ (the decoder dg-dump shares) is compiled as before.
IMPORTER_LTO := -flto=auto

$(B)/gen/schema_sql.h: schema/schema.sql
	@mkdir -p $(@D)
	$(Q){ echo '/* generated from schema/schema.sql: do not edit */'; \
	  echo 'static const char dg_schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@

$(B)/bin/dg-import: $(IMPORTER_SRCS) $(wildcard importer/*.h) $(B)/gen/schema_sql.h $(LIBDG) $(wildcard lib/*.h)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(HOST_CFLAGS) $(IMPORTER_LTO) -I$(B)/gen -Iimporter -o $@ $(IMPORTER_SRCS) \
		$(LIBDG) $(HOST_LDFLAGS) $(IMPORTER_LTO) $(IMPORTER_LIBS)
