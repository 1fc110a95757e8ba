#!/bin/sh
# t0850-record-db: --db=FILE records straight into a database (tool/dg_imp.c:
# the log goes into a pipe that dg-import reads).  Checked:
#   - writes.c under --db: the program's exit status and output are the
#     native ones; the database is complete, mode 600, no log is left; the
#     400-byte block (100 W, 100 R) and the per-function counts of main,
#     fill and sum equal those of a log traced the usual way and imported;
#   - --db with --datagrind-out-file: the kept log, imported by dg-import,
#     gives the same database, table by table (meta less the import time
#     and source name);
#   - fork.c: the child gets its own database, f.<childpid>.db with %p, and
#     NAME.<childpid> without; each holds its own process's writes as t0700
#     counts them; forkexec.c with --trace-children=yes: the exec'd writes
#     gets a database with its block; without it, ends.c's database is
#     finished before its exec; after a failed exec the database holds the
#     run up to it and the tool says the rest is not recorded;
#   - the import fails (the database's directory does not exist): the
#     program runs to its end with its own status (3) and output, the
#     failure is reported (dg-import's words and the tool's), no file;
#   - no importer, watcher or helper is left after the run;
#   - SIGKILL of the run: the database never appears half-written (only
#     the importer's temporary file while it runs); afterwards the target
#     holds what reached the importer, marked incomplete, and passes
#     sqlite's integrity check, and no temporary file is left;
#   - --db-importer that does not exist: exit 1, the program is not run.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog writes
need_prog fork
need_prog forkexec
need_prog exitcode
W=$DG_PROGS/writes

# tables of DB, meta less what differs between two imports of one log
content() {
	for t in $(q "$1" "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'meta' ORDER BY name"); do
		echo "== $t"
		q "$1" "SELECT * FROM \"$t\" ORDER BY 1, 2"
	done
	echo "== meta"
	q "$1" "SELECT key, value FROM meta WHERE key NOT IN ('import_time', 'source') ORDER BY key"
}
fn_counts() {	# main, fill and sum: accesses by kind
	q "$1" "SELECT f.name, s.is_write, s.accesses FROM sum_fn s JOIN functions f
	        ON f.id = s.function_id WHERE f.name IN ('main', 'fill', 'sum')
	        ORDER BY f.name, s.is_write"
}
block400() { q "$1" "SELECT reads, writes, read_bytes, write_bytes FROM blocks WHERE size = 400"; }
# processes that name the database: importer, watcher, helper, the tool
importers() { pgrep -f -- "$1" | wc -l | tr -d ' '; }

# ---- --db against log + dg-import
run_dg w.log -- "$W" || finish
import_ok w.log w.db || finish
"$W" >native.out 2>native.err
"$DATAGRIND" --db="$PWD/d.db" "$W" >d.out 2>d.err
check_eq "--db: the program's exit status" 0 "$?" || diag_file d.err
check_cmp "--db: the program's stdout" native.out d.out
filter_vg d.err >d.err.f
check_cmp "--db: the program's stderr (less ==PID== lines)" native.err d.err.f
check_eq "--db: no log written" "" "$(ls datagrind.out.* 2>/dev/null)"
check_eq "--db: the database is complete" 1 "$(meta d.db complete)"
check_eq "--db: database mode 600" 600 "$(stat -c %a d.db)"
check_eq "--db: the 400-byte block: 100 reads, 100 writes of 4 bytes" "100|100|400|400" "$(block400 d.db)"
check_eq "--db: the block as log + dg-import has it" "$(block400 w.db)" "$(block400 d.db)"
fn_counts w.db >w.fn
fn_counts d.db >d.fn
check_cmp "--db: main, fill, sum counts as log + dg-import has them" w.fn d.fn
check_eq "--db: fill wrote 100 times into the block at least" 1 \
	"$(awk -F'|' '$1 == "fill" && $2 == 1 && $3 >= 100 { print 1 }' d.fn)"
check_eq "--db: the closing line names the database" 1 \
	"$(grep -c "imported into $PWD/d.db" d.err)"
check_eq "--db: no importer, watcher or helper left" 0 "$(importers "$PWD/d.db")"

# ---- --db and a kept log: the same content
"$DATAGRIND" -q --db="$PWD/k.db" --datagrind-out-file="$PWD/k.log" "$W" >/dev/null 2>k.err
check_eq "--db + log: exit status" 0 "$?" || diag_file k.err
check_status "--db + log: the kept log is complete and valid" 0 "$DG_DUMP" --check k.log
import_ok k.log k2.db || finish
content k.db >k.content
content k2.db >k2.content
check_cmp "--db + log: the log imports to the same database" k2.content k.content
check_ge "--db + log: there is content to compare" 1000 "$(wc -l <k.content)"

