#!/bin/sh
# t0860-log-compact: runs are written as BBCHAINS records and contexts as
# CTXREF (docs/FORMAT.md 2.17, 2.18) unless --log-compact=no asks for
# BBRUNS and CONTEXT.  Both logs of the same deterministic program (writes,
# mixed, jumps with --trace-fn=main) say the same in every dg-dump mode,
# every context with the same stack (--records, less the PROCESS and MMAP
# lines, which name the run's own options and mappings); a forked child's
# log (contexts written again) has the same contexts, runs, reads and
# writes either way; the compact log is the smaller.
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
need_prog mixed
need_prog jumps
need_prog fork

size() { wc -c <"$1" | tr -d ' '; }

for p in writes mixed jumps; do
	run_dg "$p.c.log" --trace-fn=main -- "$DG_PROGS/$p" || finish
	run_dg "$p.r.log" --trace-fn=main --log-compact=no -- "$DG_PROGS/$p" || finish
	check_status "$p: the bbchains log is complete and valid" 0 "$DG_DUMP" --check "$p.c.log"
	check_status "$p: the bbruns log is complete and valid" 0 "$DG_DUMP" --check "$p.r.log"
	for m in --accesses --stats --blocks --records; do
		dump "$m" "$p.c.log" "$p.c.all" || finish
		dump "$m" "$p.r.log" "$p.r.all" || finish
		grep -v -e '^process ' -e '^mmap ' "$p.c.all" >"$p.c.out"
		grep -v -e '^process ' -e '^mmap ' "$p.r.all" >"$p.r.out"
		check_cmp "$p: dg-dump $m the same from both logs" "$p.r.out" "$p.c.out"
	done
	dump --stats "$p.c.log" "$p.c.stats" || finish
	check_gt "$p: accesses recorded" 100 "$(stat_of "$p.c.stats" accesses)"
	check_lt "$p: the bbchains log is smaller" "$(size "$p.r.log")" "$(size "$p.c.log")"
done

# A forked child's log (contexts written again, successors from scratch).
cpid_of() { cat child.pid 2>/dev/null; }
for l in c r; do
	opt=; [ $l = r ] && opt=--log-compact=no
	rm -f child.pid
	"$DATAGRIND" --datagrind-out-file="f.$l.%p.log" $opt "$DG_PROGS/fork" >f.out 2>f.err
	check_eq "fork ($l): traced exit status" 0 "$?" || diag_file f.err
	child=f.$l.$(cpid_of).log
	check_status "fork ($l): the child's log is valid" 0 "$DG_DUMP" --check "$child"
	"$DG_DUMP" --stats "$child" | grep -E '^(writes|reads|runs|contexts) ' >"f.$l.child"
done
check_cmp "fork: the child's contexts, runs, reads and writes the same either way" f.r.child f.c.child
finish
