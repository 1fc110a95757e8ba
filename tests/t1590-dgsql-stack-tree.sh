#!/bin/sh
# t1590-dgsql-stack-tree: stacks as a call tree (schema 10) on real
# traces (jumps.c's longjmp and coroutines, threads.c's four workers).
# The tree is as schema.sql promises: a node per distinct (parent, pc,
# module), each after its parent and one deeper, roots at depth 0; a
# stack is its leaf, stacks.depth deep, and no two stacks share one.
# The stack_frames view walks it back to every stack's frames, innermost
# first, and dg_frames gives each stack's own.  The same database made
# into schema 9 (stack_frames a table of rows, no callsites, and
# chunk_contexts a row a (context, chunk) for context_chunks) gives the
# same answers to dgsql: stack filters, every canned query, the report
# and its folded stacks, compare; a compare of the two finds nothing.  A
# damaged tree (a node its own parent, a parent below its child) ends
# the walks instead of looping, the report still folds its stacks, and
# the stack filters pick the stacks the view reaches; on a tree numbered
# children first they select what they select on dg-import's order.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_cmd sqlite3
need_cmd python3
trace_db j.db jumps coro || finish
trace_db t.db threads || finish

q() { sqlite3 -batch "$@"; }

for db in j.db t.db; do
	check_eq "$db: schema version 14" 14 "$(q $db 'PRAGMA user_version')"
	check_eq "$db: every node after its parent, one deeper; roots at depth 0" 0 \
		"$(q $db 'SELECT count(*) FROM callsites c LEFT JOIN callsites p ON p.id = c.parent_id
		          WHERE CASE WHEN c.parent_id IS NULL THEN c.depth != 0
		                ELSE p.id IS NULL OR p.id >= c.id OR c.depth != p.depth + 1 END')"
	check_eq "$db: a node per (parent, pc, module)" \
		"$(q $db 'SELECT count(*) FROM callsites')" \
		"$(q $db 'SELECT count(*) FROM (SELECT DISTINCT parent_id, pc, module_id FROM callsites)')"
	check_eq "$db: a stack is its leaf, as deep as stacks.depth" 0 \
		"$(q $db 'SELECT count(*) FROM stacks s LEFT JOIN callsites c ON c.id = s.callsite_id
		          WHERE CASE WHEN s.callsite_id IS NULL THEN s.depth != 0
		                ELSE c.id IS NULL OR s.depth != c.depth + 1 END')"
	check_eq "$db: no two stacks share a leaf" \
		"$(q $db 'SELECT count(*) FROM stacks WHERE callsite_id IS NOT NULL')" \
		"$(q $db 'SELECT count(DISTINCT callsite_id) FROM stacks')"
	check_eq "$db: stack_frames has stacks.depth rows a stack, frame 0 innermost" 0 \
		"$(q $db 'SELECT count(*) FROM stacks s WHERE depth != (SELECT count(*) FROM stack_frames
		          WHERE stack_id = s.id) OR (depth > 0 AND (SELECT pc FROM stack_frames
		          WHERE stack_id = s.id AND depth = 0) != (SELECT pc FROM callsites
		          WHERE id = s.callsite_id))')"
	check_eq "$db: dg_frames gives each stack's rows of stack_frames" \
		"$(q $db 'SELECT count(*), total(depth), total(pc), total(module_id) FROM stack_frames')" \
		"$(dq $db 'SELECT count(*), total(f.depth), total(f.pc), total(f.module_id)
		           FROM stacks s, dg_frames(s.id) f')"
	check_eq "$db: ... the same rows" "" \
		"$(dq $db 'SELECT s.id, f.depth, f.pc, f.module_id FROM stacks s, dg_frames(s.id) f
		           EXCEPT SELECT * FROM stack_frames' | head -3)"
done
# (libc's start-up code after main: named, or by its address without libc6-dbg)
check_eq "jumps: the coroutines' 40-byte blocks allocated from coroutines < main" \
	"coroutines < main" \
	"$(dq j.db "SELECT group_concat(f.name, ' < ') FROM (SELECT fn.name FROM blocks b,
	            dg_frames(b.alloc_stack_id) fr JOIN pcs p USING (pc, module_id)
	            JOIN functions fn ON fn.id = p.function_id
	            WHERE b.id = (SELECT min(id) FROM blocks WHERE size = 40)
	            ORDER BY fr.depth) f" | sed 's/ < \(0x[0-9a-f]*\|__libc_start\).*//')"

