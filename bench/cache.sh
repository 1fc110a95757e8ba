#!/bin/sh
# bench/cache.sh -- dgsql's .cache against cachegrind on the same program.
#
# Usage: sh bench/cache.sh [--geometry D1=S:W:L[,LL=S:W:L]] [--runs N] -- PROGRAM [ARGS]
#
# Traces PROGRAM once with Datagrind and imports it (build/bench/cache/),
# then in this one invocation times, each the median of N runs [3]:
#   - valgrind --tool=none PROGRAM (the floor of any run under Valgrind);
#   - valgrind --tool=cachegrind --cache-sim=yes with the same D1 (and LL)
#     PROGRAM: what a user re-runs for each geometry;
#   - dgsql DB ".cache GEOMETRY": the same question from the trace;
# and prints the accesses simulated, accesses/s, and .cache's time over
# cachegrind's and over none's.  Figures only: nothing here asserts a time.
#
# Exit status: 0 done; 1 a run failed; 2 the tools are not built; 64 usage.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/build
GEOM="D1=32k:8:64,LL=8M:16:64"
RUNS=3
while [ $# -gt 0 ]; do
	case $1 in
	--geometry) GEOM=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "usage: sh bench/cache.sh [--geometry D1=S:W:L[,LL=S:W:L]] [--runs N] -- PROGRAM [ARGS]" >&2
	   exit 64 ;;
	esac
done
[ $# -gt 0 ] || { echo "bench/cache.sh: no program given" >&2; exit 64; }
for t in datagrind dg-import dgsql; do
	[ -x "$B/bin/$t" ] || { echo "bench/cache.sh: $B/bin/$t is missing (run make)" >&2; exit 2; }
done
W=$B/bench/cache
mkdir -p "$W"
# cachegrind's form of the geometry: D1=32k:8:64 -> --D1=32768,8,64
cg_args=$(echo "$GEOM" | tr ',' '\n' | awk -F'[=:]' '{
	s = $2; m = 1
	if (s ~ /[kK]$/) { m = 1024; sub(/[kK]$/, "", s) } else if (s ~ /[mM]$/) { m = 1048576; sub(/[mM]$/, "", s) }
	printf "--%s=%d,%d,%d ", ($1 == "LL" ? "LL" : $1), s * m, $3, $4 }')
dg_geom=$(echo "$GEOM" | tr ',' ' ')

"$B/bin/datagrind" --datagrind-out-file="$W/trace.log" "$@" >/dev/null 2>"$W/trace.err" ||
	{ echo "bench/cache.sh: tracing failed (see $W/trace.err)" >&2; exit 1; }
"$B/bin/dg-import" -q --force "$W/trace.log" "$W/trace.db" || exit 1
rm -f "$W/trace.log"

# median SECONDS of RUNS runs of a command
median() {
	i=0
	while [ $i -lt "$RUNS" ]; do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || { echo "bench/cache.sh: failed: $*" >&2; exit 1; }
		echo "$(date +%s.%N) - $s" | bc
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
# shellcheck disable=SC2086
t_none=$(median valgrind --tool=none "$@")
# shellcheck disable=SC2086
t_cg=$(median valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
	$cg_args "$@")
t_dg=$(median "$B/bin/dgsql" "$W/trace.db" ".cache $dg_geom")
n=$("$B/bin/dgsql" "$W/trace.db" "SELECT value FROM meta WHERE key = 'accesses'")
echo "program            $*"
echo "geometry           $dg_geom"
echo "accesses           $n"
echo "none               $t_none s"
echo "cachegrind         $t_cg s"
echo ".cache             $t_dg s ($(echo "$n / $t_dg / 1000000" | bc) M accesses/s)"
echo ".cache/cachegrind  $(echo "scale=3; $t_dg / $t_cg" | bc)"
echo ".cache/none        $(echo "scale=3; $t_dg / $t_none" | bc)"
