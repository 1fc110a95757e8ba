#!/bin/sh
# t1550-dgsql-hostile: a program whose every name attacks the reader
# (tests/progs/hostile.c: a line feed then `system "touch pwned"`, quotes,
# backquotes, $(...), terminal escapes, a C1 CSI, invalid UTF-8), run from
# a directory of that name and mapping a file of that name, traced and
# imported (dg-import's warning about the range's type name escaped).
# Then: the names really are in the database; plots (png, svg,
# pdf, .plot from a script, a filter typed with a line feed in the title)
# run nothing (no file `pwned` appears); every canned query, .stats and
# plain SELECTs of the hostile tables in list, table, column, line and tsv
# modes print no control character but the mode's own line feeds (tabs in
# tsv) and only valid UTF-8, on stdout and stderr; CSV and JSON give back
# the label and path bytes exactly (python3 csv / json.loads with
# surrogateescape).
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_prog hostile
need_cmd python3
need_cmd gnuplot

# The same bytes as HOSTILE in hostile.c.
H=$(printf 'x\nsystem "touch pwned"\n#\047"`touch pwned`$(touch pwned)\033]0;owned\007\033[2J\302\23331m\377\376\r^_@&~{}')
rm -rf ./x* pwned
mkdir "$H" && cp "$DG_PROGS/hostile" "$H/hostile" &&
	head -c 8192 /dev/zero >"$H/$H.map" || bail "hostile directory made"
DG_NATIVE=no run_dg h.log -- "./$H/hostile" "./$H/$H.map" || finish
check_eq "hostile: exit status 0" 0 "$DG_STATUS" || diag_file dg.err
rm -f h.db
check_run "dg-import of the hostile trace" "$DG_IMPORT" -q h.log h.db || finish
# the range's hostile type name is named no type: warned about, made inert
check_eq "dg-import: the unknown hostile type name warned about once" 1 \
	"$(grep -c "TRACK_RANGE type .*its fields are unknown" check_run.out)"
check_eq "dg-import: its output has no control character but line feeds" 0 \
	"$(tr -d '\n' <check_run.out | LC_ALL=C grep -c '[[:cntrl:]]')"

# The attack is in the database (else this test proves nothing).
check_eq "meta.exe holds the line feeds and ESC" 1 \
	"$(dq h.db "SELECT instr(value, char(10)) > 0 AND instr(value, char(27)) > 0 FROM meta WHERE key = 'exe'")"
check_eq "a module path holds them" 1 \
	"$(dq h.db "SELECT count(*) > 0 FROM modules WHERE instr(path, char(10) || 'system') > 0 AND path LIKE '%.map'")"
check_eq "ranges and events labels hold them" "1|1" \
	"$(dq h.db "SELECT (SELECT count(*) FROM ranges WHERE instr(label, char(27)) > 0), (SELECT count(*) FROM events WHERE instr(label, char(27)) > 0)")"

# ---------------------------------------------------------------- plots
for ext in png svg pdf; do
	dq h.db --plot "p.$ext"
	check_eq "--plot p.$ext exits 0" 0 "$?" || diag_file dq.err
done
printf '.plot s.png\n' | dq h.db
check_eq ".plot from a script exits 0" 0 "$?" || diag_file dq.err
F=$(printf 'user:x\nsystem "touch pwned"\n#\033[2J')
dq h.db --ranges "malloc,$F" --plot f.svg
check_eq "--plot with a line feed in the filter (title) exits 0" 0 "$?" || diag_file dq.err
# Zoomed on the mapped file's page: its basename is the region label.
M=$(dq h.db "SELECT mp.start || ':' || (mp.start + 4096) FROM mappings mp JOIN modules m ON m.id = mp.module_id WHERE m.path LIKE '%.map' LIMIT 1")
dq h.db --addr-range "$M" --plot m.svg
check_eq "--plot zoomed on the mapped file exits 0" 0 "$?" || diag_file dq.err
check_gt "the file's name labels its region, escaped" 0 \
	"$(grep -c 'x\\x0asystem.*\.map<' m.svg)"
