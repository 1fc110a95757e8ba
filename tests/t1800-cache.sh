#!/bin/sh
# t1800-cache: dgsql's .cache (dgsql/cache.h) against cachegrind, the
# oracle.  tests/progs/cache/cachesim.c (-O2, static arrays only) runs the
# cases of cachegrind's modelling: a read-modify-write instruction (one
# read), a locked one (two reads), accesses straddling two lines (one
# reference, one miss if either line missed), fxsave's 512-byte dirty
# helper (clamped to a line), xchg, and ordinary sweeps and a transpose.
# For each of its functions, D1 reads, writes, read misses and write
# misses from .cache D1=1024:2:64 over its trace equal cachegrind's
# Dr, Dw, D1mr, D1mw with the same D1, run with the IR datagrind sees
# (no chasing, registers unwound at memory accesses); with I1 and a
# unified LL too, its instruction fetches and their I1 and LL misses, and
# its data's LL misses, equal Ir, I1mr, ILmr, DLmr and DLmw.  Cachegrind names a
# gcc clone by its symbol (rmw_add.constprop.0), the trace by the
# function (rmw_add): the suffix is dropped to compare.  The whole
# program's totals cannot agree (datagrind replaces malloc and its
# preload moves the stack), so only the program's own functions count.
# Then: a geometry that is no power of two, zero ways, a line larger than
# the cache, an unknown level: an error naming it; a filter that matches
# nothing gives empty tables; the canned queries read them; a level below
# D1 gets D1's misses as its references.  .reuse's exact reuse distances
# give the misses of fully associative LRU caches of 1 to 1024 lines as
# .cache simulates them.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
. "$DG_TESTS/lib-report.sh"      # demo_db
need_tool
need_dgsql
need_cmd valgrind
need_prog cachesim
P=$DG_PROGS/cachesim
FNS="rmw_add rmw_lock_add rmw_straddle store_straddle straddle_both_miss straddle_one_miss do_fxsave do_xchg fill transpose sweep"

valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=cg.out \
	--I1=1024,2,64 --D1=1024,2,64 --LL=8192,4,64 --vex-guest-chase=no \
	--px-default=unwindregs-at-mem-access --px-file-backed=unwindregs-at-mem-access \
	"$P" >cg.stdout 2>cg.err
check_eq "cachegrind: exit status 0" 0 "$?" || diag_file cg.err 10
# cg_sum BY EVENTS: cg.out's counts of the compared functions (FNS), summed
# by function (BY fn: over its lines and files; the name without GCC's
# .constprop.N and the like) or by line of cachesim.c (BY line), a column
# per event of EVENTS in that order.
cg_sum() {
	awk -v want="$FNS" -v by="$1" -v evs="$2" '
	BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) keep[w[i]] = 1
		ne = split(evs, ev, " ") }
	/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
	/^fl=/ { fn = ""; mine = $0 ~ /\/cachesim\.c$/ }
	/^fn=/ { fn = substr($0, 4); sub(/\.(constprop|isra|part|cold)\.[0-9]+$/, "", fn) }
	/^[0-9]/ && (fn in keep) && (by == "fn" || mine) { k = by == "fn" ? fn : $1; seen[k] = 1
		for (i = 1; i <= ne; i++) sum[k, i] += $col[ev[i]] }
	END { for (k in seen) { out = k; for (i = 1; i <= ne; i++) out = out " " sum[k, i]; print out } }' cg.out
}
# per function: Dr Dw D1mr D1mw
cg_sum fn "Dr Dw D1mr D1mw" | sort >cg.fns
check_eq "cachegrind: every function of the program counted" "$(echo $FNS | wc -w)" "$(wc -l <cg.fns)"

_trace_db t.db cachesim || finish
check_eq "traced: the program's output" "$(cat cg.stdout)" "$(cat dg.out)"
"$DGSQL" t.db ".cache D1=1024:2:64" >cache.out 2>cache.err
check_eq ".cache D1=1024:2:64: exit status 0" 0 "$?" || diag_file cache.err 5
in_list=$(echo "$FNS" | sed "s/\([a-z_]*\)/'\1'/g; s/ /, /g")
dq t.db ".cache D1=1024:2:64" "SELECT function, reads, writes, read_misses, write_misses FROM cache_fn
	WHERE level = 1 AND function IN ($in_list)" | sed 1d | tr '|' ' ' | sort >dg.fns
