#!/bin/sh
# t0000-lib: the test helpers themselves can fail.  Each helper is run in a
# child shell on inputs where it must pass and where it must fail, and the
# child's exit status and report line are checked.
. "$DG_TESTS/lib.sh"

# child SCRIPT: run SCRIPT with lib.sh in a child shell; sets out, st.
child() {
	out=$( (DG_TEST_TMP=$PWD; export DG_TEST_TMP; . "$DG_TESTS/lib.sh"; eval "$1") 2>&1)
	st=$?
}

expect() {	# expect DESC STATUS FIRST-LINE-PREFIX SCRIPT
	child "$4"
	first=$(printf '%s\n' "$out" | head -n 1)
	case $first in
	"$3"*) check_eq "$1" "$2" "$st" ;;
	*) not_ok "$1"; diag "expected a line starting '$3', got:" "$out" ;;
	esac
}

expect "check_eq passes on equal strings" 0 "ok - x" 'check_eq x 5 5; finish'
expect "check_eq fails on different strings" 1 "not ok - x" 'check_eq x 5 6; finish'
expect "check_eq: an empty actual is not a value" 1 "not ok - x" 'check_eq x 0 ""; finish'
expect "check_ge passes 5 >= 5" 0 "ok - x" 'check_ge x 5 5; finish'
expect "check_ge fails 4 >= 5" 1 "not ok - x" 'check_ge x 5 4; finish'
expect "check_ge fails on a non-number" 1 "not ok - x" 'check_ge x 0 missing; finish'
expect "check_ge fails on an empty value" 1 "not ok - x" 'check_ge x 0 ""; finish'
expect "check_le fails 6 <= 5" 1 "not ok - x" 'check_le x 5 6; finish'
expect "check_gt fails 5 > 5" 1 "not ok - x" 'check_gt x 5 5; finish'
expect "check_lt passes 4 < 5" 0 "ok - x" 'check_lt x 5 4; finish'
expect "check_empty fails on a non-empty file" 1 "not ok - x" 'echo a >f1; check_empty x f1; finish'
expect "check_empty fails on a missing file" 1 "not ok - x" 'check_empty x nosuchfile; finish'
expect "check_empty passes on an empty file" 0 "ok - x" ': >f0; check_empty x f0; finish'
expect "check_cmp fails on different files" 1 "not ok - x" 'echo a >f1; echo b >f2; check_cmp x f1 f2; finish'
expect "check_run fails on a failing command" 1 "not ok - x" 'check_run x false; finish'
expect "check_status compares exit statuses" 1 "not ok - x" 'check_status x 3 sh -c "exit 4"; finish'
expect "one failure among passes fails the script" 1 "ok - a" 'check_eq a 1 1; check_eq b 1 2; check_eq c 1 1; finish'
expect "a script without checks fails" 1 "not ok - the script made no check" 'finish'
expect "skip exits 77" 77 "skip: why" 'skip why'
expect "bail stops at once and fails" 1 "not ok - stop" 'bail stop; check_eq never 1 1; finish'

check_eq "hex() reads 0x-prefixed hex" "31 4198710" "$(echo '0x1f 401136' | dgawk '{ print hex($1), hex($2) }')"
check_eq "hex() rejects non-hex" "-1 -1" "$(echo 'zz -' | dgawk '{ print hex($1), hex($2) }')"
check_eq "filter_vg drops only ==PID== lines" "a
==x== b" "$(printf '==123== banner\na\n--9-- dbg\n==x== b\n' >v; filter_vg v)"

finish
