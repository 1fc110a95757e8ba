#!/bin/sh
# t1535-dgsql-summaries: without a filter, the canned queries by_function,
# hot_pages, hot_lines, by_thread, totals and working_set answer from the
# summary tables
# (dg_filtered() is 0); with a call-stack filter (fn:/file:/dso: in
# --events) by_function, by_thread and totals answer from sum_ctx
# (dg_summed() is 1), and with `--ranges malloc` from sum_heap and
# sum_heap_threads; `accesses WHERE block_id = X` of a block with
# sum_block_chunks rows visits only those chunks and counts without
# decoding.  With only dso: conditions in --events, or only malloc in
# --ranges, hot_pages, hot_lines and working_set answer from the class
# summaries (sum_line_class, sum_window_class: dg_paged(), dg_windowed()
# are 1): on the traces above, on symprog (dso:libsym* matches three
# modules, two of them mapped in turn at one address), on a hand-made log
# whose block has code in two modules, and on curl
# --version (59 modules) when curl is installed; with other filters, and
# on a schema-7 database without those tables, they decode.  Every such
# answer must equal the same aggregate computed by decoding every access
# of `accesses` / filtered_accesses, on a single- and two multi-threaded
# traces; on a hand-made log whose icounts go back, the working set and
# the class tables are left empty and decoded, sum_lines still exact.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
trace_db w.db mixed || finish

check_eq "dg_filtered() without a filter" 0 "$(dq w.db 'SELECT dg_filtered()')"
check_eq "dg_filtered() with one" 1 \
	"$(dq w.db --events fn:main 'SELECT dg_filtered()')"

check_eq "hot_pages = accesses grouped by page" \
	"$(dq w.db "SELECT dg_hex(addr / 4096 * 4096), count(*), sum(is_write = 0),
	            sum(is_write), count(DISTINCT addr / 64) FROM accesses GROUP BY addr / 4096" |
	   sort -t'|' -k2,2nr -k1,1)" \
	"$(dq w.db ".q hot_pages 1000" | sort -t'|' -k2,2nr -k1,1)"
check_eq "hot_lines = accesses grouped by line (accesses, reads, writes)" \
	"$(dq w.db "SELECT dg_hex(addr / 64 * 64), count(*), sum(is_write = 0),
	            sum(is_write) FROM accesses GROUP BY addr / 64" | sort -t'|' -k2,2nr -k1,1)" \
	"$(dq w.db ".q hot_lines 100000" | cut -d'|' -f1-4 | sort -t'|' -k2,2nr -k1,1)"
check_eq "by_function = accesses grouped by the function of their pc" \
	"$(dq w.db "SELECT coalesce(f.name, '?'), sum(a.is_write = 0), sum(a.is_write), sum(a.size)
	            FROM accesses a LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id
	            LEFT JOIN functions f ON f.id = p.function_id
	            GROUP BY f.id, p.module_id" | sort)" \
	"$(dq w.db ".q by_function 100000" | cut -d'|' -f1-4 | sort)"

trace_db t.db threads || finish
check_eq "by_thread = accesses grouped by thread" \
	"$(dq t.db "SELECT thread, sum(is_write = 0), sum(is_write), sum(size), min(icount),
	            max(icount) FROM accesses GROUP BY thread ORDER BY thread")" \
	"$(dq t.db ".q by_thread")"

check_eq "dg_summed() with a call-stack filter" 1 \
	"$(dq w.db --events fn:main,dso:libc.so* 'SELECT dg_summed()')"
check_eq "dg_summed() with --ranges range, malloc,range, and fn: with malloc" "0 0 0" \
	"$(dq w.db --ranges range 'SELECT dg_summed()') $(dq w.db --ranges malloc,range \
	   'SELECT dg_summed()') $(dq w.db --events fn:main --ranges malloc 'SELECT dg_summed()')"