check_cmp "per function: D1 reads, writes, read and write misses = cachegrind's" cg.fns dg.fns
check_gt "misses to compare: transpose's write misses" 1000 "$(awk '$1 == "transpose" { print $5 }' cg.fns)"
check_eq "a read-modify-write is one read: rmw_add" "rmw_add 1001 0 1 0" "$(grep '^rmw_add ' dg.fns)"
check_eq "a straddle that misses both lines is one miss: straddle_both_miss" \
	"straddle_both_miss 5001 0 5000 0" "$(grep '^straddle_both_miss ' dg.fns)"
check_eq "the totals line: D1's reads, every read of the trace" \
	"$(dq t.db "SELECT count(*) FROM accesses WHERE NOT is_write")" \
	"$(awk -F'|' '$2 == "D1" { print $4 }' cache.out)"

# The whole hierarchy, cachegrind's: I1's fetches (every instruction of
# every run, before its data accesses) and D1's misses go to the unified
# LL.  Per function: Ir, I1mr and ILmr (cache_code by address, a function
# an address range of nm's) and DLmr, DLmw (cache_fn's LL) = cachegrind's.
cg_sum fn "Ir I1mr ILmr DLmr DLmw" | sort >cg.all
nm -S --defined-only "$P" | while read -r a sz t n; do
	case $t in t | T) echo "$((0x$a)) $((0x$a + 0x$sz)) $(echo "$n" | sed -E 's/\.(constprop|isra|part|cold)\.[0-9]+$//')" ;; esac
done >syms
G3="I1=1024:2:64 D1=1024:2:64 LL=8192:4:64"
dq t.db ".cache $G3" "SELECT level, addr, fetches, misses FROM cache_code" | sed 1,3d | tr '|' ' ' >code.tab
dq t.db ".cache $G3" "SELECT function, read_misses, write_misses FROM cache_fn WHERE level = 2
	AND function IN ($in_list)" | sed 1,3d | tr '|' ' ' | sort >dl.tab
awk 'NR == FNR { lo[NR] = $1; hi[NR] = $2; nm[NR] = $3; n = NR; next }
	FILENAME == ARGV[2] { for (i = 1; i <= n; i++) if ($2 >= lo[i] && $2 < hi[i]) {
		if ($1 == 0) { ir[nm[i]] += $3; i1[nm[i]] += $4 } else il[nm[i]] += $4 } ; next }
	{ print $1, ir[$1] + 0, i1[$1] + 0, il[$1] + 0, $2, $3 }' syms code.tab dl.tab >dg.all
check_cmp "$G3, per function: Ir, I1mr, ILmr, DLmr, DLmw = cachegrind's" cg.all dg.all
check_gt "instruction fetches compared: sweep's" 10000 "$(awk '$1 == "sweep" { print $2 }' dg.all)"
check_eq "I1 under a filter: an error" "1 1" \
	"$("$DGSQL" t.db --events fn:main ".cache $G3" >/dev/null 2>i1.err; echo $?) $(grep -c 'I1: instruction fetches need the whole trace' i1.err)"

# by line of code: cachesim.c's lines in the compared functions, Dr, Dw,
# D1mr and D1mw = cachegrind's per line (both read the line table)
cg_sum line "Dr Dw D1mr D1mw" | awk '$2 + $3 > 0' | sort -n >cg.lines
dq t.db ".cache D1=1024:2:64" "SELECT line, reads, writes, read_misses, write_misses FROM cache_src
	WHERE level = 1 AND file LIKE '%cachesim.c' AND line IN ($(cut -d' ' -f1 cg.lines | paste -sd,))" |
	sed 1d | tr '|' ' ' | sort -n >dg.lines
check_cmp "per line of code (cache_src): D1 reads, writes, read and write misses = cachegrind's" cg.lines dg.lines
check_gt "lines compared" 10 "$(wc -l <cg.lines)"

# two levels: the second gets the first's misses
dq t.db ".cache D1=1024:2:64 LL=8192:4:64" "SELECT
	(SELECT sum(read_misses) || ' ' || sum(write_misses) FROM cache_pc WHERE level = 1),
	(SELECT sum(reads) || ' ' || sum(writes) FROM cache_pc WHERE level = 2)" | sed 1,2d >l2
