#!/bin/sh
# t1585-dgsql-count: `SELECT count(*) FROM accesses [WHERE ...]` with
# terms the table evaluates in C (column OP integer, either way round,
# decimal, hex, negative, ANDed) is answered by the count fast path
# (dgsql/count.h: dgvtab_count, gdb sees it called) and equals what
# SQLite's row loop counts (--engine sqlite, the statement with a trailing comment, which
# the fast path does not take), in every output mode, with the column
# named as written; a block with sum_block_chunks rows is counted from
# them, terms on thread and chunk_id alone from chunks.n_accesses, with
# icount too from the chunks inside its range (the two straddling it
# decoded), others by decoding; filtered_accesses without a filter, and
# under one (fn:, malloc, user:, --icount-range, --addr-range, with thread
# and is_write terms): SQLite's count; text the fast path does not take (a column SQLite
# filters, a real, <>, OR, a hiding view) still gives
# SQLite's answer.  On a single-, a multi-threaded and a several-chunk
# trace, one whose hot block has sum_block_chunks rows, and one with user
# events.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
trace_db m.db mixed || finish
trace_db t.db threads || finish
trace_db s.db sweep || finish
trace_db h.db heapshare || finish
trace_db r.db ranges || finish

# same_all DB MODE SQL...: the statements run by one dgsql each way (a
# process a side, not a statement: 140 fewer starts), outputs equal and a
# line or more a statement.
same_all() {
	_db=$1 _m=$2
	shift 2
	_n=$#
	"$DGSQL" -m "$_m" --header "$_db" "$@" >fast.out 2>fast.err
	_f=$?
	for _q in "$@"; do
		set -- "$@" "$_q -- through SQLite"
		shift
	done
	"$DGSQL" --engine sqlite -m "$_m" --header "$_db" "$@" >slow.out 2>slow.err
	check_eq "$_db -m $_m, $_n statements: exit status as SQLite's" "0 0" "$_f $?"
	check_cmp "$_db -m $_m, $_n statements: output as SQLite's" slow.out fast.out
	check_ge "$_db -m $_m, $_n statements: a line or more each" "$_n" "$(wc -l <fast.out)"
}

# same DB MODE SQL: fast and SQLite's output equal and not empty.
same() {
	"$DGSQL" -m "$2" --header "$1" "$3" >fast.out 2>fast.err
	_f=$?
	"$DGSQL" --engine sqlite -m "$2" --header "$1" "$3 -- through SQLite" >slow.out 2>slow.err
	check_eq "$1 -m $2 '$3': exit status as SQLite's" "0 0" "$_f $?"
	check_cmp "$1 -m $2 '$3': output as SQLite's" slow.out fast.out
	check_gt "$1 -m $2 '$3' prints lines" 0 "$(wc -l <fast.out)"
}

for db in m.db t.db s.db h.db; do
	B=$(dq $db "SELECT id FROM blocks ORDER BY reads + writes DESC LIMIT 1")
	T=$(dq $db "SELECT max(thread) FROM chunks")
	IC=$(dq $db "SELECT (min(icount_lo) + max(icount_hi)) / 2 FROM chunks")
	A=$(dq $db "SELECT addr FROM blocks WHERE id = $B")
	AH=$(printf '0x%x' "$A")
	same_all $db list "SELECT count(*) FROM accesses" \
		 "select COUNT( * ) from main.accesses" \
		 "SELECT count(*) FROM accesses WHERE block_id = $B" \
		 "SELECT count(*) FROM accesses WHERE $B == block_id" \
		 "SELECT count(*) FROM accesses WHERE block_id = $B AND is_write = 1" \
		 "SELECT count(*) FROM accesses WHERE block_id = $B AND icount < $IC" \
		 "SELECT count(*) FROM accesses WHERE thread = $T AND icount >= $IC" \
		 "SELECT count(*) FROM accesses WHERE addr >= $AH AND $A + 64 > addr" \
		 "SELECT count(*) FROM accesses WHERE chunk_id <= 1 AND is_write = 0" \
		 "SELECT count(*) FROM accesses WHERE thread = $T" \
		 "SELECT count(*) FROM accesses WHERE chunk_id >= 1 AND 3 > chunk_id" \
		 "SELECT count(*) FROM accesses WHERE thread = $T AND chunk_id > 0" \
		 "SELECT count(*) FROM accesses WHERE icount > -5 AND block_id = -1" \
		 "SELECT count(*) FROM filtered_accesses WHERE is_write = 1"
	for mode in csv json line table; do
		same $db $mode "SELECT count(*) FROM accesses WHERE block_id = $B"
	done
done

check_eq "a ';' ends it too" "$(dq m.db "SELECT count(*) FROM accesses -- x")" \
	"$(dq m.db "SELECT count(*) FROM accesses ; ")"

# Not taken, still SQLite's answer: columns SQLite filters, a real, <>,
# OR, a filter on the view.
for q in "SELECT count(*) FROM accesses WHERE size = 8" \
	 "SELECT count(*) FROM accesses WHERE icount < 1e9" \
	 "SELECT count(*) FROM accesses WHERE is_write <> 1" \
	 "SELECT count(*) FROM accesses WHERE is_write = 1 OR thread = 2"; do
	same t.db list "$q"
