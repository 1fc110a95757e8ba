#!/bin/sh
# t0310-cxx: C++ new/delete (array, scalar, nothrow, operator new, aligned
# new) from tests/progs/cxx.cc: 5 allocations and 5 frees more than a run
# without them; the blocks from main have the sizes and traffic the program
# gives them.
. "$DG_TESTS/lib.sh"
need_tool
need_prog cxx
X=$DG_PROGS/cxx

run_dg on.log -- "$X" 1 || finish
run_dg off.log -- "$X" 0 || finish
dump --stats on.log on.stats || finish
dump --stats off.log off.stats || finish
dump --blocks on.log on.blocks || finish

check_eq "mallocs: 5 more with new" 5 \
	$(( $(stat_of on.stats mallocs) - $(stat_of off.stats mallocs) ))
check_eq "frees: 5 more with delete" 5 \
	$(( $(stat_of on.stats frees) - $(stat_of off.stats frees) ))
blocks_from on.blocks "$X" main >main.blocks
check_eq "sizes of the blocks allocated from main" "24 33 64 77 200" \
	"$(awk '{ print $2 }' main.blocks | sort -n | tr '\n' ' ' | sed 's/ $//')"
check_eq "all of them are deleted" 0 "$(awk '$4 == "-"' main.blocks | wc -l | tr -d ' ')"
check_eq "aligned new(64): 64-aligned" yes \
	"$(awk '$2 == 64 { print $1 }' main.blocks | dgawk '{ print (hex($1) % 64 == 0) ? "yes" : "no" }')"
# writes, write_bytes per size: int 4, long 8, three chars
check_eq "per-block writes and write bytes" "24:1:8 33:1:1 64:1:1 77:1:1 200:1:4" \
	"$(awk '{ print $2 ":" $6 ":" $8 }' main.blocks | sort -n | tr '\n' ' ' | sed 's/ $//')"
finish