check_eq "LL's references are D1's misses" "$(cut -d'|' -f1 l2)" "$(cut -d'|' -f2 l2)"
dq t.db ".cache D1=1024:2:64 LL=8192:4:64" ".q cache_misses" | sed 1,2d >q1
check_gt "cache_misses: a row per function and level" 10 "$(wc -l <q1)"
check_eq "cache_misses: transpose's D1 write misses" \
	"$(awk '$1 == "transpose" { print $5 }' cg.fns)" \
	"$(awk -F'|' '$1 == "transpose" && $2 == "D1" { print $6 }' q1)"
dq t.db ".cache D1=1024:2:64" ".q cache_by_block" | sed 1d >q2
check_eq "cache_by_block: a row per heap block accessed (libc's stdout buffer)" \
	"$(dq t.db "SELECT count(DISTINCT block_id) FROM accesses")" "$(wc -l <q2)"
dq t.db ".cache D1=1024:2:64" "SELECT sum(reads + writes) FROM cache_page WHERE level = 1" | sed 1d >pg
check_eq "cache_page: every reference on a page" "$(awk -F'|' '$2 == "D1" { print $4 + $5 }' cache.out)" "$(cat pg)"

# cache_line: sweep_area's 1024 lines (nm) are read by three passes of
# sweep and nothing else, far more lines than D1's 16 or LL's 128: each
# line misses both once a pass, 3 read misses and no write, and its reads
# are its 8 longs of sweep(1), 1 of sweep(8) and its 2 or 3 of sweep(3).
SW=$(nm "$P" | awk '$3 == "sweep_area" { print $1 }')
SWLO=$((0x$SW)); SWHI=$((0x$SW + 65536))
dq t.db ".cache D1=1024:2:64 LL=8192:4:64" "SELECT level, count(*), sum(reads), min(read_misses),
	max(read_misses), sum(writes + write_misses) FROM cache_line
	WHERE addr >= $SWLO AND addr < $SWHI GROUP BY level" | sed 1,2d >sw.lines
check_eq "cache_line: sweep_area's 1024 lines, 3 read misses each in D1 and LL" \
	"1|1024|11947|3|3|0
2|1024|3072|3|3|0" "$(cat sw.lines)"
check_eq "cache_line: every reference on a line" "$(awk -F'|' '$2 == "D1" { print $4 + $5 }' cache.out)" \
	"$(dq t.db ".cache D1=1024:2:64" "SELECT sum(reads + writes) FROM cache_line WHERE level = 1" | sed 1d)"
# cache_map: every miss in the map of misses over time and address, and
# sweep's where and when sweep ran (the map's icounts are its buckets'
# starts, a 4096th of the run); .plot --misses draws it
dq t.db ".cache $G3" "SELECT (SELECT group_concat(m, ' ') FROM (SELECT level,
	sum(read_misses) || ' ' || sum(write_misses) AS m FROM cache_map GROUP BY level ORDER BY level)),
	(SELECT group_concat(m, ' ') FROM (SELECT c.level, (sum(c.read_misses) + coalesce((SELECT
	 sum(misses) FROM cache_code k WHERE k.level = c.level), 0)) || ' ' || sum(c.write_misses) AS m
	 FROM (SELECT level, read_misses, write_misses FROM cache_pc UNION ALL SELECT 0, 0, 0)
	 c GROUP BY c.level ORDER BY c.level))" | sed 1,3d >map.sum
check_eq "cache_map: I1's, D1's and LL's misses (data and fetches), every one" "$(cut -d'|' -f2 map.sum)" \
	"$(cut -d'|' -f1 map.sum)"
dq t.db ".cache D1=1024:2:64" "SELECT count(*), sum(m.icount + (SELECT (max(icount_hi) - min(icount_lo)) / 4096 + 1
	FROM chunks) > a.lo AND m.icount <= a.hi) FROM cache_map m, (SELECT min(icount) AS lo, max(icount) AS hi
	FROM accesses WHERE addr >= $SWLO AND addr < $SWHI) a WHERE m.addr >= $SWLO AND m.addr < $SWHI" |
	sed 1d >map.sw
