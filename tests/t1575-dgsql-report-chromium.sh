#!/bin/sh
# t1575-dgsql-report-chromium: the demo's report (examples/transpose.c)
# opened in headless Chromium, driven by chromedriver over 127.0.0.1
# (tests/report_check.py browse): the page loads with no console message,
# fetches nothing and runs no script; every chart is there as inline SVG
# with a non-zero size (the address x time plot's pixels embedded as a
# data: URI); the tables the page shows are report.json's cell for cell;
# and their numbers are the same SQL on the database, asked of the decoded
# accesses.  A screenshot is taken (shot.png, kept).  The hostile
# program's report loads as cleanly.  Skipped where Chromium cannot run.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
. "$DG_TESTS/lib-report.sh"
need_report
need_cmd chromium
need_cmd chromedriver
demo_db t.db

"$DGSQL" t.db --report rep 2>report.err || bail "dgsql --report rep"
mkdir -p page
rc browse rep/index.html page 2>browse.err
st=$?
[ $st -eq 77 ] && skip "chromium cannot run here: $(head -c 300 browse.err)"
check_eq "chromium opened the page" 0 $st || { diag_file browse.err; finish; }

dom() {
	python3 -c "import json, sys; d = json.load(open('page/dom.json')); $1"
}
check_eq "no console message" "[]" "$(dom 'print(d["console"])')"
check_eq "nothing fetched" "[]" "$(dom 'print(d["resources"])')"
check_eq "no script" 0 "$(dom 'print(d["scripts"])')"
check_eq "the page's figures are report.json's images" \
	"$(python3 -c '
import json
d = json.load(open("rep/report.json"))
print(sum(1 for s in d["sections"] for i in s["items"] if i["type"] == "image"))')" \
	"$(dom 'print(len(d["figures"]))')"
check_eq "every figure has a non-zero size" "" \
	"$(dom 'print(" ".join(f["caption"] for f in d["figures"] if not (f["width"] > 0 and f["height"] > 0)))')"
check_eq "the address x time plot's pixels are embedded (data:)" "['data:']" \
	"$(dom 'print([f["images"] for f in d["figures"] if f["caption"] == "address x time"][0])')"
check_eq "the page's tables are report.json's, cell for cell" 0 \
	"$(rc same page/dom.json rep/report.json)"
check_ge "the screenshot is a PNG of some size" 10000 "$(wc -c <page/shot.png)"
check_eq "the screenshot is 1280 wide" 1280 "$(png_info page/shot.png | cut -d' ' -f1)"

# The page's numbers against SQL on the decoded accesses.
cell() {
	rc cell page/dom.json "$@"
}
check_eq "page: accesses = count(*) of accesses" \
	"$(dq t.db 'SELECT count(*) FROM accesses')" "$(cell header accesses value)"
check_eq "page: threads = the threads table" \
	"$(dq t.db 'SELECT count(*) FROM threads')" "$(cell header threads value)"
for fn in transpose_naive transpose_tiled; do
	check_eq "page: $fn's reads = the decoded reads at its pcs" \
		"$(dq t.db "SELECT count(*) FROM accesses a JOIN pcs p ON p.pc = a.pc
		  JOIN functions f ON f.id = p.function_id WHERE f.name = '$fn'
		  AND NOT a.is_write")" "$(cell functions "$fn" reads)"
done
for b in 1 2; do
	check_eq "page: block $b's accesses = the decoded ones inside it" \
		"$(dq t.db "SELECT count(*) FROM accesses WHERE block_id = $b")" \
		"$(cell blocks "$b" accesses)"
done
line=$(rc at page/dom.json lines 0 line)
check_eq "page: the top line's accesses = the decoded ones in it" \
	"$(dq t.db "SELECT count(*) FROM accesses WHERE addr >> 6 = $line >> 6")" \
	"$(cell lines "$line" accesses)"
check_eq "page: event tiled's reads = the decoded ones in its interval" \
	"$(dq t.db "SELECT count(*) FROM accesses a, events e WHERE e.label = 'tiled'
	  AND a.icount >= e.start_icount AND a.icount < e.end_icount AND NOT a.is_write")" \
	"$(cell event-2 2 reads)"

# The hostile names do not break the page.
need_prog hostile
head -c 8192 /dev/zero >map.bin
DG_NATIVE=no run_dg h.log -- "$DG_PROGS/hostile" map.bin || finish
rm -f h.db
"$DG_IMPORT" -q h.log h.db 2>import.err || bail "dg-import h.log"
"$DGSQL" h.db --report hrep 2>report.err || bail "dgsql --report of the hostile trace"
mkdir -p hpage
rc browse hrep/index.html hpage 2>browse.err
check_eq "hostile page: chromium opened it" 0 $? || diag_file browse.err
check_eq "hostile page: no console message, no script" "[] 0" \
	"$(python3 -c "import json; d = json.load(open('hpage/dom.json')); print(d['console'], d['scripts'])")"
check_eq "hostile page: its tables are report.json's" 0 \
	"$(rc same hpage/dom.json hrep/report.json)"
finish
