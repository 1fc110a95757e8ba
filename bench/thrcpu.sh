#!/bin/sh
# bench/thrcpu.sh: the CPU time of each thread of a command.
#
#     sh bench/thrcpu.sh COMMAND [ARG...]
#
# Runs COMMAND, reads /proc/PID/task/*/stat every 0.1 s while it runs and
# prints, per thread id (in creation order: for dg-import the import
# thread, the chunk writer, then the stages imp_sum and imp_win), the last
# user + system time seen, in seconds, then their total.  A thread's last
# 0.1 s may be missed.  COMMAND's output goes where this script's does;
# the exit status is COMMAND's.  Asserts nothing.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
set -u
if [ $# -eq 0 ] || [ "$1" = --help ]; then
	echo "usage: sh bench/thrcpu.sh COMMAND [ARG...]" >&2
	[ $# -eq 0 ] && exit 64
	exit 0
fi
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
"$@" &
pid=$!
hz=$(getconf CLK_TCK)
while kill -0 "$pid" 2>/dev/null; do
	for f in /proc/"$pid"/task/*/stat; do
		# the fields after "(comm) ": state is 1, utime 12, stime 13
		awk -v hz="$hz" '{ t = FILENAME; sub(/\/stat$/, "", t); sub(/.*\//, "", t);
			sub(/^.*\) /, ""); print t, ($12 + $13) / hz }' "$f" 2>/dev/null
	done >>"$tmp"
	sleep 0.1
done
wait "$pid"
rc=$?
awk '{ last[$1] = $2 } END { for (t in last) print t, last[t] }' "$tmp" | sort -n |
	awk '{ print "thread", $1, $2; s += $2 } END { print "total", s + 0 }'
exit $rc