check_eq "dg_summed() with --ranges malloc" 1 "$(dq w.db --ranges malloc 'SELECT dg_summed()')"
check_eq "dg_summed() with user:" 0 \
	"$(dq w.db --events fn:main,user:x 'SELECT dg_summed()')"

# summed DB FILTER [OPTION]: by_function, by_thread and totals under
# OPTION (--events by default) FILTER (from sum_ctx, or sum_heap for
# --ranges malloc) equal the same aggregates of filtered_accesses.
summed() {
	_o=${3:---events}
	check_eq "$1 $_o $2: by_function = decoded" \
		"$(dq $1 $_o "$2" "SELECT coalesce(f.name, '?'), sum(a.is_write = 0),
		    sum(a.is_write), sum(a.size) FROM filtered_accesses a
		    LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id LEFT JOIN functions f ON f.id = p.function_id
		    GROUP BY f.id, p.module_id" | sort)" \
		"$(dq $1 $_o "$2" ".q by_function 100000" | cut -d'|' -f1-4 | sort)"
	check_eq "$1 $_o $2: by_thread = decoded" \
		"$(dq $1 $_o "$2" "SELECT thread, sum(is_write = 0), sum(is_write), sum(size),
		    min(icount), max(icount) FROM filtered_accesses GROUP BY thread ORDER BY thread")" \
		"$(dq $1 $_o "$2" ".q by_thread")"
	check_eq "$1 $_o $2: totals = decoded" \
		"$(dq $1 $_o "$2" "SELECT count(*), sum(is_write = 0), sum(is_write),
		    sum(size) FROM filtered_accesses")" \
		"$(dq $1 $_o "$2" ".q totals")"
}
summed w.db fn:mix
summed w.db fn:main
# an inlined function (ld.so's, from its DWARF): blocks where only some
# accesses are its own, so the per-pc part of the filter counts
summed w.db fn:elf_dynamic_do_Rela
summed w.db 'dso:libc.so*,file:mixed.c'
summed t.db fn:worker
summed t.db fn:main
summed t.db 'dso:*libc*'
trace_db h.db heapshare || finish
for db in w.db t.db h.db; do
	summed $db malloc --ranges
done
check_eq "h.db: the shared block is touched by more than one thread" 1 \
	"$(dq h.db "SELECT count(DISTINCT thread) > 1 FROM accesses WHERE block_id =
	    (SELECT id FROM blocks ORDER BY reads + writes DESC LIMIT 1)")"
check_eq "h.db: sum_heap_threads = decoded" \
	"$(dq h.db "SELECT thread, count(*), min(icount), max(icount) FROM accesses
	    WHERE block_id IS NOT NULL GROUP BY thread")" \
	"$(dq h.db "SELECT * FROM sum_heap_threads")"

