#!/bin/sh
# t1570-dgsql-report: dgsql --report on the demo (examples/transpose.c, a
# 96 x 96 matrix of doubles transposed twice).  The report's numbers are
# checked against what the program provably does (each matrix's reads and
# writes, the heap's peak) and against the same question asked of the
# decoded accesses in SQL (the report reads summaries); the three files
# hold the same tables; the Markdown tables are well-formed; the folded
# stacks add up to every access.  Filters (--events, --ranges,
# --icount-range) change every section; a call-stack filter's report
# read from the summaries equals the one decoded.  A truncated trace says so first.
# Bad input: an unwritable or non-directory DIR, a failing gnuplot, a DIR
# name gnuplot cannot be given: exit 1, a message, nothing left half-made
# and an existing report untouched.  The hostile program's names reach
# the three files escaped.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
. "$DG_TESTS/lib-report.sh"
need_report
need_cmd sqlite3
demo_db t.db

check_run "dgsql --report rep --folded t.folded exits 0" \
	"$DGSQL" t.db --report rep --folded t.folded
for f in index.html report.md report.json; do
	check_eq "rep/$f written" yes "$([ -s "rep/$f" ] && echo yes)"
done
check_eq "every file is mode 0600" "" "$(find rep t.folded -type f -perm /077)"
check_eq "no aside directory left" "" "$(ls -d rep.tmp-* rep.old-* 2>/dev/null)"
check_eq "every image the report names is an SVG in DIR" "" "$(python3 -c '
import json, sys
d = json.load(open("rep/report.json"))
for s in d["sections"]:
    for it in s["items"]:
        if it["type"] == "image":
            b = open("rep/" + it["file"], "rb").read(200)
            if b"<svg" not in b: print("bad", it["file"])
' 2>&1)"
check_ge "the report has its 13 charts" 13 "$(ls rep/*.svg | wc -l)"

# What the program provably does: matrix a (block 1) is written N*N times
# (filled) and N*N (tiled), read N*N (naive) and N*N (summed); b (block 2)
# written N*N (naive), read N*N (tiled).
NN=$((N * N))
check_eq "block 1 is the N*N doubles of a" $((NN * 8)) "$(jcell rep blocks 1 size)"
check_eq "block 1: reads 2*N*N" $((2 * NN)) "$(jcell rep blocks 1 reads)"
check_eq "block 1: writes 2*N*N" $((2 * NN)) "$(jcell rep blocks 1 writes)"
check_eq "block 2: reads N*N" $NN "$(jcell rep blocks 2 reads)"
check_eq "block 2: writes N*N" $NN "$(jcell rep blocks 2 writes)"
check_eq "range a: reads 2*N*N" $((2 * NN)) "$(jcell rep range-1 1 reads)"
check_eq "range b: writes N*N" $NN "$(jcell rep range-2 2 writes)"
peak=$(jat rep heap-peak 0 peak_bytes)
check_eq "heap peak: every block live at once (a, b, stdout's buffer)" \
	"$(dq t.db 'SELECT sum(size) FROM blocks')" "$peak"
check_ge "heap peak >= both matrices" $((2 * NN * 8)) "$peak"
check_eq "heap peak's sites hold the peak's bytes" "$peak" \
	"$(jat rep heap-peak-sites all bytes | awk '{ s += $1 } END { print s }')"

# The same questions asked of the decoded accesses.
check_eq "header accesses = count(*) of accesses" \
	"$(dq t.db 'SELECT count(*) FROM accesses')" "$(jcell rep header accesses value)"
for fn in transpose_naive transpose_tiled main; do
	check_eq "$fn: accesses = the decoded accesses at its pcs" \
		"$(dq t.db "SELECT count(*) FROM accesses a JOIN pcs p ON p.pc = a.pc
		  JOIN functions f ON f.id = p.function_id WHERE f.name = '$fn'")" \
		"$(jcell rep functions "$fn" accesses)"
