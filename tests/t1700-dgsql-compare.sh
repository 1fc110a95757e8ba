#!/bin/sh
# t1700-dgsql-compare: dgsql HEAD.db --compare BASE.db on real traces.
# regress.c and its -DWORSE build (another build: other code addresses)
# differ in one thing, provably: scan_index reads the index block (1024
# ints, the only block of site make_index) twice instead of once, 1024
# more 4-byte reads.  The comparison must put that function and that block
# at the top, with exactly +1024 accesses and +4096 bytes on the block, and
# exit 1 on --fail-if, one line per failed condition; an identical re-run
# exits 0; unrelated programs still compare and say how little matched; a
# trace whose every name differs matched nothing: exit 2; a truncated
# trace is said to be one; Markdown tables are well formed, JSON parses,
# and trace text is escaped in each.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_cmd sqlite3
need_cmd python3
trace_db base.db regress || finish
trace_db again.db regress || finish
trace_db head.db regress-worse || finish
trace_db other.db writes || finish

# ---------------------------------------------------------------- worse
"$DGSQL" head.db --compare base.db --format json --top 0 \
	--fail-if 'accesses>+1%' --fail-if 'fn:accesses>+50%' \
	--fail-if 'heap_peak>+1MiB' >worse.json 2>worse.err
check_eq "worse build: exit 1 (a regression)" 1 "$?" || diag_file worse.err
check_run "worse build: the JSON parses" python3 -m json.tool worse.json
# the rows that are neither the whole trace nor a thread (which always
# change with it), in the tool's order
python3 - worse.json >top.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d['rows'] if r['kind'] not in ('total', 'thread')]
for r in rows[:3]:
    c = r['change']
    print(r['kind'], c['accesses'], c['bytes'], r['name'])
PY
check_eq "worse build: the top row is function scan_index" "fn scan_index" \
	"$(sed -n 1p top.txt | awk '{ print $1, $4 }')" || diag_file top.txt
check_ge "worse build: scan_index makes at least 1024 more accesses" 1024 \
	"$(sed -n 1p top.txt | awk '{ print $2 }')"
blk=$(grep '^block ' top.txt | head -n 1)
check_eq "worse build: the index block is in the top three, +1024 accesses, +4096 bytes" \
	"block 1024 4096 make_index < main" \
	"$(echo "$blk" | awk '{ print $1, $2, $3, $4, $5, $6 }')" || diag_file top.txt
case $blk in
*' #1') ok "worse build: the block is the first of its site" ;;
*) not_ok "worse build: the block is the first of its site"; diag "$blk" ;;
esac
check_eq "worse build: two failed conditions, one line each" 2 \
	"$(grep -c '^dgsql: regression: ' worse.err)"
check_eq "worse build: the function condition names scan_index" 1 \
	"$(grep -c "^dgsql: regression: fn:accesses>+50%: 1 of [0-9]* functions; worst fn scan_index accesses" worse.err)" ||
	diag_file worse.err
check_eq "worse build: the heap did not grow" 0 "$(grep -c heap_peak worse.err)"
check_eq "worse build: the regressions are in the JSON" 2 \
	"$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["regressions"]))' worse.json)"
# the per-function totals are sum_fn_block's, matched by name
want=$(dq head.db "SELECT sum(s.accesses) FROM sum_fn_block s JOIN functions f ON f.id = s.function_id WHERE f.name = 'scan_index'")
check_eq "worse build: HEAD's scan_index count is sum_fn_block's" "$want" \
	"$(python3 -c 'import json,sys; print([int(r["head"]["accesses"]) for r in json.load(open(sys.argv[1]))["rows"] if r["name"] == "scan_index"][0])' worse.json)"

# --decode: a function's distinct lines and pages, from every access.
# scan_index reads the 4096-byte index block (64 or 65 lines: malloc
# aligns to 16) and its own stack frame, in both builds alike but for the
# worse build's second loop counter (at most one more line).
"$DGSQL" head.db --compare base.db --decode --format json --top 0 >decode.json 2>decode.err
check_eq "--decode: exit 0" 0 "$?" || diag_file decode.err
set -- $(python3 -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["rows"] if r["name"] == "scan_index"][0]; print(int(r["head"]["lines"]), int(r["change"]["lines"]), int(r["head"]["pages"]))' decode.json)
check_ge "--decode: scan_index touches at least the block's 64 lines" 64 "${1:-x}"
check_le "--decode: ... and at most 4 more (its stack frame)" 69 "${1:-x}"
check_le "--decode: the worse build touches the same lines, its loop counter aside" 1 "${2:-x}"
check_le "--decode: within 3 pages" 3 "${3:-x}"