# ------------------------------------------------ the same in schema 9
# stack_frames a table again, stacks without callsite_id, no callsites,
# and a row a (context, chunk) in chunk_contexts instead of context_chunks
old9() {
	cp "$1" "$2"
	dq "$2" "SELECT c.context_id, j.value FROM context_chunks c,
	           json_each(dg_chunks(c.chunk_lo, c.chunk_hi, c.data)) j" >"$2.cc"
	q "$2" "CREATE TABLE chunk_contexts (context_id INTEGER NOT NULL,
	          chunk_id INTEGER NOT NULL, PRIMARY KEY (context_id, chunk_id)) WITHOUT ROWID" \
	       ".import $2.cc chunk_contexts"
	q "$2" "DROP TABLE context_chunks;
	        CREATE TABLE sf9 (stack_id INTEGER NOT NULL, depth INTEGER NOT NULL,
	          pc INTEGER NOT NULL, module_id INTEGER NOT NULL,
	          PRIMARY KEY (stack_id, depth)) WITHOUT ROWID;
	        INSERT INTO sf9 SELECT * FROM stack_frames;
	        CREATE TABLE st9 (id INTEGER PRIMARY KEY, depth INTEGER NOT NULL);
	        INSERT INTO st9 SELECT id, depth FROM stacks;
	        DROP VIEW stack_frames; DROP TABLE stacks; DROP TABLE callsites;
	        ALTER TABLE sf9 RENAME TO stack_frames; ALTER TABLE st9 RENAME TO stacks;
	        CREATE INDEX stack_frames_pc ON stack_frames(pc, module_id);
	        PRAGMA user_version = 9; VACUUM"
}
old9 j.db j9.db
old9 t.db t9.db
check_eq "schema 9 copy: no callsites, stack_frames a table, chunk_contexts rows" "0 table 1" \
	"$(q j9.db "SELECT count(*) FROM sqlite_schema WHERE name = 'callsites'") $(q j9.db "SELECT type FROM sqlite_schema WHERE name = 'stack_frames'") $(q j9.db "SELECT count(*) > 0 FROM chunk_contexts")"

