#!/bin/sh
# t1536-dgsql-summaries-modules: with only dso: conditions in --events, or
# only malloc in --ranges, hot_pages, hot_lines and working_set answer from
# the class summaries (sum_line_class, sum_window_class: dg_paged(),
# dg_windowed() are 1) and equal the same aggregates decoded: on symprog
# (dso:libsym* matches three modules, two of them mapped in turn at one
# address), on a hand-made log whose block has code in two modules, and on
# curl --version (59 modules) when curl is installed; on a schema-7
# database without those tables they decode.  On a hand-made log whose
# icounts go back, the working set and the class tables are left empty and
# decoded, sum_lines still exact.  (t1535 checks the same on the test
# programs mixed, threads and heapshare.)
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
. "$DG_TESTS/lib-summaries.sh"
need_tool
need_dgsql
trace_db w.db mixed || finish

# symprog: dso:libsym* matches libsymlib.so, libsyma.so and libsymb.so
# (the two plugins dlopen'ed in turn at one address).
SYM=$DG_BUILD/tests/progs/sym
[ -x "$SYM/symprog" ] || bail "$SYM/symprog is built (make tests-progs)"
if LD_LIBRARY_PATH=$SYM DG_NATIVE=no run_dg sp.db.log -- "$SYM/symprog" \
	"$SYM/libsyma.so" "$SYM/libsymb.so" && "$DG_IMPORT" -q sp.db.log sp.db \
	>import.out 2>import.err; then
	check_eq "sp.db: dso:libsym* matches three modules" 3 \
		"$(dq sp.db "SELECT count(*) FROM modules WHERE path GLOB '*/libsym*'")"
	classed sp.db --events 'dso:libsym*'
	classed sp.db --events 'dso:libsyma.so,dso:libsymb.so'
	classed sp.db --ranges malloc
else
	not_ok "trace and import symprog"
	diag_file import.err 10
fi

# A block whose code is in two modules (tests/unit/mklogs: mixed-v2.log):
# each access's class is the context's set plus its own module, so the
# read at /bin/true's pc and the write at /bin/false's land in different
# classes of the same lines; in the heap block at 0x5000: 2 reads, 1 write;
# at 0x9000, outside: 1 read, 2 writes.
MK=$DG_BUILD/tests/unit/mklogs
[ -x "$MK" ] || bail "$MK is built (make unit-tests)"
mkdir -p logs && "$MK" logs || bail "mklogs writes its logs"
if "$DG_IMPORT" -q logs/mixed-v2.log mx.db >import.out 2>import.err; then
	check_eq "mx.db: sum_line_class by line, modules of the class, heap bit" \
		"320|/bin/false|1|0|1 320|/bin/true|1|2|0 576|/bin/false|0|0|2 576|/bin/true|0|1|0" \
		"$(dq mx.db "SELECT l.line, group_concat(m.path), l.class_id & 1, l.reads, l.writes
		    FROM sum_line_class l JOIN sum_class_modules c ON c.set_id = l.class_id >> 1
		    JOIN modules m ON m.id = c.module_id GROUP BY l.line, l.class_id
		    ORDER BY 1, 2" | tr '\n' ' ' | sed 's/ $//')"
	classed mx.db --events dso:true
	classed mx.db --events dso:false
	classed mx.db --ranges malloc
else
	not_ok "dg-import logs/mixed-v2.log"
	diag_file import.err 10
fi

# Instruction counts that go back (tests/unit/mklogs: back-v2.log, runs at
# icount 0, 250000, 100, 300000): the importer gives up the working set
# and the class tables (dgsql decodes them), but still counts every line
# and page (the window stage goes on counting by line without windows).
if "$DG_IMPORT" -q logs/back-v2.log bk.db >import.out 2>import.err; then
	check_eq "bk.db: sum_windows and sum_line_class are left empty" "0|0" \
		"$(dq bk.db 'SELECT (SELECT count(*) FROM sum_windows),
		    (SELECT count(*) FROM sum_line_class)')"
	check_eq "bk.db: dg_paged(), dg_windowed() without a filter" "1|0" \
		"$(dq bk.db 'SELECT dg_paged(), dg_windowed()')"
	check_eq "bk.db: sum_lines as constructed (line, reads, writes)" \
		"320|2|0 321|1|0 322|1|0 576|0|2 577|0|1 578|0|1" \
		"$(dq bk.db 'SELECT line, reads, writes FROM sum_lines ORDER BY line' |
		   tr '\n' ' ' | sed 's/ $//')"
	check_eq "bk.db: sum_pages as constructed (page, reads, writes)" "5|4|0 9|0|4" \
		"$(dq bk.db 'SELECT page, reads, writes FROM sum_pages ORDER BY page' |
		   tr '\n' ' ' | sed 's/ $//')"
	check_eq "bk.db: hot_lines = decoded" \
		"$(dq bk.db "SELECT dg_hex(addr / 64 * 64), count(*), sum(is_write = 0),
		    sum(is_write) FROM accesses GROUP BY addr / 64" | sort -t'|' -k2,2nr -k1,1)" \
		"$(dq bk.db ".q hot_lines 100" | cut -d'|' -f1-4 | sort -t'|' -k2,2nr -k1,1)"
	check_eq "bk.db: working_set = decoded" \
		"0|4|3|2 200000|2|2|2 300000|2|2|2" \
		"$(dq bk.db ".q working_set" | tr '\n' ' ' | sed 's/ $//')"
else
	not_ok "dg-import logs/back-v2.log"
	diag_file import.err 10
fi

# A database of schema 7 (no class summaries): the same answers, dso:
# from the call-stack filter's tables (lib/dgfsum.c), malloc decoded.
cp w.db w7.db
sqlite3 -batch w7.db "DROP TABLE sum_line_class; DROP TABLE sum_window_class;
	DROP TABLE sum_class_modules; PRAGMA user_version = 7"
classed w7.db --events 'dso:libc.so*'
classed w7.db --ranges malloc 0

# A program with many shared libraries, when there is one.
if command -v curl >/dev/null 2>&1 && DG_NATIVE=no run_dg c.db.log -- curl --version &&
	"$DG_IMPORT" -q c.db.log c.db >import.out 2>import.err; then
	check_eq "c.db: curl has more than 30 modules" 1 \
		"$(dq c.db 'SELECT count(*) > 30 FROM modules')"
	# two conditions, most of the modules (a glob and a list: sp.db above)
	classed c.db --events 'dso:*libssl*,dso:*libcrypto*'
	classed c.db --ranges malloc
else
	diag "no curl, or it could not be traced: the many-library case is not checked"
fi

finish
