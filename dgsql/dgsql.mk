# dgsql.mk: the SQL shell dgsql (included by the top Makefile, which
# defines B, CC, HOST_CFLAGS, HOST_LDFLAGS, LIBDG, Q, PREFIX, DESTDIR).
#
#   make                 builds $(B)/bin/dgsql
#   make install-dgsql   installs dgsql and the canned queries
#                        (PREFIX/share/datagrind/queries)
#
# dgsql/ holds the program's own modules (shell, the session the commands
# see (shellctx.h), commands, output modes,
# the export fast path, completion, stats, canned-query lookup, and
# --report: report, its
# document rdoc and its charts rchart); the filter compiler, the plotter
# and the SQL functions are in lib/ (dgfilter, dgplot, dgsqlfn) for other
# programs; the accesses table is lib/dgvtab's.

PROGS += $(B)/bin/dgsql

DGSQL_SRCS := $(wildcard dgsql/*.c)
DGSQL_HDRS := $(wildcard dgsql/*.h) $(wildcard lib/*.h)
DG_SCHEMA_VERSION := $(shell sed -n 's/^PRAGMA user_version = \([0-9]*\);.*/\1/p' schema/schema.sql)
DGSQL_DEFS := -DDG_VERSION='"$(VERSION)"' -DDG_SCHEMA_VERSION=$(DG_SCHEMA_VERSION) \
	-DDGSQL_QUERYDIR='"$(PREFIX)/share/datagrind/queries"'
DGSQL_LIBS := -lsqlite3 -lreadline -ldw -lelf -lstdc++ -lm -lmicrohttpd -lpthread

# The viewer's page (viewer/: HTML, CSS, JavaScript) compiled into dgsql as
# byte arrays, viewer_<file> and viewer_<file>_len, for --serve
# (dgsql/serve.c): nothing to install beside it, nothing fetched.
VIEWER_FILES := viewer/index.html viewer/viewer.js viewer/viewer.css
$(B)/gen/viewer_assets.c: $(VIEWER_FILES) dgsql/dgsql.mk
	@mkdir -p $(@D)
	$(Q)for f in $(VIEWER_FILES); do \
		n=$$(basename $$f | tr '.-' '__'); \
		echo "const unsigned char viewer_$$n[] = {"; \
		od -An -v -tx1 $$f | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
		echo "0 };"; \
		echo "const unsigned long viewer_$${n}_len = $$(wc -c <$$f);"; \
	done >$@.tmp && mv $@.tmp $@

# DuckDB, the columnar engine (dgsql/duck.h), where make deps put it
# (scripts/install-duckdb.sh): its header at build time, its library
# loaded on first use (dlopen, through this run path: next to an
# installed dgsql, PREFIX/lib/datagrind, or the source tree's .deps).
# Without it dgsql is built with SQLite alone.
DUCKDB_DIR ?= .deps/duckdb
ifneq ($(wildcard $(DUCKDB_DIR)/include/duckdb.h),)
ifneq ($(wildcard $(DUCKDB_DIR)/lib/libduckdb.so),)
DGSQL_DEFS += -DDG_HAVE_DUCKDB -isystem $(DUCKDB_DIR)/include
DGSQL_LIBS += -ldl -Wl,-rpath,'$$ORIGIN/../lib/datagrind' -Wl,-rpath,$(abspath $(DUCKDB_DIR)/lib)
DGSQL_HAVE_DUCKDB := 1
endif
endif

$(B)/bin/dgsql: $(DGSQL_SRCS) $(DGSQL_HDRS) $(LIBDG) schema/schema.sql $(wildcard $(DUCKDB_DIR)/VERSION) \
		$(B)/gen/viewer_assets.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC    $@")
	$(Q)$(CC) $(HOST_CFLAGS) -Idgsql $(DGSQL_DEFS) -o $@ $(DGSQL_SRCS) $(B)/gen/viewer_assets.c \
		$(LIBDG) $(HOST_LDFLAGS) $(DGSQL_LIBS)

.PHONY: install-dgsql
install-dgsql: $(B)/bin/dgsql
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/datagrind/queries
	install -m 755 $(B)/bin/dgsql $(DESTDIR)$(PREFIX)/bin/
	install -m 644 queries/*.sql $(DESTDIR)$(PREFIX)/share/datagrind/queries/
ifeq ($(DGSQL_HAVE_DUCKDB),1)
	install -d $(DESTDIR)$(PREFIX)/lib/datagrind
	install -m 644 $(DUCKDB_DIR)/lib/libduckdb.so $(DUCKDB_DIR)/LICENSE $(DESTDIR)$(PREFIX)/lib/datagrind/
endif
