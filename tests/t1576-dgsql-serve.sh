#!/bin/sh
# t1576-dgsql-serve: dgsql --serve, the viewer (dgsql/serve.h), on the
# demo's trace: it listens on 127.0.0.1 only and prints its URL with a
# token; without the token, or with a wrong one, every path is 403; the
# first page sets the token's cookie, which then stands for it; bad
# parameters get 400 with a message, other methods 405, other paths 404.
# The picture's cells (/grid) are the ones --plot-data writes for the same
# view: the whole trace, a zoom on both axes, and under a call-stack
# filter; /at names the code of a cell's accesses as SQL on the decoded
# accesses does; /events gives the events table's rows, which the page
# draws as bands along the time axis; /regions the tracked ranges and the
# busiest heap blocks, drawn along the address axis; the page, opened in headless Chromium, draws exactly
# those cells on its canvas (read back pixel by pixel), fetching nothing
# but its own server's files, shows that code when the mouse rests on the
# cell and lists it, with the SQL that gives it, when clicked.  1000 requests at once, and the server still
# answers; SIGINT stops it with status 0 and the port closed.  The page's
# filter (events=, ranges=) gives --events/--ranges' cells, /names
# completes conditions, /top lists the view's busiest functions and
# blocks as SQL counts them, and in Chromium typing a condition offers
# the trace's names and Enter draws the filtered cells.  --snapshot
# writes the page as files: opened from the disk, its cells are
# --plot-data's and the wheel zooms within them.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
. "$DG_TESTS/lib-report.sh"
need_report
demo_db t.db

vc() {
	python3 "$DG_TESTS/viewer_check.py" "$@"
}

