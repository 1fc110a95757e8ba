#!/bin/sh
# t1340-import-handmade: logs built record by record with lib/dgwrite
# (tests/unit/mklogs; contents in tests/unit/logs.c) imported with dg-import:
# the 2010 format (version 1) and version 2, each little- and big-endian
# with 4- and 8-byte words.  The database holds what was constructed:
#   one bbdef at 0x401000 (3 instructions, 4 accesses: R8, W4, R1 guarded in
#   v2, W255 clamped), one context, a 64-byte block at 0x10000 (alloc stack
#   0x400100,0x400200) accessed by R8+W4 at 0x10000/0x10008 and
#   0x10010/0x10018 before its free: 2 reads (16 bytes), 2 writes (8 bytes);
#   3 runs; 10 accesses in v1 (no guards: address 0 is an access) and 9 in
#   v2 (the guarded one did not happen), per pc as constructed; a range
#   0x20000+16 "int" "arr", an event "phase 1", two unknown records; v2:
#   threads 1 (2 runs, 5 accesses) and 2 (1 run, 4), v1: thread 0 (3, 10).
# Every variant of a version gives the same database (byte order and word
# size aside).  heap-v2.log: a 40-byte block read at every 4th offset once
# (10 reads), guarded writes outside it, a read by thread 2 after the free.
# A version-1 log cut inside a record imports with exit 3.
#
# Version 1 side records: the 2010 tool wrote a run when the next block
# started but a malloc/free at once (bmerry/datagrind dg_main.c,
# trace_bb_flush), so a side record stands before the run that happened
# before it, and dg-import applies it after the next run.  In full-v1-*
# the malloc (before run 0) thus happens at icount 3 and the free (before
# run 2) at icount 8: the block gets run 1's R8+W4 and run 2's R8, W4, R1
# at 0x10020..0x10030: 3 reads (17 bytes), 2 writes (8 bytes).
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_import
MK=$DG_BUILD/tests/unit/mklogs
[ -x "$MK" ] || bail "$MK is built (make unit-tests)"
mkdir -p logs && "$MK" logs || bail "mklogs writes its logs"

# content DB: everything but what legitimately differs between variants
content() {
	sqlite3 -batch "$1" \
		"SELECT key, value FROM meta WHERE key NOT IN ('import_time', 'source', 'source_bytes', 'endian', 'word_size') ORDER BY key" \
		'SELECT * FROM bbdefs' 'SELECT * FROM instrs' 'SELECT * FROM access_descs' \
		'SELECT * FROM contexts' 'SELECT * FROM stacks' 'SELECT * FROM stack_frames' \
		'SELECT id, addr, size, alloc_icount, free_icount, alloc_thread, free_thread, reads, writes,
		        read_bytes, write_bytes, first_icount, last_icount, hist_bucket, hex(hist) FROM blocks' \
		'SELECT * FROM ranges' 'SELECT * FROM events' 'SELECT * FROM threads' 'SELECT * FROM trace_states' \
		'SELECT * FROM modules' 'SELECT * FROM mappings' \
		'SELECT id, thread, icount_lo, icount_hi, addr_lo, addr_hi, n_runs, n_accesses, hex(data) FROM chunks' \
		'SELECT * FROM sum_pc' 'SELECT * FROM sum_fn_block ORDER BY function_id, block_id, is_write' \
		'SELECT * FROM sum_pages' 'SELECT * FROM sum_lines'
}

