#!/bin/sh
# bench/reuse.sh -- dgsql's .reuse (exact reuse distances) against .cache
# with one level, on the same database in one invocation.
#
# Usage: sh bench/reuse.sh [--runs N] [--rate R] DB
#
# Runs, interleaved N times [3]: `dgsql DB .reuse` (or `.reuse 64 R`) and
# `dgsql DB ".cache D1=32k:8:64"`, the peer: the same decoder and the same
# two-thread pipeline, a cheaper model.  Prints each run, then for each the
# minimum and the median wall time, accesses a second, and .reuse's time
# over .cache's.  This machine's speed drifts by up to 2x from one minute
# to the next, so the interleaving and the minimum matter; put DB on a
# tmpfs (/dev/shm) when the page cache does not keep it.  Figures only:
# nothing here asserts a time.
#
# Exit status: 0 done; 1 a run failed; 2 dgsql is not built; 64 usage.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
DGSQL=$TOP/build/bin/dgsql
RUNS=3
RATE=
usage() { echo "usage: sh bench/reuse.sh [--runs N] [--rate R] DB" >&2; exit 64; }
while [ $# -gt 0 ]; do
	case $1 in
	--runs) RUNS=${2:-}; shift 2 ;;
	--rate) RATE=${2:-}; shift 2 ;;
	-h|--help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
DB=$1
case $RUNS in ''|*[!0-9]*) usage ;; esac
[ -x "$DGSQL" ] || { echo "bench/reuse.sh: $DGSQL is missing (run make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/reuse.sh: /usr/bin/time is missing (Debian package time)" >&2; exit 2; }
N=$("$DGSQL" "$DB" "SELECT value FROM meta WHERE key = 'accesses'") ||
	{ echo "bench/reuse.sh: cannot read '$DB'" >&2; exit 1; }
REUSE=".reuse${RATE:+ 64 $RATE}"
OUT=$(mktemp) || exit 1
trap 'rm -f "$OUT"' EXIT
echo "database $DB: $N accesses; $RUNS runs of '$REUSE' and '.cache D1=32k:8:64', interleaved"
i=0
while [ $i -lt "$RUNS" ]; do
	for what in reuse cache; do
		if [ $what = reuse ]; then cmd=$REUSE; else cmd=".cache D1=32k:8:64"; fi
		/usr/bin/time -f "$what %e %M" -o "$OUT.t" "$DGSQL" "$DB" "$cmd" >/dev/null ||
			{ echo "bench/reuse.sh: '$cmd' failed" >&2; exit 1; }
		cat "$OUT.t" | tee -a "$OUT"
	done
	i=$((i + 1))
done
rm -f "$OUT.t"
sort -k1,1 -k2n "$OUT" | awk -v n="$N" '
	{ k = $1; c[k]++; t[k, c[k]] = $2; if ($3 > rss[k]) rss[k] = $3 }
	END {
		for (k in c) { mn[k] = t[k, 1]; md[k] = t[k, int((c[k] + 1) / 2)]
			printf "%-6s min %.2f s (%.1f M accesses/s), median %.2f s, RSS %d MB\n",
				k, mn[k], n / mn[k] / 1e6, md[k], rss[k] / 1024 }
		printf ".reuse / .cache: %.2f (minimums), %.2f (medians)\n",
			mn["reuse"] / mn["cache"], md["reuse"] / md["cache"] }'