check_eq "cache_map: sweep_area's misses all in sweep's time" 1 "$(awk -F'|' '$1 > 10 && $1 == $2 { print 1 }' map.sw)"
# a map kept to 40 cells (coarsened in time and address, in turn): every
# miss still in it
DGSQL_MAP_CELLS=40 "$DGSQL" t.db ".cache $G3" "SELECT count(*) <= 40, (SELECT group_concat(m, ' ') FROM
	(SELECT level, sum(read_misses) || ' ' || sum(write_misses) AS m FROM cache_map GROUP BY level
	ORDER BY level)) FROM cache_map" 2>map40.err | sed 1,3d >map40
check_eq "cache_map of at most 40 cells: every miss, as the full map" "1|$(cut -d'|' -f1 map.sum)" "$(cat map40)"
dq t.db ".cache D1=1024:2:64" ".plot m.png --size 320x240 --misses D1 --plot-data m.dat" >/dev/null
check_eq ".plot --misses D1: the picture holds D1's read and write misses" \
	"$(awk -F'|' '$2 == "D1" { print $6, $7 }' cache.out)" \
	"$(awk '!/^#/ { r += $3; w += $4 } END { print r, w }' m.dat)"
check_eq ".plot --misses D1: a PNG with green (read misses) in it" "320 240 1" \
	"$(png_info m.png | awk '{ print $1, $2, ($3 > 0) }')"
check_eq ".plot --misses LL without an LL: an error naming it" 1 \
	"$("$DGSQL" t.db ".cache D1=1024:2:64" ".plot m2.png --misses LL" 2>&1 | grep -c "no level 'LL' in the last .cache")"

# Every access (the first level's references from the summaries, only
# the misses tallied) and a filter that keeps every access (all tallied
# access by access): the same tables.
tables() {
	# shellcheck disable=SC2086
	"$DGSQL" "$1" $2 ".cache D1=1024:2:64 LL=8192:4:64" \
		"SELECT 'pc', * FROM cache_pc UNION ALL SELECT 'block', *, NULL FROM cache_block
		 UNION ALL SELECT 'page', *, NULL FROM cache_page
		 UNION ALL SELECT 'line', *, NULL FROM cache_line ORDER BY 1, 2, 3, 4" | sed 1,2d
}
for db in t.db; do
	tables $db "" >sum.tab
	tables $db "--icount-range 0:999999999999" >all.tab
	check_cmp "$db: the summaries' first level = every access tallied" all.tab sum.tab
	check_gt "$db: rows compared" 100 "$(wc -l <sum.tab)"
done
# A call-stack filter is scanned in C (the table evaluates the set); the
# same filter with a user: condition that matches nothing goes through
# SQLite's row loop: the same accesses in the same order, the same tables.
tables t.db "--events dso:cachesim" >c.tab
tables t.db "--events dso:cachesim,user:no-such-label" >sql.tab
check_cmp "--events dso:cachesim: the C scan = SQLite's rows" sql.tab c.tab
check_gt "--events dso:cachesim: rows compared" 100 "$(wc -l <c.tab)"

# .reuse: exact reuse distances.  The miss-ratio curve they give is the
# misses of a fully associative LRU cache (one set, C ways) simulated by
# .cache, at every size asked; the histogram holds every reference.
for C in 1 2 4 16 64 256 1024; do
	echo "$C $(dq t.db ".cache D1=$((C * 64)):$C:64" | awk -F'|' '{ print $6 + $7 }')"
done >fa.cache
dq t.db .reuse "SELECT lines, misses FROM reuse_mrc WHERE lines IN (1, 2, 4, 16, 64, 256, 1024)
	ORDER BY lines" | sed '/|.*|/d' | tr '|' ' ' >fa.reuse
check_cmp ".reuse's miss-ratio curve = fully associative LRU caches of 1 to 1024 lines" fa.cache fa.reuse
check_eq ".reuse: every reference in the histogram, as D1 counts them" \
	"$(dq t.db ".cache D1=1024:2:64" "SELECT sum(reads + writes) FROM cache_pc WHERE level = 1" | tail -n 1)" \
	"$(dq t.db .reuse "SELECT sum(reads + writes) FROM reuse_hist" | tail -n 1)"
check_eq ".reuse: by function, the same references" \
	"$(dq t.db .reuse "SELECT sum(reads + writes) FROM reuse_hist" | tail -n 1)" \
	"$(dq t.db .reuse "SELECT sum(accesses) FROM reuse_fn" | tail -n 1)"
