#!/bin/sh
# t0710-exec-children: --trace-children=yes follows fork + exec.
# tests/progs/forkexec runs tests/progs/writes in a child.  With the option
# there is a log of writes (PROCESS exe .../writes) holding its exact block
# traffic (100 writes, 100 reads); without it no log of writes exists.
# Every log left behind is valid and complete.
. "$DG_TESTS/lib.sh"
need_tool
need_prog forkexec
need_prog writes
FE=$DG_PROGS/forkexec
W=$DG_PROGS/writes

mkdir yes no
(cd yes && "$DATAGRIND" --trace-children=yes "$FE" "$W" >out 2>err)
check_eq "yes: exit status" 0 "$?" || diag_file yes/err
check_eq "yes: output" "sum 4950
child status 0" "$(cat yes/out)"
(cd no && "$DATAGRIND" "$FE" "$W" >out 2>err)
check_eq "no: exit status" 0 "$?" || diag_file no/err
check_eq "no: output" "sum 4950
child status 0" "$(cat no/out)"

for d in yes no; do
	found=""
	for l in $d/datagrind.out.*; do
		[ -f "$l" ] || continue
		check_status "$l: --check passes" 0 "$DG_DUMP" --check "$l"
		dump --records "$l" "$l.recs" || continue
		exe=$(grep '^process ' "$l.recs" | kv exe)
		case $exe in
		*/writes\") found="$found $l" ;;
		esac
	done
	eval "found_$d=\$found"
done
check_eq "yes: exactly one log is of the exec'd program" 1 "$(echo $found_yes | wc -w | tr -d ' ')"
check_eq "no: no log is of the exec'd program" 0 "$(echo $found_no | wc -w | tr -d ' ')"
check_ge "yes: the parent has a log too" 2 "$(ls yes/datagrind.out.* 2>/dev/null | wc -l | tr -d ' ')"
if [ -n "$found_yes" ]; then
	set -- $found_yes
	dump --blocks "$1" child.blocks || finish
	check_eq "yes: the child's 400-byte block: 100 reads, 100 writes" "100 100" \
		"$(blocks_from child.blocks "$W" main 400 | awk '{ print $5, $6 }')"
fi
finish
