#!/bin/sh
# t0100-log-sanity: a log of a small program is valid, complete, and dg-dump's
# modes agree with each other: --stats totals equal what --accesses and
# --blocks list; icounts never go backwards; a damaged log is rejected.
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
W=$DG_PROGS/writes

run_dg w.log -- "$W" || finish
check_status "dg-dump --check accepts the log" 0 "$DG_DUMP" --check w.log
dump --stats w.log stats || finish
dump --accesses w.log acc || finish
dump --blocks w.log blocks || finish

check_eq "format version 2" 2 "$(stat_of stats version)"
check_eq "word size 8" 8 "$(stat_of stats word_size)"
case $(stat_of stats endian) in
0|little) ok "little-endian" ;;
*) not_ok "little-endian"; diag "endian: $(stat_of stats endian)" ;;
esac
check_eq "log is complete (FINI present)" 1 "$(stat_of stats complete)"
check_eq "no unknown records" 0 "$(stat_of stats unknown_records)"
check_eq "one thread" 1 "$(stat_of stats threads)"

n_acc=$(wc -l <acc | tr -d ' ')
check_gt "there are accesses" 1000 "$n_acc"
check_eq "stats accesses = lines of --accesses" "$n_acc" "$(stat_of stats accesses)"
check_eq "stats reads = R lines" "$(count_dir acc R)" "$(stat_of stats reads)"
check_eq "stats writes = W lines" "$(count_dir acc W)" "$(stat_of stats writes)"
check_eq "every access is R or W" 0 "$(awk '$4 != "R" && $4 != "W"' acc | wc -l | tr -d ' ')"
check_eq "stats read_bytes = sum of R sizes" \
	"$(awk '$4 == "R" { n += $5 } END { print n + 0 }' acc)" "$(stat_of stats read_bytes)"
check_eq "stats write_bytes = sum of W sizes" \
	"$(awk '$4 == "W" { n += $5 } END { print n + 0 }' acc)" "$(stat_of stats write_bytes)"
awk '$5 < 1 || $5 > 64' acc >badsize
check_empty "access sizes are 1..64 bytes" badsize
awk 'NR > 1 && $2 < prev { print NR ": " prev " then " $2 } { prev = $2 }' acc >backwards
check_empty "access icounts never decrease" backwards
check_gt "stats icount exceeds the last access icount" \
	"$(tail -n 1 acc | awk '{ print $2 }')" "$(stat_of stats icount)"

check_eq "stats mallocs = lines of --blocks" "$(wc -l <blocks | tr -d ' ')" "$(stat_of stats mallocs)"
check_eq "stats frees = freed blocks of --blocks" \
	"$(awk '$4 != "-"' blocks | wc -l | tr -d ' ')" "$(stat_of stats frees)"
check_ge "at least the program's own malloc" 1 "$(stat_of stats mallocs)"
awk '$4 != "-" && $4 + 0 < $3 + 0' blocks >freedbefore
check_empty "no block is freed before it is allocated" freedbefore
check_eq "no ranges or events in this program" "0 0 0 0" \
	"$(stat_of stats track_ranges) $(stat_of stats untrack_ranges) $(stat_of stats start_events) $(stat_of stats end_events)"
check_ge "start-up mappings recorded (exe, ld.so, libc...)" 3 "$(stat_of stats mmaps)"

# Damaged logs.
size=$(wc -c <w.log | tr -d ' ')
head -c $((size - 3)) w.log >cut.log
check_status "--check rejects a log cut inside its last record" 1 "$DG_DUMP" --check cut.log
: >empty.log
check_status "--check rejects an empty file" 1 "$DG_DUMP" --check empty.log
{ head -c 4 w.log; printf 'X'; tail -c +6 w.log; } >badsig.log
check_status "--check rejects a damaged signature" 1 "$DG_DUMP" --check badsig.log
{ head -c 13 w.log; printf '\011'; tail -c +15 w.log; } >badver.log
check_status "--check rejects version 9" 1 "$DG_DUMP" --check badver.log
finish
