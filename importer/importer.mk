# importer.mk: dg-import (included by the top Makefile).
# The schema is compiled in: schema/schema.sql becomes a C string.

PROGS += $(B)/bin/dg-import
IMPORTER_SRCS := $(wildcard importer/*.c)
IMPORTER_LIBS := -lsqlite3 -lcapstone -ldw -lelf -lstdc++ -pthread

$(B)/gen/schema_sql.h: schema/schema.sql
	@mkdir -p $(@D)
	$(Q){ echo '/* generated from schema/schema.sql: do not edit */'; \
	  echo 'static const char dg_schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@

$(B)/bin/dg-import: $(IMPORTER_SRCS) $(wildcard importer/*.h) $(B)/gen/schema_sql.h $(LIBDG) $(wildcard lib/*.h)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(HOST_CFLAGS) -I$(B)/gen -Iimporter -o $@ $(IMPORTER_SRCS) $(LIBDG) \
		$(HOST_LDFLAGS) $(IMPORTER_LIBS)
