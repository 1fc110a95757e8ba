#!/bin/sh
# t0400-ranges-events: DATAGRIND_TRACK_RANGE / UNTRACK_RANGE on a static
# array and START_EVENT / END_EVENT around a loop (tests/progs/ranges.c).
# The records are there with the right address, length, type and label, and
# the accesses to the array are exactly what the program does, in total and
# between the two event records.
. "$DG_TESTS/lib.sh"
need_tool
need_prog ranges
P=$DG_PROGS/ranges

run_dg r.log -- "$P" || finish
check_eq "program output" 1056 "$(cat dg.out)"
dump --stats r.log stats || finish
dump --records r.log recs || finish
dump --accesses r.log acc || finish

check_eq "stats: track_ranges untrack_ranges start_events end_events" "1 1 1 1" \
	"$(stat_of stats track_ranges) $(stat_of stats untrack_ranges) $(stat_of stats start_events) $(stat_of stats end_events)"

arr=$(sym_addr "$P" arr)
arrhex=$(printf '0x%x' "$arr")
grep '^track_range ' recs >tr
check_eq "TRACK_RANGE addr" "$arrhex" "$(kv addr <tr)"
check_eq "TRACK_RANGE len" 256 "$(kv len <tr)"
check_eq "TRACK_RANGE type" '"int[64]"' "$(kv type <tr)"
check_eq "TRACK_RANGE label" '"arr"' "$(kv label <tr)"
grep '^untrack_range ' recs >ut
check_eq "UNTRACK_RANGE addr and len" "$arrhex 256" "$(kv addr <ut) $(kv len <ut)"
check_eq "START_EVENT label" '"loop"' "$(grep '^start_event ' recs | kv label)"
check_eq "END_EVENT label" '"loop"' "$(grep '^end_event ' recs | kv label)"
check_eq "records in program order: track, start, end, untrack" \
	"track_range start_event end_event untrack_range" \
	"$(awk '$1 ~ /^(track_range|untrack_range|start_event|end_event)$/ { printf "%s%s", s, $1; s = " " }' recs)"

accesses_in acc "$arr" $((arr + 256)) >arracc
check_eq "all accesses to arr: 96 reads, 192 writes" "96 192" \
	"$(count_dir arracc R) $(count_dir arracc W)"
check_eq "all of them 4 bytes" 0 "$(awk '$5 != 4' arracc | wc -l | tr -d ' ')"

win=$(event_window recs loop) || { not_ok "event window 'loop' found in --records"; finish; }
ok "event window 'loop' found in --records ($win)"
awk -v s="${win% *}" -v e="${win#* }" '$2 >= s && $2 < e' arracc >inwin
check_eq "inside the event: 64 reads and 64 writes of arr" "64 64" \
	"$(count_dir inwin R) $(count_dir inwin W)"
dgawk -v a="$arr" '{ n[hex($6) - a]++ } END { for (o in n) if (n[o] != 2) print o, n[o] }' inwin >uneven
check_empty "inside the event each element is read once and written once" uneven
awk -v s="${win% *}" '$2 < s' arracc >before
check_eq "before the event: 128 writes, no read" "0 128" "$(count_dir before R) $(count_dir before W)"
awk -v e="${win#* }" '$2 >= e' arracc >after
check_eq "after the event: 32 reads, no write" "32 0" "$(count_dir after R) $(count_dir after W)"
finish