done
page=$(jat rep pages 0 page)
check_eq "top page: accesses = the decoded accesses in it" \
	"$(dq t.db "SELECT count(*) FROM accesses WHERE addr >> 12 = $page >> 12")" \
	"$(jcell rep pages "$page" accesses)"
check_eq "working set: windows = distinct icount / 100000 of accesses" \
	"$(dq t.db 'SELECT count(DISTINCT icount / 100000) FROM accesses')" \
	"$(jat rep working-set 0 windows)"
check_eq "working set: the largest window's lines, decoded" \
	"$(dq t.db 'SELECT max(n) FROM (SELECT count(DISTINCT addr >> 6) AS n FROM accesses GROUP BY icount / 100000)')" \
	"$(jat rep working-set 0 max_lines)"
check_eq "leaks: the blocks never freed" \
	"$(dq t.db 'SELECT count(*) FROM blocks WHERE free_icount IS NULL')" \
	"$(jat rep leaks all blocks | awk '{ s += $1 } END { print s }')"
check_eq "event naive: writes = the decoded writes in its interval" \
	"$(dq t.db "SELECT count(*) FROM accesses a, events e WHERE e.label = 'naive'
	  AND a.icount >= e.start_icount AND a.icount < e.end_icount AND a.is_write")" \
	"$(jcell rep event-1 1 writes)"
check_eq "folded stacks add up to every access" \
	"$(dq t.db 'SELECT count(*) FROM accesses')" \
	"$(awk '{ s += $NF } END { print s }' t.folded)"
check_eq "folded lines are 'frames COUNT'" "" "$(grep -v -E '^[^ ].* [0-9]+$' t.folded | head -3)"

# The three files hold the same tables.
check_eq "report.md: tables well-formed (tables, bad lines)" \
	"$(python3 -c '
import json
d = json.load(open("rep/report.json"))
print(sum(1 for s in d["sections"] for i in s["items"] if i["type"] == "table"))') 0" \
	"$(rc md rep/report.md)"
check_eq "report.md names every chart" "$(ls rep/*.svg | wc -l)" \
	"$(grep -c '^!\[.*\](.*\.svg)$' rep/report.md)"
check_eq "index.html inlines every chart, fetches nothing" \
	"$(ls rep/*.svg | wc -l) 0 0" \
	"$(grep -c '^<svg' rep/index.html) $(grep -c -i -E '<script|src=|<link' rep/index.html) $(grep -c '<?xml' rep/index.html)"

# Filters apply to the whole report.
check_run "--events user:naive --report" "$DGSQL" t.db --events user:naive --report ev \
	--folded ev.folded
check_eq "--events user:naive: header accesses = the decoded ones in the event" \
	"$(dq t.db "SELECT count(*) FROM accesses a, events e WHERE e.label = 'naive'
	  AND a.icount >= e.start_icount AND a.icount < e.end_icount")" \
	"$(jcell ev header accesses value)"
check_eq "--events user:naive: transpose_naive has its 2*N*N accesses" \
	$((2 * NN)) "$(jcell ev functions transpose_naive accesses)"
check_eq "--events user:naive: transpose_tiled is not in it" no-row \
	"$(jcell ev functions transpose_tiled accesses)"
check_eq "--events user:naive: the folded stacks follow" \
	"$(jcell ev header accesses value)" \
	"$(awk '{ s += $NF } END { print s }' ev.folded)"
check_run "--ranges user:b --report" "$DGSQL" t.db --ranges user:b --report rg
check_eq "--ranges user:b: only block 2 is accessed" "2 $((2 * NN))" \
	"$(jat rg blocks all block) $(jat rg blocks all accesses)"
# A call-stack filter takes the functions and the flame graph's contexts
# from the filter's summaries (filtered_sum, filtered_ctx) and the pages,
# lines and windows from the class summaries (dso: alone) or from the
# chunks it takes whole (lib/dgfsum.c, the rest decoded): the same
# report.json and folded stacks as from the accesses decoded, on a copy
# without those summaries (compared without charts: report.json does not
# hold them).
cp t.db nosum.db
sqlite3 -batch nosum.db "DROP TABLE sum_ctx; DROP TABLE sum_ctx_miss;
	DROP TABLE sum_line_class; DROP TABLE sum_window_class; DROP TABLE sum_class_modules"
