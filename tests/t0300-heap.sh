#!/bin/sh
# t0300-heap: malloc, calloc, realloc, memalign, posix_memalign,
# aligned_alloc, realloc(NULL), free(NULL) and free, from tests/progs/heap.c.
# Whole-program totals include libc's own allocations, so the exact counts
# are the difference between a run doing the calls (heap 1) and one not
# doing them (heap 0): 7 MALLOC_BLOCKs (realloc's new block among them) and
# 7 FREE_BLOCKs (realloc's free of the old block among them).  The blocks allocated from main are listed exactly.
. "$DG_TESTS/lib.sh"
need_tool
need_prog heap
H=$DG_PROGS/heap

run_dg on.log -- "$H" 1 || finish
run_dg off.log -- "$H" 0 || finish
dump --stats on.log on.stats || finish
dump --stats off.log off.stats || finish
dump --blocks on.log on.blocks || finish
dump --blocks off.log off.blocks || finish

check_eq "mallocs: 7 more with the calls" 7 \
	$(( $(stat_of on.stats mallocs) - $(stat_of off.stats mallocs) ))
check_eq "frees: 7 more with the calls" 7 \
	$(( $(stat_of on.stats frees) - $(stat_of off.stats frees) ))
check_eq "without the calls no block is allocated from main" 0 \
	"$(blocks_from off.blocks "$H" main | wc -l | tr -d ' ')"

blocks_from on.blocks "$H" main >main.blocks
check_eq "sizes of the blocks allocated from main" "50 96 100 128 200 300 512" \
	"$(awk '{ print $2 }' main.blocks | sort -n | tr '\n' ' ' | sed 's/ $//')"
check_eq "all of them are freed" 0 "$(awk '$4 == "-"' main.blocks | wc -l | tr -d ' ')"

field() {	# field SIZE COLUMN: that column of main's block of SIZE bytes
	awk -v s="$1" -v c="$2" '$2 == s { print $c; exit }' main.blocks
}
aligned() {	# aligned SIZE ALIGN: "yes" if the block's address is aligned
	field "$1" 1 | dgawk -v al="$2" '{ a = hex($1); print (a % al == 0) ? "yes" : "no " a }'
}
check_eq "memalign(64, 128) block is 64-aligned" yes "$(aligned 128 64)"
check_eq "posix_memalign(256, 512) block is 256-aligned" yes "$(aligned 512 256)"
check_eq "aligned_alloc(32, 96) block is 32-aligned" yes "$(aligned 96 32)"

# realloc(100 -> 300): the old block is freed no later than the new one is
# allocated, and after the calloc.
check_le "realloc frees the old block before allocating the new one" \
	"$(field 300 3)" "$(field 100 4)"
check_lt "calloc happened before the realloc" "$(field 300 3)" "$(field 200 3)"
check_lt "malloc(100) happened before calloc" "$(field 200 3)" "$(field 100 3)"

# Traffic: one 1-byte write per live block, none on the realloc'd-away one
# (the copy is the allocator's, not the program's).
check_eq "100-byte block: no access" "0 0 0 0" "$(field 100 5) $(field 100 6) $(field 100 7) $(field 100 8)"
for s in 50 96 128 200 300 512; do
	check_eq "$s-byte block: one 1-byte write, no read" "0 1 0 1" \
		"$(field $s 5) $(field $s 6) $(field $s 7) $(field $s 8)"
done
finish