# ---- fork: a database each
"$DATAGRIND" -q --db="$PWD/f.%p.db" "$DG_PROGS/fork" >f.out 2>f.err
check_eq "fork: exit status" 0 "$?" || diag_file f.err
[ -s child.pid ] || bail "the program wrote child.pid"
cpid=$(cat child.pid)
check_eq "fork: two databases" 2 "$(ls f.*.db | wc -l | tr -d ' ')"
pdb=$(ls f.*.db | grep -v -x "f.$cpid.db" | head -n 1)
w() { q "$1" "SELECT writes FROM blocks WHERE size = $2" | tr '\n' ' '; }
check_eq "fork: the child's database is f.$cpid.db, complete" 1 "$(meta f.$cpid.db complete)"
check_eq "fork: the child's pid in it" "$cpid" "$(meta f.$cpid.db pid)"
check_eq "fork: the parent's database, complete" 1 "$(meta "$pdb" complete)"
check_eq "fork: parent 222/333/444 writes" "11 | | 44 " "$(w "$pdb" 222)| $(w "$pdb" 333)| $(w "$pdb" 444)"
check_eq "fork: child 222/333/444 writes" "22 | 33 | " \
	"$(w f.$cpid.db 222)| $(w f.$cpid.db 333)| $(w f.$cpid.db 444)"
rm -f child.pid
"$DATAGRIND" -q --db="$PWD/g.db" "$DG_PROGS/fork" >/dev/null 2>g.err
cpid=$(cat child.pid)
check_eq "fork without %p: the child's database is g.db.$cpid" 1 "$(meta g.db.$cpid complete)"
check_eq "fork without %p: the parent's is g.db" 1 "$(meta g.db complete)"
mkdir x
(cd x && "$DATAGRIND" -q --trace-children=yes --db=x.%p.db "$DG_PROGS/forkexec" "$W" >out 2>err)
check_eq "exec child: exit status" 0 "$?" || diag_file x/err
n=0
for d in x/x.*.db; do
	case $(meta "$d" exe) in */writes) n=$((n + 1)); check_eq "exec child: its block" "100|100|400|400" "$(block400 "$d")" ;; esac
done
check_eq "exec child: one database is of the exec'd writes" 1 "$n"

# exec without --trace-children: the database is finished before it; a
# failed exec (ends.c badexec) is said, the database holds what came before
"$DATAGRIND" -q --db="$PWD/ex.db" "$DG_PROGS/ends" exec "$W" >ex.out 2>ex.err
check_eq "exec: the exec'd program ran" "sum 4950|sum 4950" "$(tr '\n' '|' <ex.out | sed 's/|$//')"
check_eq "exec: the database is complete, of ends" "1 ends" "$(meta ex.db complete) $(basename "$(meta ex.db exe)")"
check_eq "exec: ends's block" "100|100|400|400" "$(block400 ex.db)"
"$DATAGRIND" -q --db="$PWD/bx.db" "$DG_PROGS/ends" badexec >bx.out 2>bx.err
check_eq "failed exec: exit status 0" 0 "$?" || diag_file bx.err
check_eq "failed exec: said" 1 "$(grep -c "an exec failed after the database '$PWD/bx.db' was finished" bx.err)"
check_eq "failed exec: the database holds the run up to the exec" "1 100|100|400|400" \
	"$(meta bx.db complete) $(block400 bx.db)"

# ---- the import fails: the program's own status, the failure said
"$DG_PROGS/exitcode" a b >native.out 2>native.err </dev/null
nst=$?
"$DATAGRIND" -q --db="$PWD/nodir/x.db" "$DG_PROGS/exitcode" a b >e.out 2>e.err </dev/null
check_eq "failed import: the program's own exit status" "$nst" "$?"
check_eq "failed import: that is 3" 3 "$nst"
check_cmp "failed import: the program's stdout" native.out e.out
check_eq "failed import: dg-import says why" 1 \
	"$(grep -c "^dg-import: .*nodir/x.db.*cannot create the temporary database" e.err)"
check_eq "failed import: the tool says no database was written" 1 \
	"$(grep -c "the import into '$PWD/nodir/x.db' failed (dg-import exit status 1" e.err)"
check_eq "failed import: no file" "" "$(ls nodir 2>/dev/null)"

# ---- SIGKILL: never a half-written database
"$DATAGRIND" -q --db="$PWD/kill.db" sh -c 'while :; do :; done' >/dev/null 2>kill.err &
pid=$!
n=0
while ! ls kill.db.tmp.* >/dev/null 2>&1 && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
sleep 1
check_eq "killed: while it runs, only the temporary file exists" "no" \
	"$([ -e kill.db ] && echo yes || echo no)"
kill -9 $pid
wait $pid 2>/dev/null
n=0
while [ "$(importers "$PWD/kill.db")" != 0 ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
check_eq "killed: the importer ends" 0 "$(importers "$PWD/kill.db")"
check_eq "killed: no temporary file left" "" "$(ls kill.db.tmp.* 2>/dev/null)"
check_eq "killed: the database passes the integrity check" ok "$(q kill.db 'PRAGMA integrity_check')"
check_eq "killed: marked incomplete" 0 "$(meta kill.db complete)"
check_ge "killed: it holds what reached the importer" 1 "$(meta kill.db accesses)"

# ---- no importer to run
"$DATAGRIND" -q --db="$PWD/z.db" --db-importer="$PWD/nothere" "$W" >z.out 2>z.err
check_eq "no importer: exit status 1" 1 "$?"
check_eq "no importer: the program was not run" "" "$(cat z.out)"
check_eq "no importer: said" 1 "$(grep -c "cannot find dg-import at $PWD/nothere" z.err)"
finish
