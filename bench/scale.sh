#!/bin/sh
# bench/scale.sh: Datagrind at a billion accesses (issue 9).
#
#     sh bench/scale.sh [--program xz|cc1] [--dir DIR] [--bytes N] [--funcs N] [--keep]
#
# Traces a program with a billion accesses:
#   xz   (the default) `xz -9 -T1` compressing N bytes (default 2800000:
#        about 1.5 G accesses, a 3.4 GB log) of seeded English-like text
#        (the generator is bench/real.sh's gen_text);
#   cc1  `gcc -O2 -c` of bench/gencc.py --funcs N (default 100: 2 200
#        lines; 1.48 G accesses under 4.09 M contexts, 3.97 M distinct call
#        stacks, a 2.7 GB log), every process traced, cc1's log kept (the
#        largest): the log where contexts and stacks dominate;
# then reports, in one run:
#   - decode speed: `dg-dump --stats`, three times, with two imports
#     between them (decode, import, decode, import, decode);
#   - import speed, and its ratio to the decoder's (issue 9 target >= 0.4):
#     each import's against the decode just before it, since the host's
#     speed drifts within minutes, and the best import's against the best
#     decode;
#   - the import's peak RSS (target < 300 MB) and the database's bytes per
#     access (target <= 3), with the biggest tables;
#   - the import's CPU time (its threads: cores busy on average) and
#     the machine's load before and after, since other work shares the
#     cores: compare figures only within one run;
#   - `dgsql --report` of the database (issue [11] target <= 10 s): its
#     time and peak RSS;
#   - xz only: recording straight into a database (`datagrind --db`, issue 9 §2):
#     the same xz run traced into a pipe that dg-import reads; its speed
#     in accesses/s against the plain log's and against log-then-import
#     (trace + import), its peak RSS (the tool's or the importer's, the
#     larger), and its database's accesses against the log's.  The plain
#     log's time is known only when this run traced it (else "reused").
# The log is reused when DIR/PROGRAM's input (text.txt, gen.c) equals the
# generated one and the log is newer than it (tracing takes minutes).  The
# database is DIR/scale.db, removed at the end unless --keep.  Asserts
# nothing about time.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/build
DIR=$B/bench/scale
BYTES=2800000
FUNCS=100
PROGRAM=xz
KEEP=no
usage() {
	echo "usage: sh bench/scale.sh [--program xz|cc1] [--dir DIR] [--bytes N] [--funcs N] [--keep]" >&2
	exit 64
}
while [ $# -gt 0 ]; do
	case $1 in
	--program) shift; PROGRAM=${1:-} ;;
	--dir) shift; DIR=${1:?--dir needs a directory} ;;
	--bytes) shift; BYTES=${1:?--bytes needs a number} ;;
	--funcs) shift; FUNCS=${1:?--funcs needs a number} ;;
	--keep) KEEP=yes ;;
	*) usage ;;
	esac
	shift
done
case $BYTES in ''|*[!0-9]*) echo "scale.sh: --bytes needs a positive integer" >&2; exit 64 ;; esac
case $FUNCS in ''|*[!0-9]*) echo "scale.sh: --funcs needs a positive integer" >&2; exit 64 ;; esac
case $PROGRAM in xz|cc1) ;; *) usage ;; esac
for x in datagrind dg-dump dg-import dgsql; do
	[ -x "$B/bin/$x" ] || { echo "scale.sh: $B/bin/$x missing (run make)" >&2; exit 2; }
done
for t in xz gcc python3 sqlite3 /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "scale.sh: '$t' is not installed" >&2; exit 2; }
done
mkdir -p "$DIR" || exit 1
LOG=$DIR/$PROGRAM.dg
traced=reused
DB=$DIR/scale.db
umask 077

. "$TOP/bench/gen.sh"   # gen_text, as bench/real.sh uses it