# heap_tables DB: sum_heap, sum_heap_threads and sum_block_chunks, row for
# row, equal the same aggregates of the accesses that have a block_id.
heap_tables() {
	check_eq "$1: sum_heap = decoded heap accesses by thread, pc, module, direction" \
		"$(dq $1 "SELECT thread, pc, module_id, is_write, count(*), sum(size) FROM accesses
		    WHERE block_id IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4")" \
		"$(dq $1 "SELECT * FROM sum_heap ORDER BY 1, 2, 3, 4")"
	check_eq "$1: sum_heap_threads = decoded" \
		"$(dq $1 "SELECT thread, count(*), min(icount), max(icount) FROM accesses
		    WHERE block_id IS NOT NULL GROUP BY thread")" \
		"$(dq $1 "SELECT * FROM sum_heap_threads")"
	check_eq "$1: sum_block_chunks = decoded, blocks of 65536 accesses or more" \
		"$(dq $1 "SELECT block_id, chunk_id, count(*) FROM accesses WHERE block_id IN
		    (SELECT id FROM blocks WHERE reads + writes >= 65536) GROUP BY 1, 2 ORDER BY 1, 2")" \
		"$(dq $1 "SELECT * FROM sum_block_chunks ORDER BY 1, 2")"
}
for log in "$DG_TESTS"/fixtures/*.dg; do
	n=$(basename "$log" .dg)
	rm -f "fx-$n.db"
	if "$DG_IMPORT" -q "$log" "fx-$n.db" >import.out 2>import.err; then
		heap_tables "fx-$n.db"
	else
		not_ok "dg-import $log"
		diag_file import.err 10
	fi
done

# Blocks with sum_block_chunks rows: the rows equal the decoded accesses
# per chunk (icount >= 0 makes the plan read a column, so it decodes);
# count(*) equals that count; a rowid asked for in the middle of a chunk
# (OFFSET: the rows before it are only counted) is the decoded one.
trace_db s.db sweep || finish
for db in w.db t.db h.db s.db; do
	heap_tables $db
done
check_eq "s.db, h.db: blocks with sum_block_chunks rows" "1 1" \
	"$(dq s.db 'SELECT count(DISTINCT block_id) FROM sum_block_chunks') $(dq h.db \
	   'SELECT count(DISTINCT block_id) FROM sum_block_chunks')"
for db in s.db h.db; do
	for b in $(dq $db 'SELECT DISTINCT block_id FROM sum_block_chunks'); do
		check_eq "$db: block $b: sum_block_chunks = decoded per chunk" \
			"$(dq $db "SELECT chunk_id, count(*) FROM accesses WHERE block_id = $b
			    AND icount >= 0 GROUP BY chunk_id")" \
			"$(dq $db "SELECT chunk_id, accesses FROM sum_block_chunks WHERE block_id = $b")"
		check_eq "$db: block $b: count(*) = decoded" \
			"$(dq $db "SELECT count(*) FROM accesses WHERE block_id = $b AND icount >= 0")" \
			"$(dq $db "SELECT count(*) FROM accesses WHERE block_id = $b")"
		check_eq "$db: block $b: count(*) with a condition SQLite checks = decoded" \
			"$(dq $db "SELECT count(*) FROM (SELECT icount FROM accesses WHERE
			    block_id = $b AND icount >= 0) WHERE icount % 3 = 1")" \
			"$(dq $db "SELECT count(*) FROM accesses WHERE block_id = $b AND icount % 3 = 1")"
		for off in 0 1 $(dq $db "SELECT accesses, accesses + 7, (SELECT sum(accesses)
		    FROM sum_block_chunks WHERE block_id = $b) - 1 FROM sum_block_chunks
		    WHERE block_id = $b LIMIT 1"); do
			check_eq "$db: block $b: rowid at offset $off = decoded" \
				"$(dq $db "SELECT rowid FROM accesses WHERE block_id = $b AND icount >= 0
				    LIMIT 1 OFFSET $off")" \
				"$(dq $db "SELECT rowid FROM accesses WHERE block_id = $b LIMIT 1 OFFSET $off")"
		done
	done
done
for db in w.db t.db; do
	check_eq "$db: working_set (sum_windows) = accesses grouped by window" \
		"$(dq $db "SELECT icount / 100000 * 100000, count(*), count(DISTINCT addr / 64),
		    count(DISTINCT addr / 4096) FROM accesses GROUP BY icount / 100000 ORDER BY 1")" \
		"$(dq $db ".q working_set")"
done
check_eq "dg_windowed() without a filter, and with one" "1 0" \
	"$(dq w.db 'SELECT dg_windowed()') $(dq w.db --events fn:main 'SELECT dg_windowed()')"
# classed DB OPTION FILTER [SUMMED]: hot_pages, hot_lines and working_set
# under OPTION FILTER equal the same aggregates of filtered_accesses,
# decoded; SUMMED (default 1) is what dg_paged() and dg_windowed() must
# say (1: the class summaries answer).
classed() {
	check_eq "$1 $2 $3: dg_paged(), dg_windowed()" "${4:-1}|${4:-1}" \
		"$(dq $1 $2 "$3" 'SELECT dg_paged(), dg_windowed()')"
	check_eq "$1 $2 $3: the filter selects accesses" 1 \
		"$(dq $1 $2 "$3" 'SELECT count(*) > 0 FROM filtered_accesses')"
	check_eq "$1 $2 $3: hot_pages = decoded" \
		"$(dq $1 $2 "$3" "SELECT dg_hex(addr / 4096 * 4096), count(*), sum(is_write = 0),
		    sum(is_write), count(DISTINCT addr / 64) FROM filtered_accesses
		    GROUP BY addr / 4096" | sort -t'|' -k2,2nr -k1,1)" \
		"$(dq $1 $2 "$3" ".q hot_pages 100000000" | sort -t'|' -k2,2nr -k1,1)"
	check_eq "$1 $2 $3: hot_lines = decoded (accesses, reads, writes)" \
		"$(dq $1 $2 "$3" "SELECT dg_hex(addr / 64 * 64), count(*), sum(is_write = 0),
		    sum(is_write) FROM filtered_accesses GROUP BY addr / 64" |
		   sort -t'|' -k2,2nr -k1,1)" \
		"$(dq $1 $2 "$3" ".q hot_lines 100000000" | cut -d'|' -f1-4 | sort -t'|' -k2,2nr -k1,1)"
	check_eq "$1 $2 $3: working_set = decoded" \
		"$(dq $1 $2 "$3" "SELECT icount / 100000 * 100000, count(*),
		    count(DISTINCT addr / 64), count(DISTINCT addr / 4096)
		    FROM filtered_accesses GROUP BY icount / 100000 ORDER BY 1")" \
		"$(dq $1 $2 "$3" ".q working_set")"
}
for db in w.db t.db h.db; do
	classed $db --events 'dso:libc.so*'
	classed $db --ranges malloc
done
classed w.db --events 'dso:libc.so*,dso:ld-linux*'
classed t.db --events 'dso:*libc*,dso:*threads*'
classed w.db --events fn:main 0
classed t.db --ranges malloc,range 0
check_eq "dg_paged() with dso: and malloc together" 0 \
	"$(dq h.db --events 'dso:*libc*' --ranges malloc 'SELECT dg_paged()')"

# sum_class_modules: every module of a class is on the call stack of some
# access of that class (its pc's module, or a caller frame's).
check_eq "t.db: the classes' modules are on their accesses' stacks" 0 \
	"$(dq t.db "SELECT count(*) FROM sum_class_modules m WHERE m.set_id IN
	    (SELECT class_id >> 1 FROM sum_line_class) AND m.module_id NOT IN
	    (SELECT module_id FROM access_descs UNION SELECT module_id FROM stack_frames)")"

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

# A database of schema 7 (no class summaries): the same answers, decoded.
cp w.db w7.db
sqlite3 -batch w7.db "DROP TABLE sum_line_class; DROP TABLE sum_window_class;
	DROP TABLE sum_class_modules; PRAGMA user_version = 7"
classed w7.db --events 'dso:libc.so*' 0
classed w7.db --ranges malloc 0

# A program with many shared libraries, when there is one.
if command -v curl >/dev/null 2>&1 && DG_NATIVE=no run_dg c.db.log -- curl --version &&
	"$DG_IMPORT" -q c.db.log c.db >import.out 2>import.err; then
	check_eq "c.db: curl has more than 30 modules" 1 \
		"$(dq c.db 'SELECT count(*) > 30 FROM modules')"
	classed c.db --events 'dso:lib*'
	classed c.db --events 'dso:*libssl*,dso:*libcrypto*'
	classed c.db --ranges malloc
else
	diag "no curl, or it could not be traced: the many-library case is not checked"
fi

check_eq "totals without a filter = every access" \
	"$(dq t.db "SELECT count(*), sum(is_write = 0), sum(is_write), sum(size) FROM accesses")" \
	"$(dq t.db ".q totals")"
finish