for fl in "fn:transpose_naive 1|1|1|1" "dso:*transpose* 1|1|1|1" "fn:main 1|1|1|1"; do
	set -- $fl
	check_eq "--events $1: summed, by context, paged, windowed" "$2" \
		"$(dq t.db --events "$1" 'SELECT dg_summed(), dg_ctx_summed(), dg_paged(), dg_windowed()')"
	check_eq "--events $1: nothing summed without the summaries" "0|0|0|0" \
		"$(dq nosum.db --events "$1" 'SELECT dg_summed(), dg_ctx_summed(), dg_paged(), dg_windowed()')"
	rm -rf sum.rep dec.rep
	"$DGSQL" t.db --events "$1" --report sum.rep --folded sum.folded --no-charts >/dev/null 2>&1
	"$DGSQL" nosum.db --events "$1" --report dec.rep --folded dec.folded --no-charts >/dev/null 2>&1
	check_eq "--events $1: report.json and folded stacks written both ways" yes \
		"$([ -s sum.rep/report.json ] && [ -s dec.rep/report.json ] && [ -s sum.folded ] && echo yes)"
	check_cmp "--events $1: report.json from the summaries as decoded" dec.rep/report.json \
		sum.rep/report.json
	check_cmp "--events $1: folded stacks from the summaries as decoded" dec.folded sum.folded
done
check_eq "--ranges malloc: summed from sum_heap, not by context" "1|0" \
	"$(dq t.db --ranges malloc 'SELECT dg_summed(), dg_ctx_summed()')"