# ---------------------------------------------------------------- the log
# trace_program: the log of PROGRAM into $LOG
trace_program() {
	case $PROGRAM in
	xz)
		echo "scale.sh: tracing xz -9 -T1 on $BYTES bytes into $LOG"
		/usr/bin/time -f '%e' -o "$DIR/trace.time" "$B/bin/datagrind" -q \
			--datagrind-out-file="$LOG" xz -9 -T1 -c "$DIR/text.txt" >/dev/null ;;
	cc1)
		echo "scale.sh: tracing gcc -O2 -c of gencc.py --funcs $FUNCS into $LOG"
		rm -f "$LOG".*
		/usr/bin/time -f '%e' -o "$DIR/trace.time" "$B/bin/datagrind" -q \
			--trace-children=yes --datagrind-out-file="$LOG.%p" \
			gcc -O2 -c "$DIR/gen.c" -o "$DIR/gen.o" &&
		mv "$(ls -S "$LOG".* | head -n 1)" "$LOG" && rm -f "$LOG".* ;;
	esac
}
case $PROGRAM in
xz) INPUT=$DIR/text.txt; gen_text "$BYTES" >"$INPUT.new" || exit 1 ;;
cc1) INPUT=$DIR/gen.c; python3 "$TOP/bench/gencc.py" --funcs "$FUNCS" >"$INPUT.new" || exit 1 ;;
esac
if [ -f "$LOG" ] && [ -f "$INPUT" ] && cmp -s "$INPUT.new" "$INPUT" && [ "$LOG" -nt "$INPUT" ]; then
	rm -f "$INPUT.new"
	echo "scale.sh: reusing $LOG (its input matches)"
else
	mv "$INPUT.new" "$INPUT" || exit 1
	rm -f "$LOG"
	trace_program || { echo "scale.sh: tracing failed" >&2; rm -f "$LOG"; exit 1; }
	echo "scale.sh: traced in $(cat "$DIR/trace.time") s"
	traced=$(cat "$DIR/trace.time")
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
# decode: "seconds accesses"
decode() {
	/usr/bin/time -f '%e' -o "$DIR/dump.time" "$B/bin/dg-dump" --stats "$LOG" >"$DIR/dump.out" ||
		{ echo "scale.sh: dg-dump failed" >&2; exit 1; }
	echo "$(cat "$DIR/dump.time") $(awk '$1 == "accesses" { print $2 }' "$DIR/dump.out")"
}

echo "scale.sh: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cpus, log $(wc -c <"$LOG" | tr -d ' ') bytes"
load0=$(load)
# import: "seconds peak-RSS-KiB cpu-seconds", into $DB (replaced)
import_db() {
	rm -f "$DB"
	/usr/bin/time -f '%e %M %U %S' -o "$DIR/import.time" "$B/bin/dg-import" -q "$LOG" "$DB" \
		2>"$DIR/import.err" ||
		{ echo "scale.sh: dg-import failed:" >&2; cat "$DIR/import.err" >&2; exit 1; }
	awk '{ print $1, $2, $3 + $4 }' "$DIR/import.time"
}
set -- $(decode); dec1=$1 acc=$2
set -- $(import_db); imp1=$1 rss1=$2 cpu1=$3
set -- $(decode); dec2=$1
set -- $(import_db); imp2=$1 rss2=$2 cpu2=$3
set -- $(decode); dec3=$1
load1=$(load)
dbb=$(wc -c <"$DB" | tr -d ' ')

awk -v acc="$acc" -v d1="$dec1" -v d2="$dec2" -v d3="$dec3" -v i1="$imp1" -v i2="$imp2" \
    -v r1="$rss1" -v r2="$rss2" -v c1="$cpu1" -v c2="$cpu2" -v dbb="$dbb" \
    -v l0="$load0" -v l1="$load1" 'BEGIN {
	dec = d1 < d2 ? d1 : d2
	dec = d3 < dec ? d3 : dec
	imp = i1 < i2 ? i1 : i2
	printf "%-30s %s\n", "accesses", acc
	printf "%-30s %s before, %s after\n", "load average (1 5 15 min)", l0, l1
	printf "%-30s %.2f s, %.2f s, %.2f s (%.1f M accesses/s at best)\n", "decode (dg-dump --stats)",
		d1, d2, d3, acc / dec / 1e6
	printf "%-30s %.2f s, %.2f s (%.1f M accesses/s at best)\n", "import (dg-import)", i1, i2,
		acc / imp / 1e6
	printf "%-30s %.1f s, %.1f s user+sys: %.2f, %.2f cores busy on average\n", "import CPU",
		c1, c2, c1 / i1, c2 / i2
	printf "%-30s %.2f, %.2f of the decode before each; best %.2f of best (target >= 0.4)\n",
		"import / decode speed", d1 / i1, d2 / i2, dec / imp
	printf "%-30s %.1f MB (target < 300)\n", "import peak RSS", (r1 > r2 ? r1 : r2) / 1024
	printf "%-30s %.2f (target <= 3)\n", "database bytes/access", dbb / acc
}'
sqlite3 "$DB" "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6" 2>/dev/null |
	awk -F'|' -v acc="$acc" '{ printf "  %-28s %8.1f MB %6.3f B/access\n", $1, $2 / 1048576, $2 / acc }'

