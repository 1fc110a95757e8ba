#!/bin/sh
# t1320-import-threads: tests/progs/threads.c (main + 4 workers, all alive at
# once) imported with dg-import.  The threads table has one row per thread
# of the log (5), each row's runs and accesses equal dg-dump's per-thread
# counts (--records 'run' lines, --accesses lines), first/last icounts are
# those of the thread's first and last runs, the rows sum to meta accesses
# and meta runs; chunks are single-thread and add up per thread; each
# worker's block is written 200 times by its own thread (blocks.alloc_thread).
# dg-import --threads 1, 2 and 4 (one to three chunk consumer threads) write
# the same rows in every table as the default; a bad --threads is a usage
# error (exit 2) that names the value.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog threads
P=$DG_PROGS/threads

run_dg t.log -- "$P" || finish
dump --stats t.log stats || finish
dump --records t.log recs || finish
dump --accesses t.log acc || finish
dump --blocks t.log blocks || finish
import_ok t.log t.db || finish
DB=t.db
check_eq "meta complete" 1 "$(meta $DB complete)"
check_eq "threads: 5 rows (dg-dump --stats threads)" "$(stat_of stats threads)" \
	"$(q $DB 'SELECT count(*) FROM threads')"
check_eq "that is 5" 5 "$(stat_of stats threads)"

# per thread: runs (from --records), accesses (from --accesses), first run
# start icount, last run's end icount - 1 or start (both accepted as stated)
awk '
	function val(k,   i) { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	$1 == "run" { t = val("thread"); runs[t]++; if (!(t in first)) first[t] = val("icount"); last[t] = val("icount"); lastn[t] = val("n_instrs") }
	END { for (t in runs) print t, runs[t], first[t], last[t], lastn[t] }' recs | sort -n >runs.per
awk '{ n[$1]++ } END { for (t in n) print t, n[t] }' acc | sort -n >acc.per
join runs.per acc.per | awk '{ print $1, $2, $6 }' >want.per
q $DB 'SELECT id, runs, accesses FROM threads ORDER BY id' | tr '|' ' ' >got.per
check_cmp "threads: id runs accesses = dg-dump's per-thread counts" want.per got.per
check_eq "dg-dump: every thread with runs made accesses (join lost nothing)" \
	"$(wc -l <runs.per | tr -d ' ')" "$(wc -l <want.per | tr -d ' ')"
check_eq "threads: sum of accesses = meta accesses = dg-dump accesses" \
	"$(stat_of stats accesses) $(stat_of stats accesses)" \
	"$(q $DB 'SELECT sum(accesses) FROM threads') $(meta $DB accesses)"
check_eq "threads: sum of runs = meta runs" "$(meta $DB runs)" "$(q $DB 'SELECT sum(runs) FROM threads')"
awk '{ print $1, $3 }' runs.per >first.want
q $DB 'SELECT id, first_icount FROM threads ORDER BY id' | tr '|' ' ' >first.got
check_cmp "threads: first_icount = the thread's first run's icount" first.want first.got
q $DB 'SELECT id, last_icount FROM threads ORDER BY id' | tr '|' ' ' >last.got
awk 'NR == FNR { l[$1] = $2; next } { s = $4; e = $4 + $5; print $1, (l[$1] >= s && l[$1] <= e) ? "in-last-run" : "no: " l[$1] " not in [" s "," e "]" }' \
	last.got runs.per >last.chk
check_eq "threads: last_icount lies in the thread's last run" \
	"$(awk '{ print $1, "in-last-run" }' runs.per)" "$(cat last.chk)"
check_eq "chunks per thread add up to threads.accesses and runs" 0 \
	"$(q $DB 'SELECT count(*) FROM threads t WHERE accesses != (SELECT ifnull(sum(n_accesses), 0) FROM chunks WHERE thread = t.id)
	          OR runs != (SELECT ifnull(sum(n_runs), 0) FROM chunks WHERE thread = t.id)')"

# the workers' blocks: 200 writes each, by the thread that allocated them
blocks_from blocks "$P" worker >wblocks
check_eq "dg-dump: 4 worker blocks" 4 "$(wc -l <wblocks | tr -d ' ')"
: >owners.want
while read -r addr size alloc rest; do
	lo=$(echo "$addr" | dgawk '{ print hex($1) }')
	accesses_in acc "$lo" $((lo + size)) "$alloc" | awk '{ print $1; exit }' >>owners.want
	echo "$lo $size"
done <wblocks >wb
: >owners.got
while read -r lo size; do
	q $DB "SELECT alloc_thread FROM blocks WHERE addr = $lo AND size = $size" >>owners.got
	check_eq "$size-byte block: 200 writes, 800 bytes, no reads" "0|200|0|800" \
		"$(q $DB "SELECT reads, writes, read_bytes, write_bytes FROM blocks WHERE addr = $lo AND size = $size")"
done <wb
check_cmp "blocks.alloc_thread = the thread that writes the block" owners.want owners.got
check_eq "4 different worker threads, none the main thread" "4 0" \
	"$(sort -u owners.got | wc -l | tr -d ' ') $(grep -c '^1$' owners.got)"

# every table's rows (blobs as hex, the import's date left out), sorted
# (one sqlite3 writes a SELECT per table, a second runs them all)
rows_of() {
	q "$1" "SELECT 'SELECT ''' || m.name || '|'' || ' ||
	          (SELECT group_concat('quote(\"' || p.name || '\")', ' || ''|'' || ')
	           FROM pragma_table_info(m.name) p) || ' FROM \"' || m.name || '\";'
	        FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
	        ORDER BY m.name" >"$1.rows.sql"
	q "$1" <"$1.rows.sql" | grep -v "^meta|'import_time'" | sort
}
rows_of $DB >rows.default
check_eq "the default import has rows in chunks, sum_lines and blocks" "yes yes yes" \
	"$(for t in chunks sum_lines blocks; do grep -q "^$t|" rows.default && echo yes; done | tr '\n' ' ' | sed 's/ $//')"
for n in 1 2 4; do
	rm -f t$n.db
	if "$DG_IMPORT" -q --threads $n t.log t$n.db 2>import$n.err; then
		rows_of t$n.db >rows.$n
		check_cmp "--threads $n: every table's rows as the default import's" rows.default rows.$n
	else
		not_ok "dg-import --threads $n exits 0"
		diag_file import$n.err 5
	fi
done
for bad in 0 -1 x 2x 1025; do
	"$DG_IMPORT" -q --threads "$bad" t.log bad.db 2>bad.err
	check_eq "--threads '$bad': exit 2, no database" "2 no" "$? $([ -e bad.db ] && echo yes || echo no)"
	check_eq "--threads '$bad': the message names the value" 1 \
		"$(grep -c "^dg-import: --threads: '$bad' is not a number of threads" bad.err)"
done
finish
