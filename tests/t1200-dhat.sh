#!/bin/sh
# t1200-dhat: heap totals per allocation site equal DHAT's.
# tests/progs/dhatprog.c allocates from three functions of its own and
# makes all the heap accesses itself.  For each allocation site in the
# executable (DHAT: the frame after malloc/calloc; Datagrind: frame 0 of the
# block's stack, the call of the allocator) the number of blocks, bytes
# allocated, bytes read and bytes written inside the blocks must be equal.
#
# Site addresses: DHAT's frames are return addresses minus one; Datagrind's
# frame 0 is an address inside the call instruction too (docs/FORMAT.md
# 2.5), not necessarily the same byte.  Sites are therefore matched by the
# call instruction that contains them, from objdump.  Allocation points of
# libc's own (the stdout buffer of printf) are left out of both: their
# first frame is not in the executable.  DHAT counts neither calloc's
# zeroing nor frees as accesses, and neither does Datagrind (the allocator
# runs outside the client).  The program is written so that this is all
# there is; the expected figures are also checked literally, so a DHAT
# parsing error cannot make both sides agree on nothing.
. "$DG_TESTS/lib.sh"
need_tool
need_prog dhatprog
need_cmd valgrind
need_cmd python3
P=$DG_PROGS/dhatprog
tr=$(text_range "$P") || bail "text range of $P"

valgrind --tool=dhat --dhat-out-file=dhat.json "$P" >dhat.out 2>dhat.err
check_eq "DHAT run: exit status 0" 0 "$?"
python3 "$DG_TESTS/dhat_sites.py" dhat.json ${tr% *} ${tr#* } >dhat.raw ||
	bail "DHAT's JSON parsed"

run_dg d.log -- "$P" || finish
check_eq "program output" "acc 249528" "$(cat dg.out)"
dump --blocks d.log blocks || finish
dgawk -v lo=${tr% *} -v hi=${tr#* } '
	{ split($9, f, ","); pc = hex(f[1]) }
	pc >= lo && pc < hi { k = sprintf("%x", pc); n[k]++; b[k] += $2; r[k] += $7; w[k] += $8 }
	END { for (k in n) print k, n[k], b[k], r[k], w[k] }' blocks | sort >dg.raw

# The call instruction containing an address: its start, from objdump.
objdump -d --no-show-raw-insn "$P" | awk '/^ *[0-9a-f]+:\t/ { sub(":", "", $1); print $1 }' >insns
callsite() {	# callsite FILE: replace column 1 by the start of its instruction
	dgawk 'NR == FNR { s[NR] = hex($1); n = NR; next }
		{ a = hex($1); lo = 1; hi = n
		  while (lo < hi) { m = int((lo + hi + 1) / 2); if (s[m] <= a) lo = m; else hi = m - 1 }
		  $1 = sprintf("%x", s[lo]); print }' insns "$1" | sort
}
callsite dhat.raw >dhat.sites
callsite dg.raw >dg.sites

# Expected, per function: mk_small 10 x 24 bytes, written; mk_big 4000
# bytes, all written, half read; main malloc(64) written and read, calloc(5,
# 16) 20 bytes read.
fn_of() {	# fn_of FILE: "function blocks bytes read written" per site
	while read -r pc rest; do
		nm --defined-only "$P" | dgawk -v a="$(echo "$pc" | dgawk '{ print hex($1) }')" \
			'$2 ~ /^[Tt]$/ && hex($1) <= a && hex($1) > best { best = hex($1); name = $3 } END { print name }' |
			tr '\n' ' '
		echo "$rest"
	done <"$1" | sort
}
cat >expected <<'EOT'
main 1 64 64 64
main 1 80 20 0
mk_big 1 4000 2000 4000
mk_small 10 240 0 240
EOT
fn_of dhat.sites >dhat.fn
fn_of dg.sites >dg.fn
check_cmp "DHAT's per-site totals are the program's (sanity of the parsing)" expected dhat.fn
check_cmp "Datagrind's per-site blocks, bytes, read and written bytes equal DHAT's" dhat.sites dg.sites
check_cmp "... and are the program's" expected dg.fn
finish
