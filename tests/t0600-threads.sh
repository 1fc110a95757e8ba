#!/bin/sh
# t0600-threads: tests/progs/threads.c starts 4 threads; thread t mallocs
# (201 + t) * 4 bytes and writes 200 ints into it; all 4 are alive at once
# (a barrier), so Valgrind cannot reuse a thread id.  Checked: 5 threads in
# the log, each block written exactly 200 times with 4 bytes by one thread
# (while it is live), a different non-main thread per block.
. "$DG_TESTS/lib.sh"
need_tool
need_prog threads
P=$DG_PROGS/threads

run_dg t.log -- "$P" || finish
check_eq "program output" "4 threads done" "$(cat dg.out)"
dump --stats t.log stats || finish
dump --blocks t.log blocks || finish
dump --accesses t.log acc || finish
check_eq "log complete" 1 "$(stat_of stats complete)"
check_eq "stats threads = 4 workers + main" 5 "$(stat_of stats threads)"

blocks_from blocks "$P" worker >wblocks
check_eq "the workers' blocks: 804 808 812 816 bytes" "804 808 812 816" \
	"$(awk '{ print $2 }' wblocks | sort -n | tr '\n' ' ' | sed 's/ $//')"
check_eq "each: 0 reads, 200 writes, 800 bytes written" "0:200:800 0:200:800 0:200:800 0:200:800" \
	"$(awk '{ print $5 ":" $6 ":" $8 }' wblocks | tr '\n' ' ' | sed 's/ $//')"
: >owners
while read -r addr size alloc free rest; do
	lo=$(echo "$addr" | dgawk '{ print hex($1) }')
	accesses_in acc "$lo" $((lo + size)) "$alloc" "$free" >b.$size
	check_eq "$size-byte block: 200 accesses, all 4-byte writes" 200 \
		"$(count_dir b.$size W 4)"
	check_eq "$size-byte block: accessed by exactly one thread" 1 \
		"$(awk '{ print $1 }' b.$size | sort -u | wc -l | tr -d ' ')"
	awk '{ print $1; exit }' b.$size >>owners
done <wblocks
check_eq "the 4 blocks belong to 4 different threads" 4 "$(sort -u owners | wc -l | tr -d ' ')"
check_eq "none of them is the main thread (1)" 0 "$(grep -c '^1$' owners)"
check_eq "icounts never decrease across threads" 0 \
	"$(awk 'NR > 1 && $2 < p { n++ } { p = $2 } END { print n + 0 }' acc)"
finish
