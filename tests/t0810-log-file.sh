#!/bin/sh
# t0810-log-file: how the tool creates its log and what it says when it
# cannot write it.
#   * under umask 022 the log is mode 0600, also when it replaces an
#     existing 0644 file, and so is a forked child's log;
#   * the replaced file is let go while the program still runs (the
#     helper closes its last descriptor, which frees its pages, off the
#     program's start-up): no process holds it open once the program runs;
#   * a symlink at the log's path is refused (exit 1, a message naming the
#     symlink, the program not run) and its target is untouched;
#   * a log that cannot be created (/nonexistent/x): exit 1 before the
#     program runs, the error in words, no "bytes written" line;
#   * a write that fails (/dev/full; a full 64 KiB tmpfs when mount works):
#     the program finishes with its own status and output, and the tool
#     says how many bytes reached the file (the file's real size) and why.
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
need_prog fork
need_prog exitcode
W=$DG_PROGS/writes
umask 022

mode_of() { stat -c %a "$1" 2>/dev/null || echo missing; }

run_dg new.log -- "$W" >/dev/null || finish
check_eq "a new log is mode 600 under umask 022" 600 "$(mode_of new.log)"
echo old >old.log
chmod 644 old.log
run_dg old.log -- "$W" >/dev/null || finish
check_eq "a replaced 644 log becomes mode 600" 600 "$(mode_of old.log)"

# The replaced log, while `cat` (the program) waits on a fifo we hold.
echo old >held.log
mkfifo hold.fifo
"$DATAGRIND" -q --datagrind-out-file=held.log cat <hold.fifo >held.out 2>held.err &
held_pid=$!
exec 3>hold.fifo
echo ready >&3
holders() {   # processes with the replaced held.log open
	for f in /proc/[0-9]*/fd/*; do
		readlink "$f" 2>/dev/null
	done | grep -c "^$PWD/held.log (deleted)\$"
}
i=0
while { [ "$(cat held.out)" != ready ] || [ "$(holders)" != 0 ]; } && [ $i -lt 400 ]; do
	sleep 0.05
	i=$((i + 1))
done
check_eq "replaced log: the program runs" ready "$(cat held.out)"
check_eq "replaced log: nobody holds the old file once the program runs" 0 "$(holders)"
exec 3>&-
wait $held_pid
check_eq "replaced log: exit status" 0 "$?"
check_eq "replaced log: the new log is complete" 1 \
	"$("$DG_DUMP" --stats held.log | grep -c '^complete 1$')"

mkdir fork && (cd fork && "$DATAGRIND" -q "$DG_PROGS/fork" >out 2>err)
check_eq "fork: exit status" 0 "$?"
check_eq "fork: two logs, both mode 600" "600 600" \
	"$(for l in fork/datagrind.out.*; do mode_of "$l"; done | tr '\n' ' ' | sed 's/ $//')"

# A symlink at the log's path.
echo "precious" >target
ln -s target link.log
"$DATAGRIND" --datagrind-out-file=link.log "$W" >sym.out 2>sym.err
check_eq "symlink: exit status 1" 1 "$?"
check_eq "symlink: the message names it" 1 \
	"$(grep -c "cannot create the log '.*link.log': it is a symbolic link" sym.err)" ||
	diag_file sym.err
check_eq "symlink: the target is untouched" precious "$(cat target)"
check_eq "symlink: still a symlink" yes "$([ -L link.log ] && echo yes || echo no)"
check_eq "symlink: the program did not run" "" "$(cat sym.out)"

# A log that cannot be created.
"$DATAGRIND" --datagrind-out-file=/nonexistent/x "$W" >none.out 2>none.err
check_eq "no directory: exit status 1" 1 "$?"
check_eq "no directory: the error in words" 1 \
	"$(grep -c "cannot create the log '/nonexistent/x': No such file or directory" none.err)" ||
	diag_file none.err
check_eq "no directory: no claim of bytes written" 0 "$(grep -c 'bytes written' none.err)"
check_eq "no directory: the program did not run" "" "$(cat none.out)"

# Writes that fail: /dev/full, then a small tmpfs.
"$DATAGRIND" --datagrind-out-file=/dev/full "$DG_PROGS/exitcode" a >full.out 2>full.err </dev/null
check_eq "/dev/full: the program's own exit status" 3 "$?"
check_eq "/dev/full: the program's output" "arg 1 [a]|stdin 0 bytes" "$(tr '\n' '|' <full.out | sed 's/|$//')"
check_eq "/dev/full: the failure, with the bytes that reached the file" 1 \
	"$(grep -c "writing the log '/dev/full' failed after 0 bytes: No space left on device" full.err)" ||
	diag_file full.err
check_eq "/dev/full: the closing line says what reached the file" 1 \
	"$(grep -c "the log '/dev/full' is truncated: 0 bytes reached it (No space left on device)" full.err)"
check_eq "/dev/full: no claim of bytes written" 0 "$(grep -c 'bytes written' full.err)"

mkdir small
if mount -t tmpfs -o size=64k,mode=700 tmpfs small 2>/dev/null; then
	trap 'umount "$DG_TEST_TMP/small" 2>/dev/null' EXIT
	"$DATAGRIND" --datagrind-out-file=small/w.log "$W" >small.out 2>small.err
	check_eq "full tmpfs: the program's own exit status" 0 "$?"
	check_eq "full tmpfs: the program's output" "sum 4950" "$(cat small.out)"
	size=$(wc -c <small/w.log | tr -d ' ')
	check_gt "full tmpfs: part of the log was written" 0 "$size"
	said=$(sed -n "s/.*the log '.*small\/w.log' is truncated: \([0-9]*\) bytes reached it (No space left on device).*/\1/p" small.err)
	check_eq "full tmpfs: the closing line gives the file's size" "$size" "$said" ||
		diag_file small.err
	check_status "full tmpfs: dg-dump --check calls the log bad" 1 "$DG_DUMP" --check small/w.log
	umount small && trap - EXIT
else
	ok "# SKIP full tmpfs: cannot mount a tmpfs here (not root?)"
fi
finish
