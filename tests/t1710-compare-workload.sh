#!/bin/sh
# t1710-compare-workload: dgsql --compare on the benchmark program
# (bench/workload.c), so that `make test` (and .ci/run) exercises the
# comparison a CI job makes.  Every round of the workload does the same
# work (only its seed changes), so a 2-round run against a 1-round run
# doubles exactly the accesses of the phases whose work does not depend on
# the data (the matrix multiply's mm_block, the stencil's stencil_step,
# the list walk ll_walk): --compare must show +100.0% for each and fail on
# 'accesses>+5%'; the same 1-round run traced twice compares equal: exit 0
# under every condition.  The Markdown, JSON and plots are made as a CI
# job makes them.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_cmd python3
W=$DG_TEST_TMP/workload
cc -O2 -g -o "$W" "$DG_TOP/bench/workload.c" || bail "bench/workload.c builds"

# trace DB ROUNDS: trace the workload and import it
trace() {
	"$DATAGRIND" --datagrind-out-file="$1.log" "$W" "$2" >"$1.out" 2>"$1.err" ||
		bail "workload $2 traced"
	"$DG_IMPORT" -q "$1.log" "$1" 2>"$1.imp" || bail "workload $2 imported"
	rm -f "$1.log"
}
trace base.db 1
trace again.db 1
trace head.db 2

conds="--fail-if accesses>+1% --fail-if heap_peak>+1% --fail-if fn:accesses>+1%
	--fail-if site:allocs>+0 --fail-if block:bytes>+0 --fail-if lines>+1%"
# shellcheck disable=SC2086
"$DGSQL" again.db --compare base.db $conds >same.txt 2>same.err
check_eq "the same run twice: exit 0 under every condition" 0 "$?" || diag_file same.err
check_eq "the same run twice: nothing changed" 1 \
	"$(grep -c '^total *[0-9]* *[0-9]* *+0 *+0.0% *+0 *+0 *+0 *+0 *+0 *+0 *total$' same.txt)" ||
	diag_file same.txt

"$DGSQL" head.db --compare base.db --format json --top 0 \
	--fail-if 'accesses>+5%' >double.json 2>double.err
check_eq "2 rounds against 1: exit 1" 1 "$?" || diag_file double.err
check_eq "2 rounds against 1: one regression line" 1 \
	"$(grep -c '^dgsql: regression: accesses>+5%: 1 of 1 totals; total accesses' double.err)"
python3 - double.json >ratio.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fn = {r['name']: r for r in d['rows'] if r['kind'] == 'fn'}
for name in ('mm_block', 'stencil_step', 'll_walk'):
    r = fn.get(name)
    if r is None or r['base'] is None or r['head'] is None:
        print(name, 'missing'); continue
    b, h = r['base']['accesses'], r['head']['accesses']
    print(name, 'doubled' if h == 2 * b and b > 0 else '%s -> %s' % (b, h))
PY
check_eq "2 rounds against 1: mm_block, stencil_step, ll_walk exactly doubled" \
	"mm_block doubled stencil_step doubled ll_walk doubled" "$(tr '\n' ' ' <ratio.txt | sed 's/ $//')"

"$DGSQL" head.db --compare base.db --format markdown -o compare.md \
	--fail-if 'accesses>+5%' 2>md.err
check_eq "Markdown to a file: exit 1" 1 "$?"
check_ge "Markdown: a table row per changed entity" 10 "$(grep -c '^| fn |' compare.md)"
if command -v gnuplot >/dev/null 2>&1; then
	check_run "plots of the two runs" "$DGSQL" head.db --compare base.db \
		--plot both.png --plot-change change.svg --size 1000x500
	check_eq "plots: the two runs side by side, 1000x500" "1000 500" \
		"$(png_info both.png | awk '{ print $1, $2 }')"
	check_eq "plots: the change per function names stencil_step" 1 \
		"$(grep -c '<text>stencil_step</text>' change.svg)"
fi
finish