lohi=$(dq t.db "SELECT start_icount || ':' || end_icount FROM events WHERE label = 'tiled'")
check_run "--icount-range $lohi --report" "$DGSQL" t.db --icount-range "$lohi" --report ic
check_eq "--icount-range: header accesses = the decoded ones in the range" \
	"$(dq t.db "SELECT count(*) FROM accesses WHERE icount >= ${lohi%:*} AND icount < ${lohi#*:}")" \
	"$(jcell ic header accesses value)"
check_eq "--icount-range: the filter is in the header" "--icount-range $lohi" \
	"$(jcell ic header filter value)"
check_eq "--icount-range: working set from the range's accesses" \
	"$(dq t.db "SELECT count(DISTINCT icount / 100000) FROM accesses WHERE icount >= ${lohi%:*} AND icount < ${lohi#*:}")" \
	"$(jat ic working-set 0 windows)"

# --no-charts: no gnuplot run (a missing one is no error), no images, and
# the report otherwise the same, item by item; the folded stacks too.
DG_GNUPLOT=/nonexistent/gnuplot check_run "--no-charts: gnuplot is not run" \
	"$DGSQL" t.db --report nc --folded nc.folded --no-charts
check_eq "--no-charts: no image files, no <svg in index.html" "0 0" \
	"$(ls nc | grep -c -v -E '^(index.html|report.md|report.json)$') $(grep -c '<svg' nc/index.html)"
check_eq "--no-charts: report.json is the full one less its images" "same" \
	"$(python3 -c '
import json
def load(p, drop):
    d = json.load(open(p))
    for s in d["sections"]:
        s["items"] = [i for i in s["items"] if i["type"] != drop]
    return d
print("same" if load("nc/report.json", "image") == load("rep/report.json", "image")
      and load("rep/report.json", "") != load("rep/report.json", "image") else "differs")' 2>&1)"
check_cmp "--no-charts: the same folded stacks" t.folded nc.folded
check_status "--no-charts without --report: exit 2" 2 "$DGSQL" t.db --no-charts

# A truncated trace says so at the top.
cp t.db trunc.db && sqlite3 trunc.db "UPDATE meta SET value = 0 WHERE key = 'complete';
	INSERT OR REPLACE INTO meta VALUES ('incomplete_reason', 'the log ends early')"
check_run "report of a truncated trace" "$DGSQL" trunc.db --report trunc
check_eq "report.json: its first item is the truncation warning" "warning" \
	"$(python3 -c 'import json; print(json.load(open("trunc/report.json"))["sections"][0]["items"][0]["type"])')"
check_eq "report.md: the warning comes first" "> **Warning:** This trace is truncated (meta.complete = 0): the log ends early.  Every figure below covers only what was recorded." \
	"$(sed -n 5p trunc/report.md)"
check_eq "index.html: a warning paragraph" 1 "$(grep -c '<p class="warning">This trace is truncated' trunc/index.html)"
check_eq "a complete trace has no warning" 0 "$(grep -c 'class="warning"' rep/index.html)"

# Bad input: nothing half-made, the existing report kept.
cp -r rep rep.before
: >afile
check_status "--report under a regular file: exit 1" 1 "$DGSQL" t.db --report afile/sub
check_eq "... says where" 1 "$(grep -c 'report: --report afile/sub: cannot create a directory beside it' check_run.out)"
check_status "--report naming a regular file: exit 1" 1 "$DGSQL" t.db --report afile
check_eq "... says so" 1 "$(grep -c 'exists and is not a directory' check_run.out)"
check_eq "... the file is untouched, nothing aside" "0 " "$(wc -c <afile) $(ls -d afile.* 2>/dev/null)"
DG_GNUPLOT=/bin/false check_status "a failing gnuplot: exit 1" 1 "$DGSQL" t.db --report rep
check_eq "... names gnuplot" 1 "$(grep -c '/bin/false failed' check_run.out)"
check_eq "... the old report is untouched" "" "$(diff -r rep.before rep 2>&1)"
check_eq "... nothing aside" "" "$(ls -d rep.tmp-* rep.old-* 2>/dev/null)"
check_run "a second report replaces the first" "$DGSQL" t.db --report rep
check_eq "... nothing aside" "" "$(ls -d rep.tmp-* rep.old-* 2>/dev/null)"
check_status "a DIR with a line feed: exit 1" 1 "$DGSQL" t.db --report "$(printf 'a\nb')"
check_status "--folded without --report: exit 2" 2 "$DGSQL" t.db --folded x
check_status "--top 0: exit 2" 2 "$DGSQL" t.db --report r0 --top 0

# The hostile program's names, escaped everywhere.
need_prog hostile
head -c 8192 /dev/zero >map.bin
DG_NATIVE=no run_dg h.log -- "$DG_PROGS/hostile" map.bin || finish
rm -f h.db pwned
"$DG_IMPORT" -q h.log h.db 2>import.err || bail "dg-import h.log"
check_run "report of the hostile trace" "$DGSQL" h.db --report hrep --folded h.folded
check_eq "nothing ran (no file pwned)" "" "$(ls pwned hrep/pwned 2>/dev/null)"
check_eq "no raw control byte in any report file" "" \
	"$(LC_ALL=C grep -l -P '[\x00-\x08\x0b-\x1f\x7f]' hrep/index.html hrep/report.md hrep/report.json h.folded)"
check_eq "the hostile label's markup is inert in HTML" 0 \
	"$(grep -c -E '<[^>]*(pwned|owned)' hrep/index.html)"
check_eq "report.json gives the label's bytes back" 1 "$(python3 -c '
import json
d = json.load(open("hrep/report.json"))
want = b"x\nsystem \"touch pwned\"\n#\x27\"`touch pwned`$(touch pwned)\x1b]0;owned\x07\x1b[2J\xc2\x9b31m\xff\xfe\r^_@&~{}"
titles = [s["title"].encode("utf-8", "surrogateescape") for s in d["sections"]]
print(sum(1 for t in titles if t == b"User event: " + want))')"
check_eq "hostile report.md: tables well-formed" 0 "$(rc md hrep/report.md | cut -d' ' -f2)"
finish