dq h.db --plot "$(printf 'n\nl.png')" 2>/dev/null
check_eq "a plot name with a line feed is refused" 1 "$?"
check_eq "no plot ran a command: no file pwned" "" "$(find . -name pwned)"

# ---------------------------------------------------------------- terminal
cat >clean.py <<'PY'
import sys
# Bytes a terminal must not receive raw: C0 controls (but \n, and \t
# where the mode separates with it), DEL, C1 controls, invalid UTF-8.
allow = {10, 9} if sys.argv[1] == 'tsv' else {10}
bad = 0
for path in sys.argv[2:]:
    data = open(path, 'rb').read()
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as e:
        print('%s: invalid UTF-8 at byte %d' % (path, e.start)); bad += 1
        continue
    for i, ch in enumerate(text):
        c = ord(ch)
        if (c < 32 and c not in allow) or c == 127 or 128 <= c < 160:
            print('%s: raw U+%04X at character %d' % (path, c, i)); bad += 1
            break
sys.exit(1 if bad else 0)
PY
queries=$(ls "$DG_TOP/queries" | sed -n 's/\.sql$//p')
for m in list table column line tsv; do
	: >"out.$m"
	: >"err.$m"
	for c in .stats "SELECT * FROM ranges" "SELECT * FROM events" \
		"SELECT * FROM modules" "SELECT * FROM meta" \
		"SELECT label FROM ranges WHERE label = 0" ".tables" \
		"SELECT label + FROM ranges" ; do
		"$DGSQL" -m "$m" h.db "$c" >>"out.$m" 2>>"err.$m"
	done
	for q in $queries; do
		"$DGSQL" -m "$m" h.db ".q $q" >>"out.$m" 2>>"err.$m"
	done
	"$DGSQL" -m "$m" --ranges "user:$H" h.db ".q by_range" >>"out.$m" 2>>"err.$m"
	"$DGSQL" -m "$m" --events "fn:$H" h.db ".q by_range" >>"out.$m" 2>>"err.$m"
	check_gt "$m: the hostile label was printed" 0 \
		"$(grep -c 'touch pwned' "out.$m")"
	python3 clean.py "$m" "out.$m" "err.$m" >"clean.$m"
	check_eq "$m mode: no raw control character or invalid UTF-8 on stdout or stderr" 0 "$?" ||
		diag_file "clean.$m"
done

# ---------------------------------------------------------------- csv, json
cat >roundtrip.py <<'PY'
import csv, io, json, sys
H = (b'x\nsystem "touch pwned"\n#\'"`touch pwned`$(touch pwned)'
     b'\x1b]0;owned\x07\x1b[2J\xc2\x9b31m\xff\xfe\r^_@&~{}')
kind, path = sys.argv[1], sys.argv[2]
text = open(path, 'rb').read().decode('utf-8', 'surrogateescape')
if kind == 'csv':
    rows = list(csv.reader(io.StringIO(text, newline='')))
else:
    rows = [[r[k] for k in r] for r in json.loads(text)]
for r in rows:
    got = [v.encode('utf-8', 'surrogateescape') if isinstance(v, str) else v
           for v in r]
    ok = got[0] == H and got[1] == H and got[2].endswith(b'/' + H + b'/hostile')
    print('yes' if ok else 'no: %r' % (got,))
PY
Q="SELECT r.label AS a, e.label AS b, (SELECT value FROM meta WHERE key = 'exe') AS c FROM ranges r, events e"
"$DGSQL" -c h.db "$Q" >rt.csv 2>rt.err
check_eq "csv: labels and exe path round-trip" yes \
	"$(python3 roundtrip.py csv rt.csv 2>&1)" || diag_file rt.csv
"$DGSQL" --json h.db "$Q" >rt.json 2>rt.err
check_eq "json: labels and exe path round-trip" yes \
	"$(python3 roundtrip.py json rt.json 2>&1)" || diag_file rt.json
check_eq "no command ran at all: no file pwned" "" "$(find . -name pwned)"
finish