check_eq "sweep: its 64 KiB area's 1024 lines each touched first once" 1024 \
	"$(dq t.db .reuse "SELECT accesses FROM reuse_fn WHERE function = 'sweep' AND lo IS NULL" | tail -n 1)"
check_ge "sweep(1): 8 longs a line in turn: 7 of 8 at distance 0, 7168 at least" 7168 \
	"$(dq t.db .reuse "SELECT accesses FROM reuse_fn WHERE function = 'sweep' AND lo = 0" | tail -n 1)"
# sampled (SHARDS, rate 1/2): the curve within 0.02 of the exact one from
# 64 lines up (bench/README: sort's error at rates 0.1 and 0.01), on
# about half the accesses; a rate out of (0, 1] is refused
for r in 1 0.5; do
	dq t.db ".reuse 64 $r" -m tsv "SELECT lines, miss_ratio FROM reuse_mrc WHERE lines IN (64, 256, 1024)
		ORDER BY lines" | awk -F'\t' 'NF == 2 && $1 ~ /^[0-9]+$/' >mrc.$r
done
check_eq ".reuse 64 0.5: the curve within 0.02 of the exact one at 64, 256, 1024 lines" "3 0" \
	"$(paste mrc.1 mrc.0.5 | awk '{ e = $2 - $4; if (e < 0) e = -e; n++; bad += e > 0.02 } END { print n, bad }')"
check_eq ".reuse 64 0.5: about half the references" 1 \
	"$(dq t.db ".reuse 64 0.5" "SELECT sum(reads + writes) * 1.0 / $(dq t.db .reuse "SELECT sum(reads + writes)
	  FROM reuse_hist" | tail -n 1) BETWEEN 0.3 AND 0.7 FROM reuse_hist" | tail -n 1)"
check_eq ".reuse 64 0: an error naming the rate" 1 \
	"$("$DGSQL" t.db ".reuse 64 0" 2>&1 | grep -c 'a sampling rate in (0, 1\], not .0.')"
check_eq ".reuse 48: an error naming the line" 1 \
	"$("$DGSQL" t.db ".reuse 48" 2>&1 | grep -c 'the line, 48 bytes, is not a power of two')"

# .reuse by event: reuse_events.c's distances are known (its header).
_trace_db e.db reuse_events || finish
dq e.db .reuse "SELECT e.label, coalesce(r.lo, -1), r.accesses FROM reuse_event r JOIN events e
	ON e.id = r.event_id WHERE r.lo IS NULL OR r.lo >= 128 ORDER BY e.id, r.lo" | sed '/^[0-9]*|/d' >ev.tab
# (each event's end also writes the client request's arguments on a stack
# line last written at its start: 1 to 3 more at [128, 256))
check_eq "reuse_event: first's 200 first touches, and again's 200 reads in [128, 256)" \
	"first|-1|200 again|128|1" \
	"$(awk -F'|' '$1 == "first" && $2 == -1 { a = $0 } $1 == "again" && $2 == 128 {
	   b = $1 "|" $2 "|" ($3 >= 200 && $3 <= 203) } END { print a, b }' ev.tab)"
check_eq "reuse_event: both holds first and again, bucket by bucket" "0 1" \
	"$(dq e.db .reuse "SELECT sum(b.accesses < coalesce(f.accesses, 0) + coalesce(a.accesses, 0)),
	   sum(b.accesses) > (SELECT sum(accesses) FROM reuse_event WHERE event_id IN (SELECT id FROM events
	   WHERE label IN ('first', 'again'))) FROM (SELECT * FROM reuse_event WHERE event_id = (SELECT id
	   FROM events WHERE label = 'both')) b LEFT JOIN (SELECT * FROM reuse_event WHERE event_id = (SELECT
	   id FROM events WHERE label = 'first')) f ON f.lo IS b.lo LEFT JOIN (SELECT * FROM reuse_event
	   WHERE event_id = (SELECT id FROM events WHERE label = 'again')) a ON a.lo IS b.lo" | tail -n 1 | tr '|' ' ')"
S=$(dq e.db "SELECT start_icount FROM events WHERE label = 'open'")
check_eq "reuse_event: an event never ended lasts to the end (as .reuse from its start)" \
	"$(dq e.db --icount-range "$S:999999999999" .reuse "SELECT sum(reads + writes) FROM reuse_hist" | tail -n 1)" \
	"$(dq e.db .reuse "SELECT sum(accesses) FROM reuse_event r JOIN events e ON e.id = r.event_id
	   WHERE e.label = 'open'" | tail -n 1)"

