#!/bin/sh
# t1000-real-ls: a real program, /bin/ls -l, traced: output and status as
# native, a valid complete log with many accesses and heap blocks.  It lists
# a directory made here with fixed times, and /usr (stable, unlike / whose
# /tmp and /proc change between the native and the traced run).
. "$DG_TESTS/lib.sh"
need_tool
[ -x /bin/ls ] || skip "no /bin/ls"

mkdir d
for f in alpha beta gamma delta; do
	printf '%s\n' "$f" >d/$f
	touch -d '2020-01-02 03:04:05' d/$f
done
mkdir d/sub
touch -d '2021-02-03 04:05:06' d/sub
run_dg ls.log -- /bin/ls -l --time-style=long-iso d /usr || finish
check_eq "exit status 0" 0 "$DG_STATUS"
check_ge "output lists the files" 5 "$(grep -c -E ' (alpha|beta|gamma|delta|sub)$' dg.out)"
check_status "--check passes" 0 "$DG_DUMP" --check ls.log
dump --stats ls.log stats || finish
check_eq "complete" 1 "$(stat_of stats complete)"
check_gt "accesses > 100000" 100000 "$(stat_of stats accesses)"
check_gt "reads > 0" 0 "$(stat_of stats reads)"
check_gt "writes > 0" 0 "$(stat_of stats writes)"
check_gt "mallocs > 10" 10 "$(stat_of stats mallocs)"
check_gt "icount > accesses / 4" $(( $(stat_of stats accesses) / 4 )) "$(stat_of stats icount)"
finish
