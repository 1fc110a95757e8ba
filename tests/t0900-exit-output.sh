#!/bin/sh
# t0900-exit-output: the traced program's exit status, stdout, stderr,
# arguments and stdin are those of the native run (tests/progs/exitcode.c
# exits 3, or dies of SIGABRT / SIGSEGV); at default verbosity the tool adds
# to Valgrind's banner one summary line, with -q nothing at all; arguments
# after the program are the program's, even when they look like tool options.
. "$DG_TESTS/lib.sh"
need_tool
need_prog exitcode
P=$DG_PROGS/exitcode

awk 'BEGIN { for (i = 0; i < 1234; i++) printf "%c", 65 + i % 26 }' >input
DG_STDIN=input run_dg e.log -- "$P" one "two words" --datagrind-out-file=other.log -q || finish
check_eq "exit status 3" 3 "$DG_STATUS"
check_eq "stdin passed through" "stdin 1234 bytes" "$(grep '^stdin' dg.out)"
check_eq "arguments passed through" "arg 1 [one]|arg 2 [two words]|arg 3 [--datagrind-out-file=other.log]|arg 4 [-q]" \
	"$(grep '^arg' dg.out | tr '\n' '|' | sed 's/|$//')"
check_eq "a program argument is not taken as a tool option" no \
	"$([ -e other.log ] && echo yes || echo no)"
grep -E '^==[0-9]+== datagrind: ' dg.err >summary
check_eq "default verbosity: one summary line from the tool" 1 "$(wc -l <summary | tr -d ' ')"
check_eq "the summary names the log" 1 "$(grep -c 'written to .*e\.log$' summary)"
check_status "log is valid" 0 "$DG_DUMP" --check e.log

DG_STDIN=input run_dg q.log -q -- "$P" one || finish
grep -E '^(==|--)[0-9]+(==|--)' dg.err >vglines
check_empty "with -q the tool prints nothing on stderr" vglines

run_dg a.log -- "$P" abort || finish
check_eq "abort: status 134 (SIGABRT)" 134 "$DG_STATUS"
dump --stats a.log a.stats && check_eq "abort: the log is still complete" 1 "$(stat_of a.stats complete)"
run_dg s.log -- "$P" segv || finish
check_eq "segv: status 139 (SIGSEGV)" 139 "$DG_STATUS"
finish