# ---------------------------------------------------------------- the report
rm -rf "$DIR/report"
/usr/bin/time -f '%e %M' -o "$DIR/report.time" "$B/bin/dgsql" "$DB" --report "$DIR/report" \
	>/dev/null 2>"$DIR/report.err" ||
	{ echo "scale.sh: dgsql --report failed:" >&2; cat "$DIR/report.err" >&2; exit 1; }
awk '{ printf "%-30s %.2f s, peak RSS %.1f MB (target <= 10 s)\n", "dgsql --report", $1, $2 / 1024 }' \
	"$DIR/report.time"
rm -rf "$DIR/report" "$DIR/report.time" "$DIR/report.err"

# ---------------------------------------------------------------- record into a database
RDB=$DIR/rec.db
if [ "$PROGRAM" != xz ]; then
	echo "scale.sh: --db is timed on xz only (a child's database needs a name a process)"
	[ "$KEEP" = yes ] || rm -f "$DB"
	rm -f "$DIR/dump.out" "$DIR/dump.time" "$DIR/import.time" "$DIR/import.err"
	exit 0
fi
rm -f "$RDB"
/usr/bin/time -f '%e %M' -o "$DIR/rec.time" "$B/bin/datagrind" -q --db="$RDB" \
	xz -9 -T1 -c "$DIR/text.txt" >/dev/null 2>"$DIR/rec.err" ||
	{ echo "scale.sh: datagrind --db failed:" >&2; cat "$DIR/rec.err" >&2; exit 1; }
[ -s "$DIR/rec.err" ] && { echo "scale.sh: datagrind --db said:" >&2; cat "$DIR/rec.err" >&2; }
set -- $(cat "$DIR/rec.time"); rec=$1 rrss=$2
racc=$(sqlite3 "$RDB" "SELECT value FROM meta WHERE key = 'accesses'")
rcomplete=$(sqlite3 "$RDB" "SELECT value FROM meta WHERE key = 'complete'")
awk -v acc="$acc" -v racc="$racc" -v rec="$rec" -v rrss="$rrss" -v tr="$traced" \
    -v imp="$imp2" -v rc="$rcomplete" -v l="$(load)" 'BEGIN {
	printf "%-30s %s\n", "load average, after --db", l
	if (tr == "reused")
		printf "%-30s reused (run with a fresh --dir to time it)\n", "plain log (datagrind)"
	else
		printf "%-30s %.2f s (%.1f M accesses/s)\n", "plain log (datagrind)", tr, acc / tr / 1e6
	if (tr != "reused")
		printf "%-30s %.2f s (%.1f M accesses/s)\n", "log, then import", tr + imp, acc / (tr + imp) / 1e6
	printf "%-30s %.2f s (%.1f M accesses/s), peak RSS %.1f MB\n", "record into a database (--db)", rec, racc / rec / 1e6, rrss / 1024
	if (tr != "reused")
		printf "%-30s %.2f of log-then-import, %.2f of the plain log\n", "--db / other speeds", (tr + imp) / rec, tr / rec
	printf "%-30s %s (the log: %s), complete %s\n", "--db database accesses", racc, acc, rc
}'

# ---------------------------------------------------------------- queries
# The first questions on $DB (issue 9 §3: canned queries unfiltered and
# with each filter kind, a filtered plot, a full-scan aggregate against the
# vtab ceiling) go here.

[ "$KEEP" = yes ] || rm -f "$DB" "$RDB"
rm -f "$DIR/rec.time" "$DIR/rec.err" "$DIR/dump.out" "$DIR/dump.time" "$DIR/import.time" "$DIR/import.err"