# same_answer NAME DGSQL-ARGS...: the output on schema 10 and 9 alike
same_answer() {
	_n=$1
	shift
	for _b in j t; do
		"$DGSQL" $_b.db "$@" >"$_n.$_b.10" 2>"$_n.$_b.10.err"
		_s10=$?
		"$DGSQL" ${_b}9.db "$@" >"$_n.$_b.9" 2>"$_n.$_b.9.err"
		check_eq "$_n ($_b): exit status, schema 10 and 9" "$_s10" "$?"
		check_cmp "$_n ($_b): schema 10 answers as schema 9" "$_n.$_b.9" "$_n.$_b.10"
	done
}
for f in "$DG_TOP"/queries/*.sql; do
	n=$(basename "$f" .sql)
	arg=""
	[ "$n" = block_hist ] && arg=1
	same_answer "q-$n" ".q $n $arg"
done
for fl in "--events fn:main" "--events fn:co_work" "--events fn:worker" \
	"--events fn:start_thread" "--events dso:libc.so.6" "--ranges fn:main" \
	"--ranges fn:after_jump" "--ranges fn:co_a" "--ranges fn:worker"; do
	same_answer "filter$(echo "$fl" | tr -c 'a-z_\n' '_')" $fl \
		"SELECT count(*), total(addr), total(icount) FROM filtered_accesses"
done

# report_of DB DIR [FILTER...]: its report.json (less the import time)
# in DIR.json, its folded stacks in DIR.folded.  Not the charts: they draw
# these tables and filtered_accesses (compared above), and t1570 and t1575
# check them.
report_of() {
	_db=$1
	_d=$2
	shift 2
	rm -rf "$_d"
	"$DGSQL" "$_db" "$@" --report "$_d" --folded "$_d.folded" --top 20 --no-charts \
		2>"$_d.err" || diag_file "$_d.err"
	sed 's/"imported by", "[^"]*"//' "$_d/report.json" >"$_d.json"
}
for b in j t; do
	ev=worker rg=worker
	[ $b = j ] && ev=co_work rg=coroutines
	for fl in "" "--events fn:main" "--ranges fn:main" "--events fn:$ev" \
		"--ranges fn:$rg"; do
		n=$(echo "$b$fl" | tr -c 'a-z_\n' '_')
		report_of $b.db "r10$n" $fl
		report_of ${b}9.db "r9$n" $fl
		check_cmp "report $b $fl: report.json of schema 10 and 9" "r9$n.json" "r10$n.json"
		check_cmp "report $b $fl: the folded stacks of schema 10 and 9" \
			"r9$n.folded" "r10$n.folded"
	done
	check_ge "$b: folded stacks" 3 "$(wc -l <r10$b.folded)"
	"$DGSQL" $b.db --compare ${b}9.db --format json --top 0 >cmp.$b.json 2>cmp.err
	check_eq "$b: compare with its schema 9 copy exits 0" 0 "$?" || diag_file cmp.err
	check_eq "$b: ... every site matched, nothing changed" "0 0" \
		"$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
s = d["matched"]["site"]
print(s["base_only"] + s["head_only"], sum(1 for r in d["rows"]
      for v in r["change"].values() if v))' cmp.$b.json 2>&1)"
done

# ------------------------------------------------ a damaged tree
cp j.db bad.db
q bad.db "UPDATE callsites SET parent_id = id WHERE id = (SELECT max(id) FROM callsites);
          UPDATE callsites SET parent_id = (SELECT max(id) FROM callsites), depth = 0
          WHERE id = (SELECT min(id) FROM callsites WHERE parent_id IS NOT NULL)"
check_eq "damaged tree: stack_frames ends (a row per frame it can reach)" 1 \
	"$(q bad.db 'SELECT count(*) > 0 FROM stack_frames')"
check_eq "damaged tree: dg_frames ends too, with the view's rows" "" \
	"$(dq bad.db 'SELECT s.id, f.depth, f.pc, f.module_id FROM stacks s, dg_frames(s.id) f
	              EXCEPT SELECT * FROM stack_frames' | head -3)"
check_run "damaged tree: dgsql --report folds what it reaches" \
	"$DGSQL" bad.db --report bad-rep --folded bad.folded
check_run "damaged tree: --events fn:main ends" \
	"$DGSQL" bad.db --events fn:main "SELECT count(*) FROM filtered_accesses"
# The stack filters read the tree in C, in id order: on the damaged tree
# they pick the stacks the view reaches a frame of from (frame 1 up for
# --events, frame 0 up for --ranges' allocation stacks)
for fl in "--events fn:main dgf_ev 1" "--events dso:libc.so.6 dgf_ev 1" \
	"--ranges fn:main dgf_rg 0" "--ranges fn:coroutines dgf_rg 0"; do
	set -- $fl
	check_eq "damaged tree: $1 $2 picks the stacks the view reaches" \
		"$(dq bad.db $1 $2 "SELECT DISTINCT stack_id FROM stack_frames WHERE depth >= $4
		   AND (pc, module_id) IN (SELECT pc, module_id FROM temp.${3}_pcs) ORDER BY 1")" \
		"$(dq bad.db $1 $2 "SELECT id FROM temp.${3}_stk ORDER BY 1")"
done
# ... and on a tree numbered from its leaves (children before parents)
# the same accesses as in the order dg-import writes
cp j.db rev.db
q rev.db "UPDATE callsites SET id = -id, parent_id = -parent_id;
          UPDATE callsites SET id = (SELECT max(id) FROM stacks) + 1000 + id,
                 parent_id = (SELECT max(id) FROM stacks) + 1000 + parent_id;
          UPDATE stacks SET callsite_id = (SELECT max(id) FROM stacks) + 1000 - callsite_id"
check_eq "reversed tree: children numbered before their parents" 1 \
	"$(q rev.db 'SELECT count(*) > 0 FROM callsites c JOIN callsites p ON p.id = c.parent_id
	             WHERE c.id < p.id')"
for fl in "--events fn:main" "--events fn:coroutines" "--ranges fn:main" \
	"--ranges fn:coroutines"; do
	check_eq "reversed tree: $fl selects the same accesses" \
		"$(dq j.db $fl 'SELECT count(*), total(addr) FROM filtered_accesses')" \
		"$(dq rev.db $fl 'SELECT count(*), total(addr) FROM filtered_accesses')"
done
finish