# text: the same order
"$DGSQL" head.db --compare base.db >worse.txt 2>/dev/null
check_eq "worse build, text: exit 0 without --fail-if" 0 "$?"
check_eq "worse build, text: scan_index is the first function row" "scan_index" \
	"$(awk '$1 == "fn" { print $NF; exit }' worse.txt)" || diag_file worse.txt

# ---------------------------------------------------------------- same
"$DGSQL" again.db --compare base.db --fail-if 'accesses>+1%' \
	--fail-if 'fn:accesses>+5%' --fail-if 'site:allocs>+0' \
	--fail-if 'block:bytes>+0' --fail-if 'heap_peak>+1MiB' \
	>same.txt 2>same.err
check_eq "identical re-run: exit 0" 0 "$?" || diag_file same.err
check_eq "identical re-run: no regression line" 0 \
	"$(grep -c 'regression' same.err)"
check_eq "identical re-run: every function matched" 1 \
	"$(grep -c '^matched functions make 100.0% of BASE.s and 100.0% of HEAD.s' same.txt)" ||
	diag_file same.txt

# ---------------------------------------------------------------- markdown
"$DGSQL" head.db --compare base.db --format markdown --top 10 \
	--fail-if 'fn:accesses>+50%' >worse.md 2>/dev/null
check_eq "markdown: exit 1" 1 "$?"
python3 - worse.md >md.check <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
tab = [l for l in lines if l.startswith('|')]
def cells(l):
    # split on | not escaped by a backslash
    return re.split(r'(?<!\\)\|', l)[1:-1]
bad = []
if len(tab) < 3: bad.append('fewer than 3 table lines')
n = len(cells(tab[0])) if tab else 0
if tab and not re.fullmatch(r'\|(:?-+:?\|)+', tab[1]): bad.append('no delimiter row: ' + tab[1])
for l in tab:
    if not l.endswith('|'): bad.append('row does not end in |: ' + l)
    if len(cells(l)) != n: bad.append('%d cells, not %d: %s' % (len(cells(l)), n, l))
# the table is one block: no blank line inside it
first = lines.index(tab[0]) if tab else 0
if tab and lines[first:first + len(tab)] != tab: bad.append('table not contiguous')
for b in bad: print(b)
PY
check_empty "markdown: one well-formed table (header, delimiter, equal cell counts)" md.check
check_eq "markdown: names escaped (make\\_index \\< main)" 1 \
	"$(grep -c '^| site | make\\_index \\< main \\< ' worse.md)" || diag_file worse.md
check_eq "markdown: the regression listed" 1 "$(grep -c '^- \*\*regression\*\*: fn:accesses' worse.md)"

# ---------------------------------------------------------------- unrelated
"$DGSQL" other.db --compare base.db --fail-if 'fn=nosuch:accesses>+5%' \
	>other.txt 2>other.err
check_eq "unrelated programs: still compared, exit 0" 0 "$?" || diag_file other.err
check_eq "unrelated programs: the header says how much matched" 1 \
	"$(grep -c '^matched by name: functions [0-9]* of [0-9]*/[0-9]*, sites ' other.txt)"
check_eq "unrelated programs: sum is new, scan_index gone" "new gone" \
	"$(awk '$1 == "fn" && $NF == "sum" { a = $5 } $1 == "fn" && $NF == "scan_index" { b = $5 } END { print a, b }' other.txt)" ||
	diag_file other.txt 30
check_eq "a condition naming nothing is a warning, not a failure" 1 \
	"$(grep -c "^dgsql: warning: --fail-if fn=nosuch:accesses>+5%: no functions by that name" other.err)"

# every name changed: nothing but the totals and the thread can match
cp base.db renamed.db
sqlite3 renamed.db "UPDATE functions SET name = 'other_' || name" || bail "renamed.db"
"$DGSQL" renamed.db --compare base.db --format json >renamed.json 2>renamed.err
check_eq "nothing matched: exit 2" 2 "$?"
check_eq "nothing matched: said so" 1 "$(grep -c 'nothing matched by name' renamed.err)"
check_run "nothing matched: the JSON was written all the same" python3 -m json.tool renamed.json

# ---------------------------------------------------------------- truncated
sz=$(wc -c <base.db.log)
head -c $((sz * 2 / 3)) base.db.log >trunc.log
rm -f trunc.db
"$DG_IMPORT" -q trunc.log trunc.db 2>/dev/null
check_eq "truncated log imported as incomplete" 0 \
	"$(dq trunc.db "SELECT value FROM meta WHERE key = 'complete'")"
