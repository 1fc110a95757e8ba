#!/bin/sh
# t1510-dgsql-pty: dgsql on a pseudo-terminal (script(1) from bsdutils):
# the interactive prompt, table mode with headers by default, readline TAB
# completion of a dot-command (.hel -> .help), of a function after fn:
# (fn:fil -> fn:fill), of a table name (filtered_acc -> filtered_accesses),
# the continuation prompt of a statement spread over lines, errors reported
# without leaving the shell, and the history file ~/.dgsql_history.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_cmd script
trace_db w.db writes || finish

# Keystrokes with pauses, so that readline sees each line as typed.  The
# input stays open until dgsql has written its history at .quit (at most
# 10 s): closed earlier, script(1) hangs up on a dgsql still busy (under
# load) and the history is never written.
keys() {
	sleep 1
	for k in '.hel\t\n' '.filter --events fn:fil\t\n' '.filter\n' \
	    'SELECT count(*) AS n FROM filtered_acc\t;\n' 'SELECT nosuch;\n' \
	    'SELECT 40 +\n2 AS answer;\n' '.quit\n'; do
		printf "$k"
		sleep 0.4
	done
	i=0
	while [ ! -s .dgsql_history ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2
}
keys | HOME=$PWD TERM=dumb timeout 30 script -qc "$DGSQL w.db" /dev/null >pty.raw
check_eq "dgsql under script exits 0" 0 "$?"
tr -d '\r\007' <pty.raw >pty.out

check_eq "the prompt is shown" 1 "$(grep -c '^dgsql> \.quit' pty.out)"
check_ge ".hel<TAB> ran .help" 1 "$(grep -c '^\.quit  *leave dgsql' pty.out)"
check_eq "fn:fil<TAB> completed to fn:fill" "--events fn:fill" \
	"$(grep -- '^--events' pty.out)"
check_eq "table name completed; filter applied; table mode with header" \
	1 "$(grep -c '^| n   |$' pty.out)"
fill_n=$("$DGSQL" w.db --events fn:fill 'SELECT count(*) FROM filtered_accesses')
check_eq "the filtered count" 1 "$(grep -c "^| *$fill_n |\$" pty.out)"
check_eq "an error is reported and the shell goes on" 1 \
	"$(grep -c '^error: no such column: nosuch' pty.out)"
check_eq "continuation prompt" 1 "$(grep -c '^   \.\.\.> 2 AS answer;' pty.out)"
check_eq "multi-line statement result" 1 "$(grep -c '^| *42 |$' pty.out)"
check_eq "history file written" 1 \
	"$(grep -c '^\.filter --events fn:fill$' .dgsql_history 2>/dev/null)"
finish
