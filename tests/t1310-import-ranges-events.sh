#!/bin/sh
# t1310-import-ranges-events: tests/progs/ranges.c (a tracked static array,
# an event around a loop) imported with dg-import.  The ranges and events
# rows have the records' address, length, type, label and icounts, and the
# accesses counted in them equal those computed from dg-dump --accesses: a
# range counts the accesses starting inside it while tracked, an event every
# access (any address, any thread) between its START and END records.  The
# program's own figures hold too: 96 reads + 128 writes of arr while tracked
# (64 W, then 64 R + 64 W inside the event, then 32 R).
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog ranges
P=$DG_PROGS/ranges

run_dg r.log -- "$P" || finish
dump --records r.log recs || finish
dump --accesses r.log acc || finish
import_ok r.log r.db || finish
DB=r.db
check_eq "meta complete" 1 "$(meta $DB complete)"

arr=$(sym_addr "$P" arr)
check_eq "one range, one event" "1 1" \
	"$(q $DB 'SELECT count(*) FROM ranges') $(q $DB 'SELECT count(*) FROM events')"
check_eq "ranges: addr len type_name label thread" "$arr|256|int[64]|arr|1" \
	"$(q $DB 'SELECT addr, len, type_name, label, thread FROM ranges')"
check_eq "events: label thread" "loop|1" "$(q $DB 'SELECT label, thread FROM events')"

# icounts of the records: as event_window counts them (instructions before
# each record).
rec_icount() {
	awk -v t="$1" '
		function val(k,   i) { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
		$1 == "run" { cur = val("icount") + val("n_instrs"); next }
		$1 == "icount" { cur = val("icount"); next }
		$1 == t { print cur + 0; exit }' recs
}
rs=$(rec_icount track_range)
re=$(rec_icount untrack_range)
win=$(event_window recs loop) || { not_ok "event window 'loop' found in --records"; finish; }
check_eq "ranges: start_icount end_icount = TRACK/UNTRACK_RANGE's" "$rs|$re" \
	"$(q $DB 'SELECT start_icount, end_icount FROM ranges')"
check_eq "events: start_icount end_icount = START/END_EVENT's" "${win% *}|${win#* }" \
	"$(q $DB 'SELECT start_icount, end_icount FROM events')"

# counts from --accesses
counts() {
	awk '{ if ($4 == "R") { r++; rb += $5 } else { w++; wb += $5 } }
		END { printf "%d|%d|%d|%d\n", r, w, rb, wb }'
}
accesses_in acc "$arr" $((arr + 256)) "$rs" "$re" | dgawk -v a="$arr" 'hex($6) >= a' | counts >range.want
check_eq "ranges: reads writes read_bytes write_bytes = dg-dump --accesses in the range while tracked" \
	"$(cat range.want)" "$(q $DB 'SELECT reads, writes, read_bytes, write_bytes FROM ranges')"
check_eq "ranges: that is the program's 96 R + 128 W of 4 bytes" "96|128|384|512" "$(cat range.want)"
awk -v s="${win% *}" -v e="${win#* }" '$2 >= s && $2 < e' acc | counts >event.want
check_eq "events: reads writes read_bytes write_bytes = dg-dump --accesses in the window" \
	"$(cat event.want)" "$(q $DB 'SELECT reads, writes, read_bytes, write_bytes FROM events')"
accesses_in acc "$arr" $((arr + 256)) "${win% *}" "${win#* }" | counts >evarr
check_eq "inside the event arr gets 64 R + 64 W (so the window is the right one)" "64|64|256|256" "$(cat evarr)"
check_eq "sum_pages/sum_lines totals = meta accesses" "$(meta $DB accesses) $(meta $DB accesses)" \
	"$(q $DB 'SELECT sum(reads) + sum(writes) FROM sum_pages') $(q $DB 'SELECT sum(reads) + sum(writes) FROM sum_lines')"
finish