for v in 1 2; do
	if [ $v = 1 ]; then
		acc=10 rw="5|5" thr="0|3|10" exit_kind=0 blk="65536|64|3|2|17|8|1"
		pcs="4198400 0 3 24|4198403 0 2 2|4198403 1 3 12|4198407 1 2 510"
	else
		acc=9 rw="4|5" thr="1|2|5 2|1|4" exit_kind=1 blk="65536|64|2|2|16|8|1"
		pcs="4198400 0 3 24|4198403 0 1 1|4198403 1 3 12|4198407 1 2 510"
	fi
	for e in le be; do
		for ws in 4 8; do
			n=full-v$v-$e-$ws
			L=logs/$n.log
			DB=$n.db
			import_ok "$L" "$DB" || continue
			endian=$([ $e = le ] && echo little || echo big)
			check_eq "$n: meta format_version endian word_size" "$v $endian $ws" \
				"$(meta $DB format_version) $(meta $DB endian) $(meta $DB word_size)"
			check_eq "$n: meta accesses runs unknown_records" "$acc 3 2" \
				"$(meta $DB accesses) $(meta $DB runs) $(meta $DB unknown_records)"
			"$DG_DUMP" --stats "$L" >$n.stats 2>/dev/null
			check_eq "$n: meta accesses = dg-dump's" "$(stat_of $n.stats accesses)" "$(meta $DB accesses)"
			check_eq "$n: meta complete" 1 "$(meta $DB complete)"
			check_eq "$n: bbdefs: addr n_instrs n_accesses exit_kind" "4198400|3|4|$exit_kind" \
				"$(q $DB 'SELECT addr, n_instrs, n_accesses, exit_kind FROM bbdefs')"
			check_eq "$n: access_descs: is_write size per aseq" "0:8 1:4 0:1 1:255" \
				"$(q $DB "SELECT group_concat(is_write || ':' || size, ' ') FROM (SELECT * FROM access_descs ORDER BY aseq)")"
			check_eq "$n: instrs: addr/size" "4198400/3 4198403/4 4198407/2" \
				"$(q $DB "SELECT group_concat(addr || '/' || size, ' ') FROM (SELECT * FROM instrs ORDER BY iseq)")"
			check_eq "$n: the context's stack 0x401000,0x400500" "4198400,4195584" \
				"$(q $DB "SELECT group_concat(pc, ',') FROM (SELECT sf.pc FROM contexts c JOIN stack_frames sf ON sf.stack_id = c.stack_id ORDER BY sf.depth)")"
			check_eq "$n: the block: addr size reads writes read_bytes write_bytes, freed" "$blk" \
				"$(q $DB 'SELECT addr, size, reads, writes, read_bytes, write_bytes, free_icount IS NOT NULL FROM blocks')"
			check_eq "$n: the block's alloc stack 0x400100,0x400200" "4194560,4194816" \
				"$(q $DB "SELECT group_concat(pc, ',') FROM (SELECT sf.pc FROM blocks b JOIN stack_frames sf ON sf.stack_id = b.alloc_stack_id ORDER BY sf.depth)")"
			check_eq "$n: the range" "131072|16|int|arr|0|0" \
				"$(q $DB 'SELECT addr, len, type_name, label, reads, writes FROM ranges')"
			check_eq "$n: the event" "phase 1|0|0" "$(q $DB 'SELECT label, reads, writes FROM events')"
			check_eq "$n: sum_pc: pc is_write accesses bytes" "$pcs" \
				"$(q $DB 'SELECT pc, is_write, accesses, bytes FROM sum_pc ORDER BY pc, is_write' | tr '|' ' ' | paste -sd '|' -)"
			check_eq "$n: sum_lines reads|writes" "$rw" "$(q $DB 'SELECT sum(reads), sum(writes) FROM sum_lines')"
			check_eq "$n: sum_pages reads|writes" "$rw" "$(q $DB 'SELECT sum(reads), sum(writes) FROM sum_pages')"
			check_eq "$n: threads: id runs accesses" "$thr" \
				"$(q $DB 'SELECT id, runs, accesses FROM threads ORDER BY id' | paste -sd ' ' -)"
			check_eq "$n: chunks hold every access" "$acc" "$(q $DB 'SELECT sum(n_accesses) FROM chunks')"
			content $DB >$n.content
		done
	done
	for n in full-v$v-be-4 full-v$v-le-8 full-v$v-be-8; do
		check_cmp "v$v: $n gives the same database as full-v$v-le-4" full-v$v-le-4.content $n.content
	done
done
check_eq "v2: module /bin/true, build-id deadbeef, bias 0x1000" "/bin/true|deadbeef|4096" \
	"$(q full-v2-le-8.db 'SELECT path, build_id, bias FROM modules')"
check_eq "v2: meta pid ppid exe argv" '42 1 /bin/true ["true","--x"]' \
	"$(meta full-v2-le-8.db pid) $(meta full-v2-le-8.db ppid) $(meta full-v2-le-8.db exe) $(meta full-v2-le-8.db argv)"
check_eq "v2: meta icount = FINI's" 1003 "$(meta full-v2-le-8.db icount)"
check_eq "v2: trace_states: icount is_on reason" "1000|0|1" "$(q full-v2-le-8.db 'SELECT icount, is_on, reason FROM trace_states')"

# heap-v2.log
import_ok logs/heap-v2.log heap.db || finish
check_eq "heap: meta accesses runs complete" "16 11 1" \
	"$(meta heap.db accesses) $(meta heap.db runs) $(meta heap.db complete)"
check_eq "heap: the 40-byte block: 10 reads of 40 bytes, no writes" "20480|40|10|0|40|0" \
	"$(q heap.db 'SELECT addr, size, reads, writes, read_bytes, write_bytes FROM blocks')"
check_eq "heap: hist_bucket 1; hist = 0x80 0x00, then (1 read, 0 writes) at offsets 0, 4, ..., 36: 3 skipped before each but the first" \
	"1|8000000100$(for k in 1 2 3 4 5 6 7 8 9; do printf '030100'; done)" \
	"$(q heap.db 'SELECT hist_bucket, hex(hist) FROM blocks')"
check_eq "heap: threads 1 (10 runs, 15 accesses), 2 (1, 1)" "1|10|15 2|1|1" \
	"$(q heap.db 'SELECT id, runs, accesses FROM threads ORDER BY id' | paste -sd ' ' -)"
check_eq "heap: outside any block: 5 writes of 8 bytes, thread 2's read after the free" "0|1|4 1|5|40" \
	"$(q heap.db 'SELECT is_write, sum(accesses), sum(bytes) FROM sum_fn_block WHERE block_id IS NULL GROUP BY is_write' | paste -sd ' ' -)"

# nofini and cut version-1 logs
"$DG_IMPORT" -q logs/nofini-v2.log nofini.db 2>/dev/null
check_eq "nofini-v2: exit 3, complete 0, 9 accesses" "3 0 9" "$? $(meta nofini.db complete) $(meta nofini.db accesses)"
L=logs/full-v1-le-8.log
for cut in 100 200 $(($(wc -c <$L) - 1)); do
	head -c $cut $L >cut.log
	rm -f cut.db
	"$DG_IMPORT" -q cut.log cut.db 2>/dev/null
	check_eq "v1 cut at byte $cut: exit 3, complete 0" "3 0" "$? $(meta cut.db complete)"
done
finish
