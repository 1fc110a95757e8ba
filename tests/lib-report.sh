# lib-report.sh: helpers for the report scripts (t157N-dgsql-report*.sh),
# sourced after lib.sh and lib-dgsql.sh.
#
#   N                  the demo's matrix side (examples/transpose.c)
#   need_report        the tool, dgsql, gnuplot and python3 (a missing
#                      optional one: skip)
#   demo_db DB         builds examples/transpose.c as the demo does, traces
#                      it and imports the log into DB (bails if it cannot);
#                      once a run for every script (lib.sh's shared_get)
#   rc ARGS...         tests/report_check.py ARGS (see its --help)
#   jcell DIR TABLE KEY COL   the cell of DIR/report.json in the row whose
#                      first cell is KEY
#   jat DIR TABLE ROW COL     the cell in row number ROW ("all": every row)
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

N=96

need_report() {
	need_tool
	need_dgsql
	need_cmd gnuplot
	need_cmd python3
}

demo_db() {
	if shared_get demo_db transpose "$1.log" "$1"; then
		ok "the demo: built, traced and imported by another script this run"
		return 0
	fi
	${CC:-cc} -O1 -g -I"$DG_BUILD/include" -o transpose \
		"$DG_TOP/examples/transpose.c" 2>cc.err ||
		{ shared_drop; bail "examples/transpose.c builds"; }
	DG_NATIVE=no run_dg "$1.log" -- ./transpose || { shared_drop; finish; }
	rm -f "$1"
	"$DG_IMPORT" -q "$1.log" "$1" 2>import.err ||
		{ shared_drop; bail "dg-import $1.log"; }
	shared_put demo_db transpose "$1.log" "$1"
}

rc() {
	python3 "$DG_TESTS/report_check.py" "$@"
}

jcell() {
	rc cell "$1/report.json" "$2" "$3" "$4"
}

jat() {
	rc at "$1/report.json" "$2" "$3" "$4"
}
