#!/bin/sh
# t0320-bad-free: frees of what is not a live block (tests/progs/badfree.c:
# a double free, a pointer into a block, a local's address, a static
# array's) free nothing and change nothing: the program prints what it
# prints and exits 5 under Datagrind as under memcheck (natively glibc
# aborts), in every way of recording (compact heap records or not,
# heap-only with lean translations or not); the log is valid and holds
# exactly main's 2 blocks, each freed once, by its real free (and
# stdout's buffer, never freed).
. "$DG_TESTS/lib.sh"
need_tool
need_prog badfree
need_cmd valgrind
P=$DG_PROGS/badfree

valgrind --tool=memcheck -q "$P" >mc.out 2>mc.err
mc=$?
check_eq "memcheck: exit status 5" 5 "$mc"
check_eq "memcheck: output" "badfree done" "$(cat mc.out)"
check_ge "memcheck: reports the bad frees" 3 "$(grep -c 'Invalid free' mc.err)"

k=0
for opts in "" "--log-compact=no" "--trace-at-start=no" "--trace-at-start=no --lean=no"; do
	k=$((k + 1))
	# shellcheck disable=SC2086
	DG_NATIVE=no run_dg b$k.log $opts -- "$P" || continue
	check_eq "[$opts]: exit status as under memcheck" "$mc" "$DG_STATUS"
	check_cmp "[$opts]: output as under memcheck" mc.out dg.out
	check_status "[$opts]: the log is complete and valid" 0 "$DG_DUMP" --check b$k.log
	dump --stats b$k.log b$k.stats || continue
	check_eq "[$opts]: 3 mallocs (main's 2, stdout's buffer), 2 frees" "3 2" \
		"$(stat_of b$k.stats mallocs) $(stat_of b$k.stats frees)"
	dump --blocks b$k.log b$k.blocks || continue
	blocks_from b$k.blocks "$P" main >b$k.main
	check_eq "[$opts]: main's blocks of 100 and 200 bytes, each freed" "100 f|200 f" \
		"$(awk '{ printf "%s%s %s", s, $2, ($4 == "-" ? "live" : "f"); s = "|" }' b$k.main)"
done
finish
