#!/bin/sh
# t1500-dgsql-shell: dgsql without a terminal, on writes.c's trace: SQL from
# arguments and from standard input; every output mode (list, csv, tsv,
# json, line, table, column) with and without headers; .headers .mode
# .once .output .read .tables .schema .help .timer .quit .stats; the first
# error stops a script with exit 1 and names the line; bad options exit 2,
# a missing database 3; the database is read-only unless --write; --help
# and --version.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
trace_db w.db writes || finish

check_eq "one value from an argument" 1 "$(dq w.db 'SELECT 1')"
check_eq "list mode: '|' between values" "1|a|" "$(dq w.db "SELECT 1, 'a', NULL")"
check_eq "csv quotes" '1,"a,b","say ""hi"""' \
	"$(dq w.db -c "SELECT 1, 'a,b', 'say \"hi\"'")"
check_eq "csv headers" "$(printf 'x,y\n1,2')" \
	"$(dq w.db --csv --header 'SELECT 1 AS x, 2 AS y')"
check_eq "tsv mode" "$(printf '1\ta b')" "$(dq w.db -m tsv "SELECT 1, 'a b'")"
check_eq "json mode" '[{"n":1,"s":"x\"y","z":null}]' \
	"$(dq w.db --json "SELECT 1 AS n, 'x\"y' AS s, NULL AS z")"
check_eq "line mode" "$(printf '  a = 1\nbbb = 2')" \
	"$(dq w.db -m line 'SELECT 1 AS a, 2 AS bbb')"
check_eq "table mode" "$(printf '+---+----+\n| a | b  |\n+---+----+\n| 1 | xy |\n+---+----+')" \
	"$(dq w.db -m table "SELECT 1 AS a, 'xy' AS b")"
check_eq "column mode" "$(printf 'a  b\n-  --\n1  xy')" \
	"$(dq w.db -m column "SELECT 1 AS a, 'xy' AS b")"
check_eq "several statements in one argument" "$(printf '1\n2')" \
	"$(dq w.db 'SELECT 1; SELECT 2')"
check_eq "dot-command argument" "filtered_accesses" \
	"$(dq w.db '.tables filtered_a%')"

# A script on standard input.
cat >script.sql <<'SQL'
.headers on
.mode csv
SELECT 1 AS a,
       2 AS b;
.mode list
.headers off
SELECT count(*) FROM accesses;
.once once.txt
SELECT 'to the file';
SELECT 'back';
.output out.txt
SELECT 'in out';
.output
.quit
SELECT 'never';
SQL
dq w.db <script.sql >script.out
check_eq "script exits 0" 0 "$?"
n=$(sqlite3 w.db "SELECT value FROM meta WHERE key = 'accesses'")
check_eq "script output" "$(printf 'a,b\n1,2\n%s\nback' "$n")" "$(cat script.out)"
check_eq ".once wrote one result" "to the file" "$(cat once.txt)"
check_eq ".output wrote until reset" "in out" "$(cat out.txt)"

printf 'SELECT 1;\nSELECT nosuch FROM accesses;\nSELECT 3;\n' >bad.sql
dq w.db <bad.sql >bad.out
check_eq "a failing script exits 1" 1 "$?"
check_eq "nothing after the error runs" 1 "$(cat bad.out)"
check_eq "the error names the line" \
	"dgsql: stdin:2: error: no such column: nosuch" "$(cat dq.err)"
printf 'SELECT 7;\n' >inc.sql
check_eq ".read runs a file" 7 "$(dq w.db '.read inc.sql')"
dq w.db '.read nosuch.sql' >/dev/null
check_eq ".read of a missing file fails" 1 "$?"
check_eq "its message names the file" \
	"dgsql: argument 1: error: cannot read 'nosuch.sql': No such file or directory" \
	"$(cat dq.err)"
dq w.db '.bogus' >/dev/null
check_eq "an unknown command fails" 1 "$?"

dq w.db '.help' >help.out
check_ge ".help: one line per command (>= 15)" 15 "$(wc -l <help.out | tr -d ' ')"
check_eq ".help lists .filter" 1 "$(grep -c '^\.filter ' help.out)"
check_eq ".schema TABLE" "CREATE TABLE meta (" "$(dq w.db '.schema meta' | head -n 1)"
dq w.db '.timer on' 'SELECT 1' >timer.out
check_eq ".timer prints Run Time" 1 "$(grep -c '^Run Time: real' timer.out)"
dq w.db .stats >stats.out
check_eq ".stats: accesses" "$n" "$(awk '$1 == "accesses:" { print $2 }' stats.out)"
check_eq ".stats: complete" "yes" "$(awk '$1 == "complete:" { print $2 }' stats.out)"
check_eq ".stats: heap blocks" 2 "$(awk '$1 == "heap" { print $3 }' stats.out)"

dq w.db 'CREATE TABLE t(x)' >/dev/null
check_eq "read-only by default" 1 "$?"
cp w.db rw.db
"$DGSQL" --write rw.db 'CREATE TABLE t(x)' 'INSERT INTO t VALUES (5)' >/dev/null 2>&1
check_eq "--write allows writes" 5 "$(sqlite3 rw.db 'SELECT x FROM t')"
"$DGSQL" nosuch.db 'SELECT 1' >/dev/null 2>open.err
check_eq "a missing database exits 3" 3 "$?"
"$DGSQL" --bogus w.db >/dev/null 2>&1
check_eq "a bad option exits 2" 2 "$?"
"$DGSQL" >/dev/null 2>&1
check_eq "no database exits 2" 2 "$?"
"$DGSQL" --help >help.txt
check_eq "--help exits 0" 0 "$?"
check_eq "--help documents the exit status" 1 "$(grep -c '^Exit status' help.txt)"
check_eq "--version" 1 "$("$DGSQL" --version | grep -c '^dgsql [0-9]')"
finish