# serve NAME ARGS...: dgsql t.db --serve ARGS in the background; sets URL,
# BASE (http://127.0.0.1:PORT), TOKEN and PID
serve() {
	_n=$1
	shift
	"$DGSQL" t.db --serve "$@" >"$_n.url" 2>"$_n.err" &
	PID=$!
	_i=0
	while [ $_i -lt 100 ] && ! grep -q '^http' "$_n.url" 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	URL=$(head -n 1 "$_n.url")
	BASE=${URL%%/\?*}
	TOKEN=${URL##*token=}
}

# stop: SIGINT, and the exit status
stop() {
	kill -INT "$PID"
	wait "$PID"
}

serve s
check_eq "the URL: 127.0.0.1, a port, a 32-digit token" 1 \
	"$(printf '%s\n' "$URL" | grep -c '^http://127\.0\.0\.1:[0-9]*/?token=[0-9a-f]\{32\}$')"
PORT=${BASE##*:}
check_eq "listening on 127.0.0.1 only" "127.0.0.1:$PORT" \
	"$(ss -Hltn "sport = :$PORT" 2>/dev/null | awk '{ print $4 }')"

status() {
	vc get "$@" >status.out
	head -n 1 status.out
}
check_eq "the page without the token: 403" 403 "$(status "$BASE/")"
check_eq "the grid without the token: 403" 403 "$(status "$BASE/grid?w=10&h=10")"
check_eq "a wrong token: 403" 403 "$(status "$BASE/meta?token=0123456789abcdef0123456789abcdef")"
check_eq "a wrong cookie: 403" 403 "$(status "$BASE/meta" "dgtoken=nope")"
check_eq "the cookie stands for the token" 200 "$(status "$BASE/meta" "dgtoken=$TOKEN")"
check_eq "the page with the token: 200" 200 "$(status "$URL")"
python3 -c "
import sys; sys.path.insert(0, '$DG_TESTS')
from viewer_check import fetch
s, b, h = fetch('$URL')
print(h.get('Set-Cookie'))
print(h.get('Content-Security-Policy'))" >headers
check_eq "the page sets the token's cookie, HttpOnly, SameSite=Strict" \
	"dgtoken=$TOKEN; Path=/; HttpOnly; SameSite=Strict" "$(sed -n 1p headers)"
check_eq "the page may run its own script only" 1 "$(sed -n 2p headers | grep -c "script-src 'self';")"
vc get "$BASE/grid?token=$TOKEN&w=0&h=10" >bad1
check_eq "w=0: 400" 400 "$(head -n 1 bad1)"
check_eq "w=0: the message says what is expected" 1 "$(grep -c 'w and h: expected whole numbers' bad1)"
vc get "$BASE/grid?token=$TOKEN&w=10&h=10&addr=9:3" >bad2
check_eq "addr=9:3: 400 naming the parameter" "400 1" "$(head -n 1 bad2) $(grep -c '^addr-range ' bad2)"
check_eq "icount=x: 400" 400 "$(status "$BASE/grid?token=$TOKEN&w=10&h=10&icount=x")"
check_eq "an unknown path: 404" 404 "$(status "$BASE/etc/passwd?token=$TOKEN")"
check_eq "/meta: the trace's executable" "$(dq t.db "SELECT value FROM meta WHERE key = 'exe'")" \
	"$(vc get "$BASE/meta?token=$TOKEN" | sed 1d | python3 -c 'import json, sys; print(json.load(sys.stdin)["trace"])')"

# The cells against --plot-data's, for the same views.
grid() {
	vc get "$BASE/grid?token=$TOKEN&$1" | sed 1d >"$2"
}
"$DGSQL" t.db --plot-data whole.dat >/dev/null 2>plot.err || bail "dgsql --plot-data"
WH=$(sed -n 's/.*(cells \([0-9]*\) x \([0-9]*\)).*/w=\1\&h=\2/p' whole.dat)
grid "$WH" whole.json
check_eq "the whole trace: /grid = --plot-data" "SAME" "$(vc plot whole.json whole.dat | cut -d' ' -f1)"
check_gt "the whole trace: cells" 100 "$(vc plot whole.json whole.dat | cut -d' ' -f2)"
ADDR=$(python3 -c "
import json; g = json.load(open('whole.json')); c = g['cols']
print('%d:%d' % (c[len(c) // 3], c[len(c) // 2]))")
ICOUNT=$(python3 -c "
import json; g = json.load(open('whole.json'))
print('%d:%d' % (g['yhi'] // 4, g['yhi'] // 2))")
"$DGSQL" t.db --addr-range "$ADDR" --icount-range "$ICOUNT" --plot-data zoom.dat >/dev/null 2>>plot.err
grid "$WH&addr=$ADDR&icount=$ICOUNT" zoom.json
check_eq "a zoom on both axes: /grid = --plot-data" "SAME" "$(vc plot zoom.json zoom.dat | cut -d' ' -f1)"
check_gt "the zoom: cells" 10 "$(vc plot zoom.json zoom.dat | cut -d' ' -f2)"

grid "w=20&h=10&icount=999999999999:1000000000000" empty.json
check_eq "a view past the end of the run: an empty picture, not an error" "0 20 10" \
	"$(python3 -c "import json; g = json.load(open('empty.json')); print(len(g['cells']), g['w'], g['h'])")"

# An address zoom along page boundaries comes from chunk_cells: its reads
# and writes are those of the accesses in it.
PZ=$(python3 -c "
import json; g = json.load(open('whole.json')); c = g['cols']
print('%d:%d' % (c[0] // 4096 * 4096, (c[len(c) // 2] + 4095) // 4096 * 4096))")
grid "w=8&h=2&addr=$PZ" pz.json
check_eq "a page-aligned address zoom: drawn from chunk_cells" summary \
	"$(python3 -c 'import json; print(json.load(open("pz.json"))["from"])')"
check_eq "a page-aligned address zoom: its reads and writes" \
	"$(dq t.db "SELECT sum(NOT is_write) || ' ' || sum(is_write) FROM accesses
	  WHERE addr >= ${PZ%%:*} AND addr < ${PZ##*:}")" \
	"$(python3 -c "
import json; c = json.load(open('pz.json'))['cells']
print(sum(c[2::4]), sum(c[3::4]))")"

# /at: what made a cell's accesses, against SQL on the decoded accesses.
grid "w=900&h=600" page.json
python3 -c "
import json
g = json.load(open('page.json')); c = g['cells']
i = max(range(0, len(c), 4), key=lambda i: c[i + 2] + c[i + 3])
col, row = c[i], c[i + 1]
y = lambda r: int(g['ylo'] + float(r) * (float(g['yhi']) - float(g['ylo'])) / g['h'])
print(col, row, g['cols'][col], max(g['cols'][col + 1], g['cols'][col] + 1), y(row), max(y(row + 1), y(row) + 1))" >busy
read -r COL ROW A0 A1 I0 I1 <busy
vc get "$BASE/at?token=$TOKEN&addr=$A0:$A1&icount=$I0:$I1" | sed 1d >at.json
at1() {
	python3 -c "import json; r = json.load(open('at.json'))['rows'][0]; print($1)"
}
check_eq "/at: the busiest code of the busiest cell = SQL's" \
	"$(dq t.db "SELECT f.name || ' ' || sum(NOT a.is_write) || ' ' || sum(a.is_write) FROM accesses a
	  JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id JOIN functions f ON f.id = p.function_id
	  WHERE a.addr >= $A0 AND a.addr < $A1 AND a.icount >= $I0 AND a.icount < $I1
	  GROUP BY a.pc, a.module_id, a.block_id ORDER BY count(*) DESC LIMIT 1")" \
	"$(at1 "r['function'], r['reads'], r['writes']")"
check_eq "/at: its call stack starts in that function" "$(at1 "r['function']")" "$(at1 "r['stack'].split(chr(10))[0]")"
check_eq "/events: the events table's rows, first to start first" \
	"$(dq t.db "SELECT label || ' ' || thread || ' ' || start_icount || ' ' || coalesce(end_icount, 'None')
	  FROM events ORDER BY start_icount, id")" \
	"$(vc get "$BASE/events?token=$TOKEN" | sed 1d | python3 -c "
import json, sys
for e in json.load(sys.stdin)['events']: print(e['label'], e['thread'], e['start'], e['end'])")"
check_eq "/regions: the tracked ranges, then the heap blocks, busiest first" \
	"$(dq t.db "SELECT * FROM (SELECT 'range', label, addr, len FROM ranges ORDER BY id)
	  UNION ALL SELECT * FROM (SELECT 'block', id, addr, size FROM blocks ORDER BY reads + writes DESC, id LIMIT 200)" | tr '|' ' ')" \
	"$(vc get "$BASE/regions?token=$TOKEN" | sed 1d | python3 -c "
import json, sys
for r in json.load(sys.stdin)['regions']: print(r['kind'], r['name'], r['addr'], r['size'])")"
check_eq "/at without ranges: 400" 400 "$(status "$BASE/at?token=$TOKEN&addr=5:1")"
check_eq "/at: each row's struct field is its instruction's (pc_types)" \
	"$(python3 -c "
import json
for r in json.load(open('at.json'))['rows']: print(r['pc'], r['field'])" | while read -r pc fld; do
		echo "$pc $(dq t.db "SELECT coalesce((SELECT type || CASE WHEN field IS NULL THEN ' (padding)'
		  WHEN field = '' THEN '' ELSE '.' || field END FROM pc_types WHERE pc = $pc), 'None')")"; done)" \
	"$(python3 -c "
import json
for r in json.load(open('at.json'))['rows']: print(r['pc'], r['field'])")"
check_gt "/at: some of them typed" 0 "$(python3 -c "
import json; print(sum(1 for r in json.load(open('at.json'))['rows'] if r['field']))")"

# /top: the busiest functions and blocks of a view; the whole trace from
# the summaries, any other view from its accesses: the same rows when
# the view holds every access.
top() {
	vc get "$BASE/top?token=$TOKEN$1" | sed 1d | python3 -c "
import json, sys
j = json.load(sys.stdin)
for r in j['top']:
    if r['kind'] != 'scanned': print(r['kind'], r['name'], r['size'], r['site'], r['reads'], r['writes'])
print('exact' if j.get('exact') else 'scanned', *[r['reads'] for r in j['top'] if r['kind'] == 'scanned'])"
}
top "" >top.whole
top "&icount=0:$(dq t.db "SELECT max(icount_hi) + 1 FROM chunks")" >top.all
check_eq "/top of the whole trace: exact, from the summaries" exact "$(tail -n 1 top.whole)"
check_eq "/top: the whole trace's busiest functions = SQL's" \
	"$(dq t.db "SELECT 'fn ' || f.name || ' None None ' || sum(a.is_write = 0) || ' ' || sum(a.is_write) FROM accesses a
	  LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id LEFT JOIN functions f ON f.id = p.function_id
	  GROUP BY p.function_id ORDER BY count(*) DESC LIMIT 10")" "$(grep '^fn ' top.whole)"
check_eq "/top: the whole trace's busiest blocks = SQL's" \
	"$(dq t.db "SELECT 'block ' || a.block_id || ' ' || b.size || ' ' || (SELECT sf.name FROM dg_frames(b.alloc_stack_id) fr
	  JOIN pcs sp ON sp.pc = fr.pc AND sp.module_id = fr.module_id JOIN functions sf ON sf.id = sp.function_id
	  ORDER BY fr.depth LIMIT 1) || ' ' || sum(a.is_write = 0) || ' ' || sum(a.is_write)
	  FROM accesses a JOIN blocks b ON b.id = a.block_id GROUP BY a.block_id ORDER BY count(*) DESC, a.block_id LIMIT 10")" \
	"$(grep '^block ' top.whole)"
check_eq "/top of a view holding every access: the same rows, every access scanned" \
	"$(sed '$d' top.whole; echo "scanned $(dq t.db "SELECT count(*) FROM accesses")")" "$(cat top.all)"

# The page's filter: events= and ranges= on /grid, /at and /top, as
# --events and --ranges; a bad one is 400 with the compiler's message;
# /names completes a condition from the trace's names.
FN=transpose_naive
"$DGSQL" t.db --events "fn:$FN" --plot-data filt.dat >/dev/null 2>>plot.err
grid "$WH&events=fn:$FN" filtq.json
check_eq "events=fn:$FN: /grid = --plot-data --events fn:$FN" "SAME" "$(vc plot filtq.json filt.dat | cut -d' ' -f1)"
"$DGSQL" t.db --ranges malloc --plot-data rmal.dat >/dev/null 2>>plot.err
grid "$WH&ranges=malloc" rmal.json
check_eq "ranges=malloc: /grid = --plot-data --ranges malloc" "SAME" "$(vc plot rmal.json rmal.dat | cut -d' ' -f1)"
grid "$WH&events=" unf.json
check_eq "events= (empty): every access again" "SAME" "$(vc plot unf.json whole.dat | cut -d' ' -f1)"
check_eq "/top under events=fn:$FN: its functions = SQL's under the filter" \
	"$("$DGSQL" t.db --events "fn:$FN" -c "SELECT 'fn ' || f.name || ' None None ' || sum(a.is_write = 0) || ' ' || sum(a.is_write)
	  FROM filtered_accesses a LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id
	  LEFT JOIN functions f ON f.id = p.function_id GROUP BY p.function_id ORDER BY count(*) DESC LIMIT 10")" \
	"$(top "&events=fn:$FN&icount=0:999999999999" | grep '^fn ')"
vc get "$BASE/grid?token=$TOKEN&w=10&h=10&events=fn:nonesuch_fn" >bad3
check_eq "events=fn:nonesuch_fn: 400 naming the condition" "400 1" \
	"$(head -n 1 bad3) $(grep -c "^filter: --events: no code matches 'fn:nonesuch_fn'" bad3)"
check_eq "ranges=bogus: 400" 400 "$(status "$BASE/top?token=$TOKEN&ranges=bogus")"
names() {
	vc get "$BASE/names?token=$TOKEN&$1" | sed 1d | python3 -c "import json, sys; print(*json.load(sys.stdin)['names'])"
}
check_eq "/names: fn:transpose_ completes to the trace's functions" "fn:transpose_naive fn:transpose_tiled" \
	"$(names "list=events&text=fn:transpose_")"
check_eq "/names: the words --events takes" "dso: file: fn: user:" "$(names "list=events&text=")"
check_eq "/names: the words --ranges takes" "dso: field: file: fn: malloc range user:" "$(names "list=ranges&text=")"
check_eq "/names without list=: 400" 400 "$(status "$BASE/names?token=$TOKEN&text=fn:")"

# --snapshot DIR: the page as files, opened from the disk; its picture
# is --plot-data's at 1800 x 1200, the canvas shows it two cells by two,
# and the wheel zooms within it.
snapjs() {
	python3 -c "
import json, sys
js = open('$1/snapshot.js').read()
json.dump(json.loads(js[js.index('=') + 1:].strip().rstrip(';'))['grid'], sys.stdout)" >"$2"
}
# --size is the image's: the cells are less its margins, measured here
"$DGSQL" t.db --size 1800x1200 --plot-data m.dat >/dev/null 2>>plot.err
SNAPSIZE=$(sed -n 's/.*(cells \([0-9]*\) x \([0-9]*\)).*/\1 \2/p' m.dat | awk '{ print 3600 - $1 "x" 2400 - $2 }')
mkdir -p snap
echo old >snap/stale
"$DGSQL" t.db --events "fn:$FN" --snapshot snap 2>snap.err
check_eq "--snapshot: exit status 0, nothing said" "0 0" "$? $(wc -c <snap.err)"
check_eq "--snapshot: DIR replaced by the page's four files, each 0600" \
	"index.html 600 snapshot.js 600 viewer.css 600 viewer.js 600" \
	"$(cd snap && for f in *; do printf '%s %s ' "$f" "$(stat -c %a "$f")"; done | sed 's/ $//')"
check_eq "--snapshot: nothing left aside" "" "$(ls -d snap.tmp-* 2>/dev/null)"
"$DGSQL" t.db --events "fn:$FN" --size "$SNAPSIZE" --plot-data snapf.dat >/dev/null 2>>plot.err
snapjs snap snapf.json
check_eq "--snapshot --events fn:$FN: its cells = --plot-data's 1800 x 1200" "SAME" \
	"$(vc plot snapf.json snapf.dat | cut -d' ' -f1)"
"$DGSQL" t.db --snapshot snap 2>snap.err
"$DGSQL" t.db --size "$SNAPSIZE" --plot-data snapw.dat >/dev/null 2>>plot.err
snapjs snap snapw.json
check_eq "--snapshot of the whole trace: its cells = --plot-data's 1800 x 1200" "SAME" \
	"$(vc plot snapw.json snapw.dat | cut -d' ' -f1)"
check_eq "--snapshot into a directory that cannot be made: exit 1, a message" "1 1" \
	"$("$DGSQL" t.db --snapshot no/such/dir 2>snap2.err; echo $?) $(grep -c "^dgsql: --snapshot: cannot make 'no/such/dir.tmp-" snap2.err)"
check_eq "--snapshot with --serve: a usage error" 2 "$("$DGSQL" t.db --snapshot x --serve >/dev/null 2>&1; echo $?)"
# The page in Chromium: the canvas's pixels are the cells; hovering over
# the busiest cell shows its code, clicking lists it with its SQL.
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
	mkdir -p page
	grid "w=900&h=600&events=fn:$FN" pagef.json
	vc browse "$URL" page.json page "$COL" "$ROW" "fn:transpose_n" "fn:$FN" pagef.json snap >browse.out 2>browse.err
	st=$?
	if [ $st -eq 77 ]; then
		echo "# skip: chromium cannot run here: $(head -c 200 browse.err)"
	else
		check_eq "chromium: the canvas shows exactly /grid's cells" SAME "$(sed -n 1p browse.out | cut -d' ' -f1)" ||
			diag_file browse.out
		check_eq "chromium: the busiest-in-view panel lists /top's functions" \
			"$(grep '^fn ' top.whole | cut -d' ' -f2,5,6)" \
			"$(python3 -c "
import json
for r in json.load(open('page/page.json'))['topfns']: print(*r)")"
		check_eq "chromium: typing fn:transpose_n offers fn:$FN" "fn:$FN" \
			"$(python3 -c "import json; print(*json.load(open('page/page.json'))['filtered']['completions'])")"
		check_eq "chromium: with fn:$FN entered, the canvas shows /grid's cells under it" "FILTERED SAME" \
			"$(sed -n 2p browse.out | cut -d' ' -f1,2)" || diag_file browse.out
		check_eq "chromium: and the panel its busiest functions" \
			"$(top "&events=fn:$FN" | grep '^fn ' | cut -d' ' -f2,5,6)" \
			"$(python3 -c "
import json
for r in json.load(open('page/page.json'))['filtered']['topfns']: print(*r)")"
	check_eq "chromium, the snapshot from the disk: the canvas shows its cells two by two" \
		SAME "$(sed -n 's/^SNAPSHOT //p' browse.out | cut -d' ' -f1)" || diag_file browse.out
	sj() {
		python3 -c "import json; s = json.load(open('page/snap.json')); print($1)"
	}
	check_eq "chromium, the snapshot: no console message, nothing fetched" "[] []" \
		"$(sj "s['console'], [r for r in s['resources'] if not r.startswith('file:')]")"
	check_eq "chromium, the snapshot: the wheel zooms in within its cells" "snapshot True True" \
		"$(sj "s['zoomed_status'].split('(')[1].rstrip(')'), 0 < s['zoomed_lit'] < s['lit'],
  int(s['axis'][0], 16) <= int(s['zoomed_axis'][0], 16) < int(s['zoomed_axis'][1], 16) <= int(s['axis'][1], 16)")"
	check_eq "chromium, the snapshot: its busiest functions listed" \
		"$(grep '^fn ' top.whole | cut -d' ' -f2,5,6)" "$(sj "chr(10).join(' '.join(r) for r in s['topfns'])")"
		check_eq "chromium: no console message" "[]" \
			"$(python3 -c 'import json; print(json.load(open("page/page.json"))["console"])')"
		check_eq "chromium: fetched from its own server only" "" \
			"$(python3 -c "
import json
print(' '.join(r for r in json.load(open('page/page.json'))['resources'] if not r.startswith('$BASE/')))")"
		check_gt "chromium: the events drawn as bands along the time axis" 100 \
			"$(python3 -c 'import json; print(json.load(open("page/page.json"))["banded"])')"
		check_gt "chromium: the tracked ranges and blocks drawn under the picture" 10 \
			"$(python3 -c 'import json; print(json.load(open("page/page.json"))["abanded"])')"
		check_eq "chromium: the trace's name shown as text" 1 \
			"$(python3 -c 'import json; print(json.load(open("page/page.json"))["trace"])' | grep -c transpose)"
		pg() {
			python3 -c "import json; p = json.load(open('page/page.json')); print($1)"
		}
		# the cell the mouse landed on (the page says which: the canvas's
		# CSS position may be fractional), asked of /at directly
		set -- $(pg "p['info_cell']")
		vc get "$BASE/at?token=$TOKEN&addr=$1&icount=$2" | sed 1d >at.json
		check_eq "chromium: hovering over the busiest cell shows its code, /at's first" \
			"$(at1 "r['function']")" "$(pg "p['info'].split()[0]")"
		pg "p['sql']" >picked.sql
		sed -n 's/^WHERE a.addr >= \([0-9]*\) AND a.addr < \([0-9]*\) AND a.icount >= \([0-9]*\) AND a.icount < \([0-9]*\)$/\1:\2 \3:\4/p' picked.sql >picked.cell
		set -- $(cat picked.cell)
		vc get "$BASE/at?token=$TOKEN&addr=$1&icount=$2" | sed 1d >at.json
		check_eq "chromium: clicking lists /at's rows for the cell clicked" \
			"$(at1 "r['function'], r['reads'], r['writes']")" \
			"$(pg "' '.join(p['picked'][0][i] for i in (0, 2, 3))")"
		check_eq "chromium: the SQL shown gives the same first row in dgsql" \
			"$(at1 "r['function'], r['reads'], r['writes']")" \
			"$("$DGSQL" t.db <picked.sql 2>sql.err | head -n 1 | awk -F'|' '{ print $1, $4, $5 }')"
	fi
else
	echo "# skip: chromium or chromedriver is not installed"
fi

check_eq "1000 requests at once: all answered, and the server still is" "1000 200" \
	"$(vc load "$BASE/meta?token=$TOKEN" 1000)"
stop
check_eq "SIGINT: exit status 0" 0 "$?"
check_eq "the port is closed" 0 "$(status "$BASE/meta?token=$TOKEN")"

# Under a filter: the server's cells are the filtered plot's.
FN=transpose_naive
serve f --events "fn:$FN" --port 0
"$DGSQL" t.db --events "fn:$FN" --plot-data filt.dat >/dev/null 2>>plot.err
grid "$WH" filt.json
check_eq "--events fn:$FN: /grid = --plot-data" "SAME" "$(vc plot filt.json filt.dat | cut -d' ' -f1)"
check_eq "--events fn:$FN: /meta names the filter" "--events fn:$FN" \
	"$(vc get "$BASE/meta?token=$TOKEN" | sed 1d | python3 -c 'import json, sys; print(json.load(sys.stdin)["filter"])')"
stop
check_eq "--port needs --serve" 2 "$("$DGSQL" t.db --port 5 -c 'select 1' >/dev/null 2>&1; echo $?)"
check_eq "--port 70000: a usage error" 2 "$("$DGSQL" t.db --serve --port 70000 >/dev/null 2>&1; echo $?)"
finish
