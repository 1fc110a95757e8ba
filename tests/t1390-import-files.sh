#!/bin/sh
# t1390-import-files: the files dg-import makes and refuses to touch.
#   - under umask 022 the database and its temporary file are mode 600
#   - DATABASE naming the log itself (the same path, a symlink, a hard link,
#     standard input redirected from it) is refused with and without
#     --force: exit 1, a message, the log unchanged (checksum)
#   - SIGTERM, SIGINT, SIGHUP in the middle of an import (the log arrives
#     through a FIFO that the test holds open, so the import is provably
#     under way: its temporary file exists): exit status 128+N, nothing left
#     beside the target
#   - after SIGKILL the temporary file stays; the next import into the same
#     directory removes it and says so on stderr
#   - a file at the temporary name of a live process is neither removed
#     nor written: the import fails (O_EXCL) and the file keeps its bytes;
#     same for a symlink there (its target untouched); a leftover of a dead
#     process that is not a regular file, or not the user's, is reported,
#     not removed
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_import
need_cmd mkfifo
LOG=$DG_TESTS/fixtures/writes-fill.dg
SIZE=$(wc -c <"$LOG" | tr -d ' ')
umask 022

mode() { stat -c %a "$1" 2>/dev/null || echo missing; }
beside() { # beside DB: the files named DB*, space-separated
	ls -d "$1"* 2>/dev/null | tr '\n' ' '
}
has() { # has FILE TEXT
	if grep -qF -- "$2" "$1"; then echo yes; else echo "no: $(head -c 300 "$1")"; fi
}

# ---- modes
import_ok "$LOG" m.db
check_eq "umask 022: the database is mode 600" 600 "$(mode m.db)"

# ---- the log as its own target
cp "$LOG" self.dg
ln -s self.dg link.dg
ln self.dg hard.dg
sum0=$(cksum <self.dg)
for t in self.dg link.dg hard.dg "$PWD/./self.dg"; do
	for f in "" --force; do
		"$DG_IMPORT" -q $f self.dg "$t" >out 2>err
		check_eq "dg-import $f self.dg $t: exit 1" 1 "$?"
		check_eq "... the message says it is the log" yes "$(has err "is the log self.dg itself")"
	done
done
"$DG_IMPORT" -q --force link.dg hard.dg >out 2>err
check_eq "dg-import --force link.dg hard.dg: exit 1" 1 "$?"
"$DG_IMPORT" -q --force - self.dg <self.dg >out 2>err
check_eq "dg-import --force - self.dg < self.dg: exit 1" 1 "$?"
check_eq "the log is unchanged (checksum)" "$sum0" "$(cksum <self.dg)"
check_eq "no temporary file beside it" "" "$(ls self.dg.tmp.* 2>/dev/null)"

# ---- signals in the middle of an import
# start_fed DB: dg-import reading the first half of the log from a FIFO
# held open on descriptor 3 (so it waits for the rest); sets PID.
# Signals reset to their defaults, as a shell's background job has INT
# ignored.  Returns 1 if its temporary file never appears.
start_fed() {
	rm -f fifo
	mkfifo fifo
	env --default-signal=INT,HUP,TERM "$DG_IMPORT" -q - "$1" <fifo >fed.out 2>fed.err &
	PID=$!
	exec 3>fifo
	head -c $((SIZE / 2)) "$LOG" >&3
	_i=0
	while [ ! -e "$1.tmp.$PID" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -e "$1.tmp.$PID" ]
}
stop_fed() { # stop_fed: close the FIFO, reap the import; sets ST
	exec 3>&-
	wait "$PID"
	ST=$?
}
for s in TERM:15 INT:2 HUP:1; do
	name=${s%:*} n=${s#*:}
	db=sig$name.db
	if ! start_fed "$db"; then
		not_ok "SIG$name: the import is under way (its temporary file exists)"
		stop_fed
		continue
	fi
	[ "$name" = TERM ] && check_eq "the temporary file is mode 600 (umask 022)" 600 "$(mode "$db.tmp.$PID")"
	kill -s "$name" "$PID"
	stop_fed
	check_eq "SIG$name mid-import: exit status $((128 + n))" $((128 + n)) "$ST"
	check_eq "SIG$name mid-import: nothing left beside $db" "" "$(beside "$db")"
done

# ---- SIGKILL, then the next import cleans up
if start_fed k.db; then
	kpid=$PID
	kill -s KILL "$PID"
	stop_fed
	check_eq "SIGKILL: the temporary file stays" "k.db.tmp.$kpid " "$(beside k.db.tmp)"
	"$DG_IMPORT" -q "$LOG" k.db >out 2>err
	check_eq "the next import: exit 0" 0 "$?"
	check_eq "... says it removed the leftover" yes \
		"$(has err "removed ./k.db.tmp.$kpid, left by import process $kpid")"
	check_eq "... and only the database is left" "k.db " "$(beside k.db)"
	check_eq "... mode 600" 600 "$(mode k.db)"
else
	not_ok "SIGKILL: the import is under way"
	stop_fed
fi

# ---- files at the temporary name that are not ours to remove
rm -f fifo
mkfifo fifo
"$DG_IMPORT" -q - x.db <fifo >x.out 2>x.err &
PID=$!
printf 'precious\n' >"x.db.tmp.$PID"      # a live process's name
echo secret >victim
ln -s victim "y.db.tmp.$PID"
cat "$LOG" >fifo
wait "$PID"
check_eq "a file at the temporary name: the import fails" 1 "$?"
check_eq "... saying it cannot create the temporary file" yes "$(has x.err "cannot create the temporary database")"
check_eq "... the file keeps its bytes" precious "$(cat "x.db.tmp.$PID")"
check_eq "... no database" no "$([ -e x.db ] && echo yes || echo no)"
# that process is gone now: the symlink under its pid is reported, not
# removed, by the next import beside it
"$DG_IMPORT" -q "$LOG" y.db >out 2>err
check_eq "a symlink left under a dead pid's name: the import succeeds" 0 "$?"
check_eq "... the symlink is still there" yes "$([ -L "y.db.tmp.$PID" ] && echo yes || echo no)"
check_eq "... and reports it, not ours" yes "$(has err "y.db.tmp.$PID was left by process $PID")"
check_eq "... the symlink's target is untouched" secret "$(cat victim)"
# a regular file of another owner under a dead pid's name (needs root to
# make one): reported, not removed
true &
dead=$!
wait "$dead"
echo other >"z.db.tmp.$dead"
if chown nobody "z.db.tmp.$dead" 2>/dev/null; then
	"$DG_IMPORT" -q "$LOG" z.db >out 2>err
	check_eq "another owner's leftover: the import succeeds" 0 "$?"
	check_eq "... the file stays" other "$(cat "z.db.tmp.$dead")"
	check_eq "... and is reported" yes "$(has err "z.db.tmp.$dead was left by process $dead")"
else
	ok "# skip another owner's leftover: chown needs root"
fi
finish
