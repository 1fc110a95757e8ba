#!/bin/sh
# t0700-fork: fork without exec (tests/progs/fork.c).  The child is traced
# into its own log datagrind.out.<childpid>; both logs are complete; each
# holds exactly its own process's writes:
#   222-byte block (allocated before the fork): 11 writes in the parent's
#     log, 22 (made after the fork) in the child's, which lists the block as
#     live at the fork
#   333-byte block: only in the child's log, 33 writes
#   444-byte block: only in the parent's log, 44 writes
# With --trace-at-start=no the child's log is valid too (it used to start
# with an ICOUNT before its HEADER) and lists its blocks.
. "$DG_TESTS/lib.sh"
need_tool
need_prog fork
P=$DG_PROGS/fork

"$DATAGRIND" "$P" >out 2>err
check_eq "traced exit status" 0 "$?" || diag_file err
check_eq "program output" "child status 0" "$(cat out)"
ls datagrind.out.* >logs 2>/dev/null
check_eq "two logs: parent and child" 2 "$(wc -l <logs | tr -d ' ')" || diag_file logs
[ -s child.pid ] || bail "the program wrote child.pid"
cpid=$(cat child.pid)
clog=datagrind.out.$cpid
plog=$(grep -v -x "$clog" logs | head -n 1)
[ -f "$clog" ] || bail "the child's log is named datagrind.out.$cpid"
[ -n "$plog" ] || bail "the parent's log exists"
ok "child log $clog, parent log $plog"

for l in "$plog" "$clog"; do
	check_status "$l: --check passes" 0 "$DG_DUMP" --check "$l"
	dump --stats "$l" "$l.stats" || finish
	check_eq "$l: complete" 1 "$(stat_of "$l.stats" complete)"
	dump --blocks "$l" "$l.blocks" || finish
	dump --records "$l" "$l.recs" || finish
done
ppid=$(grep '^process ' "$plog.recs" | kv pid)
check_eq "parent log: its PROCESS pid is the parent's" "${plog#datagrind.out.}" "$ppid"
check_eq "child log: PROCESS pid is the child's" "$cpid" "$(grep '^process ' "$clog.recs" | kv pid)"
check_eq "child log: PROCESS ppid is the parent" "$ppid" "$(grep '^process ' "$clog.recs" | kv ppid)"

w() {	# w LOG SIZE: "writes write_bytes" of the block(s) of SIZE from main
	blocks_from "$1.blocks" "$P" main "$2" | awk '{ printf "%s%s %s", s, $6, $8; s = "|" }'
}
check_eq "parent: 222-byte block written 11 times" "11 11" "$(w "$plog" 222)"
check_eq "parent: 444-byte block written 44 times" "44 44" "$(w "$plog" 444)"
check_eq "parent: no 333-byte block" "" "$(w "$plog" 333)"
check_eq "child: 222-byte block (live at fork) written 22 times" "22 22" "$(w "$clog" 222)"
check_eq "child: 333-byte block written 33 times" "33 33" "$(w "$clog" 333)"
check_eq "child: no 444-byte block" "" "$(w "$clog" 444)"
check_eq "child: the 333-byte block is freed" 1 \
	"$(blocks_from "$clog.blocks" "$P" main 333 | awk '$4 != "-"' | wc -l | tr -d ' ')"

# Tracing off at the fork (the reader's count behind): the child's log
# still starts with its HEADER, and lists the block live at the fork.
mkdir -p off && (cd off && "$DATAGRIND" --trace-at-start=no "$P" >out 2>err)
check_eq "--trace-at-start=no: traced exit status" 0 "$?" || diag_file off/err
ocpid=$(cat off/child.pid 2>/dev/null)
check_status "--trace-at-start=no: the child's log is valid" 0 \
	"$DG_DUMP" --check "off/datagrind.out.$ocpid"
"$DG_DUMP" --blocks "off/datagrind.out.$ocpid" >off/child.blocks 2>&1
check_eq "--trace-at-start=no: the child lists the 222-byte block and its 333" "222 333" \
	"$(blocks_from off/child.blocks "$P" main | awk '{ print $2 }' | sort -n | tr '\n' ' ' | sed 's/ $//')"
finish