done
# Under a filter: counted from the filter's summaries (fn:, malloc) or as
# terms (--icount-range, --addr-range; fn: with them, its set decoded in
# C), or decoded; always SQLite's count.
for db in t.db h.db; do
	IC0=$(dq $db "SELECT min(icount_lo) + 7 FROM chunks")
	IC1=$(dq $db "SELECT (min(icount_lo) + 3 * max(icount_hi)) / 4 FROM chunks")
	A=$(dq $db "SELECT addr FROM blocks ORDER BY reads + writes DESC LIMIT 1")
	T=$(dq $db "SELECT max(thread) FROM chunks")
	Q="SELECT count(*) FROM filtered_accesses"
	for f in "--events fn:main" "--events fn:worker" "--ranges malloc" \
		 "--icount-range $IC0:$IC1" "--addr-range $A:$((A + 4096))" \
		 "--events fn:worker --icount-range $IC0:$IC1"; do
		# shellcheck disable=SC2086
		fast=$("$DGSQL" $db $f -c "$Q" -c "$Q WHERE is_write = 1" -c "$Q WHERE thread = $T" \
			-c "$Q WHERE thread = $T AND is_write = 0" 2>&1)
		# shellcheck disable=SC2086
		slow=$("$DGSQL" --engine sqlite $db $f -c "$Q -- slow" -c "$Q WHERE is_write = 1 -- slow" \
			-c "$Q WHERE thread = $T -- slow" -c "$Q WHERE thread = $T AND is_write = 0 -- slow" 2>&1)
		check_eq "$db $f: four counts of filtered_accesses (all, writes, a thread, its reads) as SQLite's" \
			"$slow" "$fast"
	done
done
# --events user: interval by interval (the ranges program's user:loop)
IC=$(dq r.db "SELECT (min(icount_lo) + max(icount_hi)) / 2 FROM chunks")
Q="SELECT count(*) FROM filtered_accesses"
for f in "--events user:loop" "--events user:loop --icount-range 0:$IC" \
	 "--events user:nosuch" "--events user:loop,fn:main"; do
	# shellcheck disable=SC2086
	fast=$("$DGSQL" r.db $f -c "$Q" -c "$Q WHERE is_write = 1" 2>&1)
	# shellcheck disable=SC2086
	slow=$("$DGSQL" --engine sqlite r.db $f -c "$Q -- slow" -c "$Q WHERE is_write = 1 -- slow" 2>&1)
	check_eq "r.db $f: all and writes counted as SQLite's" "$slow" "$fast"
done
check_gt "r.db --events user:loop counts some accesses" 0 \
	"$("$DGSQL" r.db --events user:loop "SELECT count(*) FROM filtered_accesses")"
check_eq "filtered_accesses under fn:worker: as many as decoded" \
	"$(dq t.db --events fn:worker "SELECT count(*) FROM (SELECT icount FROM filtered_accesses)")" \
	"$(dq t.db --events fn:worker "SELECT count(*) FROM filtered_accesses")"
check_eq "temp view named accesses hides the table" "3" \
	"$(printf 'CREATE TEMP VIEW accesses AS SELECT 1 UNION SELECT 2 UNION SELECT 3;\nSELECT count(*) FROM accesses;\n' |
	"$DGSQL" m.db 2>&1)"

# The block with sum_block_chunks rows: counted from them, exactly.
HB=$(dq h.db 'SELECT block_id FROM sum_block_chunks LIMIT 1')
check_eq "h.db block $HB: count = sum_block_chunks" \
	"$(dq h.db "SELECT sum(accesses) FROM sum_block_chunks WHERE block_id = $HB")" \
	"$(dq h.db "SELECT count(*) FROM accesses WHERE block_id = $HB")"

# The fast path is what ran (and not for other text).
if command -v gdb >/dev/null 2>&1; then
	for f in "" "--events fn:main"; do
		# shellcheck disable=SC2086
		printf '%s\n' "SELECT count(*) FROM accesses WHERE block_id = $HB" \
			"SELECT count(*) FROM accesses WHERE size = 8" \
			"SELECT count(*) FROM filtered_accesses" |
			gdb_hits dgvtab_count h.db $f >>gdb.all
	done
	check_eq "dgvtab_count runs for the count, not for other terms or a filter" \
		"SELECT count(*) FROM accesses WHERE block_id = $HB: 1
SELECT count(*) FROM accesses WHERE size = 8: 0
SELECT count(*) FROM filtered_accesses: 1
--events fn:main SELECT count(*) FROM accesses WHERE block_id = $HB: 1
--events fn:main SELECT count(*) FROM accesses WHERE size = 8: 0
--events fn:main SELECT count(*) FROM filtered_accesses: 0" "$(cat gdb.all)"
	check_eq "--events user:loop: its intervals counted by one dgvtab_count_in" \
		"--events user:loop SELECT count(*) FROM filtered_accesses: 1" \
		"$(echo "SELECT count(*) FROM filtered_accesses" | gdb_hits dgvtab_count_in r.db --events user:loop)"
else
	skip "gdb is not installed: which path ran is not checked"
fi
finish