"$DGSQL" trunc.db --compare base.db >trunc.txt 2>trunc.err
check_eq "truncated HEAD: compared (exit 0)" 0 "$?" || diag_file trunc.err
check_eq "truncated HEAD: the output says so" 1 \
	"$(grep -c '^warning: HEAD is not a complete trace (meta.complete = 0: trunc.log: byte' trunc.txt)"
check_eq "truncated HEAD: so does stderr" 1 \
	"$(grep -c '^dgsql: warning: HEAD trunc.db is not a complete trace' trunc.err)"

# ---------------------------------------------------------------- hostile text
# a function name with a newline, a quote, markup and an escape sequence
cp head.db evil.db
sqlite3 evil.db "UPDATE functions SET name = 'evil' || char(10) || 'x\"|<b>*' || char(27) || '[31m' WHERE name = 'scan_index'" || bail "evil.db"
"$DGSQL" evil.db --compare base.db --format json --top 0 >evil.json 2>/dev/null
check_eq "hostile name, JSON: parses and keeps the bytes" 1 \
	"$(python3 -c 'import json,sys; print(sum(r["name"] == "evil\nx\"|<b>*\x1b[31m" for r in json.load(open(sys.argv[1]))["rows"]))' evil.json)"
"$DGSQL" evil.db --compare base.db --top 0 >evil.txt 2>/dev/null
check_eq "hostile name, text: no raw escape or control byte" 0 \
	"$(tr -d '\n' <evil.txt | LC_ALL=C grep -c "$(printf '\033')")"
check_eq "hostile name, text: shown as \\x0a and \\x1b" 1 \
	"$(grep -c 'evil\\x0ax"|<b>\*\\x1b\[31m' evil.txt)"
"$DGSQL" evil.db --compare base.db --format markdown --top 0 >evil.md 2>/dev/null
check_eq "hostile name, Markdown: one line, | and < > * escaped" 1 \
	"$(grep -c '^| fn | evil\\x0ax"\\|\\<b\\>\\\*\\x1b\\\[31m |' evil.md)" || diag_file evil.md 12

# ---------------------------------------------------------------- plots, usage
if command -v gnuplot >/dev/null 2>&1; then
	"$DGSQL" evil.db --compare base.db --size 800x400 --plot both.png \
		--plot-change fn.svg 2>plot.err >/dev/null
	check_eq "plots: exit 0" 0 "$?" || diag_file plot.err
	check_eq "plots: the side-by-side PNG is 800x400" "800 400" \
		"$(png_info both.png | awk '{ print $1, $2 }')"
	check_eq "plots: the change SVG names evil as text, escaped" 1 \
		"$(grep -c '<text>evil\\x0ax"|&lt;b>\*\\x1b\[31m</text>' fn.svg)"
	check_eq "plots: files mode 0600" "600 600" \
		"$(stat -c %a both.png) $(stat -c %a fn.svg)"
fi
check_status "usage: a bad --fail-if is exit 2" 2 "$DGSQL" head.db --compare base.db --fail-if 'acesses>+5%'
check_eq "usage: the message says where" 1 \
	"$(grep -c "fail-if 'acesses>+5%': at byte 0: unknown metric 'acesses'" check_run.out)" ||
	diag_file check_run.out
check_status "usage: a percentage without a sign is exit 2" 2 "$DGSQL" head.db --compare base.db --fail-if 'accesses>5%'
check_status "usage: a missing BASE is exit 2" 2 "$DGSQL" head.db --compare nosuch.db
check_status "usage: no HEAD is exit 2" 2 "$DGSQL" --compare base.db
check_status "--compare --help is exit 0" 0 "$DGSQL" --compare --help
check_eq "--help documents the grammar" 1 "$(grep -c '^      \[SCOPE:\]METRIC OP VALUE$' check_run.out)"
mkdir ro && chmod 500 ro
"$DGSQL" head.db --compare base.db -o ro/out.md --format markdown 2>ro.err
st=$?
chmod 700 ro
if [ "$(id -u)" != 0 ]; then
	check_eq "unwritable output: exit 2" 2 "$st"
	check_eq "unwritable output: nothing left in the directory" "" "$(ls ro)"
fi
"$DGSQL" head.db --compare base.db -o out.md --format markdown 2>/dev/null
check_eq "-o: written, mode 0600, nothing left aside" "600 out.md" \
	"$(stat -c %a out.md) $(ls out.md*)"
finish