# a filter that matches nothing: empty tables, not an error
"$DGSQL" t.db --icount-range 999999999999:1000000000000 ".cache D1=32k:8:64" \
	"SELECT count(*) FROM cache_pc" >empty.out 2>empty.err
check_eq "an empty filter: exit 0, no rows" "0 0" "$? $(tail -n 1 empty.out)"
# heap blocks: the demo's, whose accesses all go to blocks
demo_db d.db
dq d.db ".cache D1=32k:8:64" ".q cache_by_block" | sed 1d >blk
tables d.db "" >dsum.tab
tables d.db "--icount-range 0:999999999999" >dall.tab
check_cmp "the demo (heap blocks): the summaries' first level = every access tallied" dall.tab dsum.tab
check_eq ".reuse by block: each block's references, as .cache's first level counts them" \
	"$(dq d.db ".cache D1=32k:8:64" "SELECT block_id || ' ' || (reads + writes) FROM cache_block
	  WHERE level = 1 ORDER BY block_id" | sed 1d)" \
	"$(dq d.db .reuse "SELECT block_id || ' ' || sum(accesses) FROM reuse_block GROUP BY block_id
	  ORDER BY block_id" | sed '/|/d')"
check_eq "cache_by_site: the demo's blocks' references and misses, by allocation site" \
	"$(dq d.db ".cache D1=32k:8:64" "SELECT b.alloc_stack_id || ' ' || sum(c.reads) || ' ' || sum(c.read_misses)
	  FROM cache_block c JOIN blocks b ON b.id = c.block_id WHERE c.level = 1 GROUP BY b.alloc_stack_id
	  ORDER BY b.alloc_stack_id" | sed 1d)" \
	"$(dq d.db ".cache D1=32k:8:64" ".q cache_by_site 1000" | sed 1d | awk -F'|' '{ print $1, $5, $7 }' | sort)"
check_gt "cache_by_site: sites compared" 1 "$(dq d.db ".cache D1=32k:8:64" ".q cache_by_site" | sed 1d | wc -l)"
check_eq "reuse_site: each site's references, as reuse_block's" \
	"$(dq d.db .reuse "SELECT sum(accesses) FROM reuse_block" | tail -n 1)" \
	"$(dq d.db .reuse "SELECT sum(accesses) FROM reuse_site" | tail -n 1)"
check_eq ".reuse by thread: every reference" \
	"$(dq d.db .reuse "SELECT sum(reads + writes) FROM reuse_hist" | tail -n 1)" \
	"$(dq d.db .reuse "SELECT sum(accesses) FROM reuse_thread" | tail -n 1)"
check_eq "cache_by_block: the demo's blocks, their reads = SQL's" \
	"$(dq d.db "SELECT block_id || ' ' || sum(NOT is_write) FROM accesses WHERE block_id IS NOT NULL
	  GROUP BY block_id ORDER BY block_id")" "$(awk -F'|' '{ print $1, $5 }' blk | sort -n)"

bad() {
	"$DGSQL" t.db ".cache $1" >bad.out 2>bad.err
	check_eq ".cache $1: exit 1, '$2'" "1 1" "$? $(grep -c -F -- "$2" bad.err)" || diag_file bad.err 3
}
bad "D1=3000:8:64" "D1=3000:8:64: the size, 3000 bytes, is not a power of two"
bad "D1=32k:0:64" "D1=32k:0:64: zero ways"
bad "D1=1k:2:1024" "D1=1k:2:1024: a line of 1024 bytes in 2 ways is larger than the cache"
bad "D1=32k:8:48" "the line, 48 bytes, is not a power of two"
bad "L3=32k:8:64" "'L3=32k:8:64': expected D1=SIZE:WAYS:LINE"
bad "D1=32k" "D1=32k: expected SIZE:WAYS:LINE"
bad "LL=8M:16:64" "expected D1=SIZE:WAYS:LINE, then L2= and LL= in that order"
check_eq ".cache without levels: a usage message" 1 \
	"$("$DGSQL" t.db ".cache" 2>&1 | grep -c 'usage: .cache \[I1=SIZE:WAYS:LINE\] D1=SIZE:WAYS:LINE')"
finish
