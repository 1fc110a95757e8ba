#!/bin/sh
# t0200-writes: exact heap traffic of tests/progs/writes.c.
# main mallocs 400 bytes; fill() writes the 100 ints once each; sum() reads
# them once each; main frees the block.  Checked: the block and its counts in
# --blocks, every access to it in --accesses (size, direction, which
# function's code made it, each offset exactly once), the order of
# allocation, writes, reads and free, and the allocation stack.
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
W=$DG_PROGS/writes

run_dg w.log -- "$W" || finish
check_eq "program output" "sum 4950" "$(cat dg.out)"
dump --blocks w.log blocks || finish
dump --accesses w.log acc || finish

blocks_from blocks "$W" main 400 >blk
check_eq "exactly one 400-byte block allocated from main" 1 "$(wc -l <blk | tr -d ' ')" ||
	{ diag "blocks of 400 bytes:"; awk '$2 == 400' blocks | head -5 | sed 's/^/#   /'; finish; }
read -r addr size alloc free nr nw rbytes wbytes stack <blk
check_eq "--blocks: reads writes read_bytes write_bytes" "100 100 400 400" "$nr $nw $rbytes $wbytes"
check_eq "--blocks: block freed" yes "$([ "$free" != - ] && echo yes || echo no)"

lo=$(echo "$addr" | dgawk '{ print hex($1) }')
accesses_in acc "$lo" $((lo + 400)) "$alloc" "$free" >blkacc
awk '$4 == "W"' blkacc >wr
awk '$4 == "R"' blkacc >rd
check_eq "--accesses: 100 writes to the block" 100 "$(wc -l <wr | tr -d ' ')"
check_eq "--accesses: 100 reads of the block" 100 "$(wc -l <rd | tr -d ' ')"
check_eq "--accesses: nothing but those 200" 200 "$(wc -l <blkacc | tr -d ' ')"
check_eq "every access to the block is 4 bytes" 0 "$(awk '$5 != 4' blkacc | wc -l | tr -d ' ')"
dgawk -v lo="$lo" '{ a = hex($6); if (a < lo || a + $5 > lo + 400) print }' blkacc >straddle
check_empty "no access straddles the block's ends" straddle

# Every offset 0, 4, ..., 396 written once and read once.
seq 0 4 396 | awk '{ print $1, 1 }' >expected.offsets
dgawk -v lo="$lo" '{ n[hex($6) - lo]++ } END { for (o in n) print o, n[o] }' wr | sort -n >w.offsets
dgawk -v lo="$lo" '{ n[hex($6) - lo]++ } END { for (o in n) print o, n[o] }' rd | sort -n >r.offsets
check_cmp "each offset 0..396 written exactly once" expected.offsets w.offsets
check_cmp "each offset 0..396 read exactly once" expected.offsets r.offsets

# Which code made them.
fill=$(sym_range "$W" fill)
sum=$(sym_range "$W" sum)
pcs_outside wr ${fill% *} ${fill#* } >w.notfill
check_empty "all writes to the block come from fill()" w.notfill
pcs_outside rd ${sum% *} ${sum#* } >r.notsum
check_empty "all reads of the block come from sum()" r.notsum

# Order: alloc < writes < reads < free.
wfirst=$(head -n 1 wr | awk '{ print $2 }')
wlast=$(tail -n 1 wr | awk '{ print $2 }')
rfirst=$(head -n 1 rd | awk '{ print $2 }')
rlast=$(tail -n 1 rd | awk '{ print $2 }')
check_lt "allocation icount < first write icount" "$wfirst" "$alloc"
check_lt "last write icount < first read icount" "$rfirst" "$wlast"
check_lt "last read icount < free icount" "$free" "$rlast"
check_eq "write icounts strictly increase" 0 \
	"$(awk 'NR > 1 && $2 <= p { n++ } { p = $2 } END { print n + 0 }' wr)"
check_eq "write addresses strictly increase (fill walks up)" 0 \
	"$(dgawk 'NR > 1 && hex($6) <= p { n++ } { p = hex($6) } END { print n + 0 }' wr)"

# The allocation stack: frame 0 is the call of malloc in main, frame 1 is in
# libc (the call of main).
main=$(sym_range "$W" main)
f0=$(echo "$stack" | dgawk -F, '{ print hex($1) }')
check_ge "stack frame 0 is in main (start)" "${main% *}" "$f0"
check_lt "stack frame 0 is in main (end)" "${main#* }" "$f0"
check_ge "the stack has a caller of main" 2 "$(echo "$stack" | awk -F, '{ print NF }')"
trange=$(text_range "$W")
f1=$(echo "$stack" | dgawk -F, '{ print hex($2) }')
check_eq "stack frame 1 is outside the executable (libc calls main)" yes \
	"$([ "$f1" -lt "${trange% *}" ] || [ "$f1" -ge "${trange#* }" ] && echo yes || echo "no: $f1")"
start=$(sym_range "$W" _start)
fl=$(echo "$stack" | dgawk -F, '{ print hex($NF) }')
check_eq "the outermost frame is in _start (full unwind at the default --num-callers)" yes \
	"$([ "$fl" -ge "${start% *}" ] && [ "$fl" -lt "${start#* }" ] && echo yes || echo "no: $fl")"

# --num-callers bounds every stack.
run_dg w2.log --num-callers=2 -- "$W" || finish
dump --blocks w2.log blocks2 || finish
awk '{ n = split($9, f, ","); if (n > 2) print }' blocks2 >deep
check_empty "--num-callers=2: no stack deeper than 2" deep
check_eq "--num-callers=2: the 400-byte block keeps 2 frames" 2 \
	"$(blocks_from blocks2 "$W" main 400 | awk '{ print split($9, f, ",") }')"
finish
