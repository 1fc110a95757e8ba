#!/bin/sh
# t0820-process-end: every way a process ends leaves a complete log whose
# FINI says how it ended (docs/FORMAT.md 2.16).  tests/progs/ends.c makes
# 100 W + 100 R in a 400-byte block, then returns 5, calls _exit(7), aborts,
# dies of SIGSEGV, execs another program, or fails to exec and writes the
# block once more.  A #!/bin/sh wrapper that execs is traced too (without
# --trace-children: the exec'd program runs natively).  For each: the
# status and output are native, `dg-dump --check` passes, FINI's end and
# status, the block's counts in dg-dump and in the database, and dg-import
# exits 0 with meta.complete 1.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog ends
need_prog writes
E=$DG_PROGS/ends

# ended LOG WHAT END STATUS "READS WRITES": the checks on one log.
ended() {
	check_status "$2: dg-dump --check passes" 0 "$DG_DUMP" --check "$1" ||
		diag_file check_run.out
	dump --records "$1" "$1.recs" || return
	check_eq "$2: FINI end and status" "$3 $4" \
		"$(grep '^fini ' "$1.recs" | { read -r l; echo "$(echo "$l" | kv end) $(echo "$l" | kv status)"; })"
	check_eq "$2: exactly one FINI, the last record" "1 fini" \
		"$(grep -c '^fini ' "$1.recs") $(tail -n 1 "$1.recs" | cut -d' ' -f1)"
	dump --blocks "$1" "$1.blocks" || return
	check_eq "$2: the 400-byte block: reads, writes" "$5" \
		"$(awk '$2 == 400 { print $5, $6 }' "$1.blocks")"
	import_ok "$1" "$1.db" || return
	check_eq "$2: imported complete" 1 "$(meta "$1.db" complete)"
	check_eq "$2: the database's block" "$(echo "$5" | tr ' ' '|')" \
		"$(q "$1.db" 'SELECT reads, writes FROM blocks WHERE size = 400')"
}

# how, exit status, FINI end and status, the block's reads and writes
while read -r how st end fst counts; do
	run_dg "$how.log" -- "$E" "$how" || continue
	check_eq "$how: status $st" "$st" "$DG_STATUS"
	ended "$how.log" "$how" "$end" "$fst" "$counts"
done <<EOF
exit 5 1 5 100 100
_exit 7 1 7 100 100
abort 134 3 0 100 100
segv 139 3 0 100 100
badexec 0 1 0 100 200
EOF

run_dg exec.log -- "$E" exec "$DG_PROGS/writes" || finish
check_eq "exec: the exec'd program ran" "sum 4950|sum 4950" "$(tr '\n' '|' <dg.out | sed 's/|$//')"
ended exec.log exec 2 0 "100 100"

# The wrapper of the report: the shell execs the real program.
printf '#!/bin/sh\nexec "%s" exit\n' "$E" >wrapper.sh
chmod +x wrapper.sh
run_dg wrapper.log -- ./wrapper.sh || finish
check_eq "wrapper: the exec'd program's status" 5 "$DG_STATUS"
check_status "wrapper: dg-dump --check passes" 0 "$DG_DUMP" --check wrapper.log
dump --records wrapper.log wrapper.recs || finish
check_eq "wrapper: FINI says exec" 2 "$(grep '^fini ' wrapper.recs | kv end)"
check_eq "wrapper: the shell's log has none of the program's block" "" \
	"$(dump --blocks wrapper.log wrapper.blocks && awk '$2 == 400' wrapper.blocks)"
import_ok wrapper.log wrapper.db && check_eq "wrapper: imported complete" 1 "$(meta wrapper.db complete)"
finish
