# lib.sh: helpers for Datagrind's end-to-end test scripts.
#
# A test script is a POSIX shell script tests/tNNNN-name.sh that does
#
#     . "$DG_TESTS/lib.sh"      (tests/run.sh exports DG_TESTS)
#     ... checks ...
#     finish
#
# Every check prints one line, "ok - what" or "not ok - what", and a failing
# check prints its evidence on following lines that start with "#".  finish
# exits 0 when every check passed, 1 when one failed or when no check ran at
# all (a script that checked nothing proves nothing); skip exits 77.
#
# tests/run.sh runs each script in a fresh directory and exports:
#   DG_TOP       the repository top
#   DG_BUILD     the build directory (DG_TOP/build)
#   DG_TESTS     DG_TOP/tests
#   DG_PROGS     where the test programs are built (DG_BUILD/tests/progs)
#   DATAGRIND    the wrapper DG_BUILD/bin/datagrind
#   DG_DUMP      DG_BUILD/bin/dg-dump
#   DG_TEST_TMP  the script's scratch directory (also its working directory)
# A script run by hand (sh tests/t0200-writes.sh) sets them up itself.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

set -u

if [ -z "${DG_TOP:-}" ]; then
	DG_TOP=$(cd "$(dirname "$0")/.." && pwd)
fi
: "${DG_BUILD:=$DG_TOP/build}"
: "${DG_TESTS:=$DG_TOP/tests}"
: "${DG_PROGS:=$DG_BUILD/tests/progs}"
: "${DATAGRIND:=$DG_BUILD/bin/datagrind}"
: "${DG_DUMP:=$DG_BUILD/bin/dg-dump}"
# python3: Debian's (the package python3) unless DG_PYTHON names another.
# A pyenv or virtualenv shim first in PATH is a shell script that starts
# its own interpreter with its site packages: half a second a call where
# Debian's takes 0.02 s, and the suite calls python3 a few hundred times.
if [ -z "${DG_PYTHON:-}" ]; then
	DG_PYTHON=python3
	[ -x /usr/bin/python3 ] && DG_PYTHON=/usr/bin/python3
fi
export DG_PYTHON
python3() { "$DG_PYTHON" "$@"; }
if [ -z "${DG_TEST_TMP:-}" ]; then
	DG_TEST_TMP=$DG_BUILD/tests/tmp/$(basename "$0" .sh)
	rm -rf "$DG_TEST_TMP" && mkdir -p "$DG_TEST_TMP" || exit 1
	cd "$DG_TEST_TMP" || exit 1
fi
export DG_TOP DG_BUILD DG_TESTS DG_PROGS DATAGRIND DG_DUMP DG_TEST_TMP
export LC_ALL=C

dg_checks=0
dg_failed=0

# ------------------------------------------------------------ reporting

ok() {
	dg_checks=$((dg_checks + 1))
	echo "ok - $*"
}

not_ok() {
	dg_checks=$((dg_checks + 1))
	dg_failed=$((dg_failed + 1))
	echo "not ok - $*"
}

# diag LINE...: evidence for the check that just failed.
diag() {
	for l in "$@"; do
		printf '#   %s\n' "$l"
	done
}

# diag_file FILE [N]: the first N (20) lines of FILE as evidence.
diag_file() {
	if [ -f "$1" ]; then
		printf '#   --- %s\n' "$1"
		head -n "${2:-20}" "$1" | sed 's/^/#   | /'
	else
		printf '#   (%s does not exist)\n' "$1"
	fi
}

# check_eq DESC EXPECTED ACTUAL: the two strings are equal.
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected: '$2'" "actual:   '$3'"
		return 1
	fi
}

# _is_int X: X is a (possibly negative) decimal integer.
_is_int() {
	case $1 in
	''|-|*[!0-9-]*|?*-*) return 1 ;;
	esac
	return 0
}

# check_num DESC OP LIMIT ACTUAL: integer comparison; OP is one of
# -eq -ne -lt -le -gt -ge.  A non-number ACTUAL fails.
check_num() {
	if _is_int "$4" && _is_int "$3" && [ "$4" "$2" "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected: value $2 $3" "actual:   '$4'"
		return 1
	fi
}

check_ge() { check_num "$1" -ge "$2" "$3"; }
check_le() { check_num "$1" -le "$2" "$3"; }
check_gt() { check_num "$1" -gt "$2" "$3"; }
check_lt() { check_num "$1" -lt "$2" "$3"; }

# check_cmp DESC EXPECTED_FILE ACTUAL_FILE: the files are identical.
check_cmp() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diff -u "$2" "$3" 2>&1 | head -n 30 | sed 's/^/#   /'
		return 1
	fi
}

# check_empty DESC FILE: FILE exists and is empty (a list of violations).
check_empty() {
	if [ -f "$2" ] && [ ! -s "$2" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected no lines; the first of $(wc -l <"$2" 2>/dev/null || echo '?'):"
		diag_file "$2" 15
		return 1
	fi
}

# check_run DESC CMD...: the command exits 0.
check_run() {
	_d=$1
	shift
	if "$@" >check_run.out 2>&1; then
		ok "$_d"
	else
		_st=$?
		not_ok "$_d"
		diag "command: $*" "exit status $_st"
		diag_file check_run.out 10
		return 1
	fi
}

# check_status DESC EXPECTED CMD...: the command exits with EXPECTED.
check_status() {
	_d=$1
	_e=$2
	shift 2
	"$@" >check_run.out 2>&1
	check_eq "$_d" "$_e" "$?"
}

# skip REASON: the test cannot run here (a missing optional program).
skip() {
	echo "skip: $*"
	exit 77
}

# finish: the script's exit status.
finish() {
	if [ "$dg_checks" -eq 0 ]; then
		echo "not ok - the script made no check"
		exit 1
	fi
	[ "$dg_failed" -eq 0 ] && exit 0
	echo "# $dg_failed of $dg_checks checks failed"
	exit 1
}

# bail DESC: a check that makes going on pointless failed; stop here.
bail() {
	not_ok "$*"
	echo "# stopping: later checks depend on this one"
	finish
}

# ------------------------------------------------------------ prerequisites

# need_prog NAME: the test program build/tests/progs/NAME exists.  A missing
# one is a failure (make builds them all), not a skip.
need_prog() {
	[ -x "$DG_PROGS/$1" ] || bail "test program $DG_PROGS/$1 is built (run make tests-progs)"
}

# need_tool: the datagrind wrapper and dg-dump exist.  Missing ones fail.
need_tool() {
	[ -x "$DATAGRIND" ] || bail "$DATAGRIND exists (run make)"
	[ -x "$DG_DUMP" ] || bail "$DG_DUMP exists (run make)"
}

# need_cmd NAME: an optional host program is installed, else skip.
# unit_run NAME BIN: run a C unit test binary and relay its own ok/not ok
# lines as checks named NAME: ...; its exit status is one more check.
unit_run() {
	"$2" >"$1.out" 2>"$1.err"
	st=$?
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "$1: ${line#ok - }" ;;
		"not ok - "*) not_ok "$1: ${line#not ok - }" ;;
		esac
	done <"$1.out"
	if [ "$st" -eq 0 ]; then
		ok "$1 exits 0"
	else
		not_ok "$1 exits 0"
		diag "status $st" "$(tail -5 "$1.err")"
	fi
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"
}

# ------------------------------------------------------------ sharing

# shared_get KEY FILE...: what an earlier script of this run made under
# KEY, copied to FILE... (0); or 1, with KEY's lock held, when nothing is
# there yet: the caller makes the files, then calls shared_put KEY FILE...
# (or shared_drop if it failed), which lets the next script in.  Without
# tests/run.sh (no DG_TEST_SHARED) or flock(1), always 1 and no lock.
shared_get() {
	[ -n "${DG_TEST_SHARED:-}" ] && command -v flock >/dev/null 2>&1 || return 1
	_sk=$DG_TEST_SHARED/$(printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_')
	shift
	exec 9>"$_sk.lock"
	flock 9
	_sn=0
	for _sf; do
		_sn=$((_sn + 1))
		[ -f "$_sk.$_sn" ] && cp "$_sk.$_sn" "$_sf" || return 1
	done
	exec 9>&-
	return 0
}

shared_put() {
	[ -n "${DG_TEST_SHARED:-}" ] && command -v flock >/dev/null 2>&1 || return 0
	shift
	_sn=0
	for _sf; do
		_sn=$((_sn + 1))
		cp "$_sf" "$_sk.tmp" && mv "$_sk.tmp" "$_sk.$_sn"
	done
	exec 9>&-
}

shared_drop() {
	[ -n "${DG_TEST_SHARED:-}" ] && command -v flock >/dev/null 2>&1 || return 0
	exec 9>&-
}

# ------------------------------------------------------------ running

# filter_vg FILE: FILE without Valgrind's "==PID==" and "--PID--" lines.
filter_vg() {
	grep -v -E '^(==|--|\*\*)[0-9]+(==|--|\*\*)' "$1" || true
}

# run_dg LOG [DATAGRIND-OPTIONS...] -- PROG [ARGS...]
#
# Runs PROG natively, then under Datagrind writing LOG, both with stdin from
# ${DG_STDIN:-/dev/null}.  Checks that the traced run's exit status, stdout
# and stderr (without Valgrind's ==PID== lines) are those of the native run,
# and that LOG was written.  Leaves native.{out,err} and dg.{out,err} and sets
# DG_STATUS to the traced run's exit status.  With DG_NATIVE=no it only runs
# the traced program (for output that legitimately differs, such as pids).
# Returns 1 when the traced run could not produce a log.
run_dg() {
	_log=$1
	shift
	_opts=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		_opts="$_opts $1"
		shift
	done
	[ $# -gt 0 ] && shift
	_name=$(basename "$1")
	rm -f "$_log"
	if [ "${DG_NATIVE:-yes}" != no ]; then
		"$@" <"${DG_STDIN:-/dev/null}" >native.out 2>native.err
		_nst=$?
	fi
	# shellcheck disable=SC2086
	"$DATAGRIND" --datagrind-out-file="$_log" $_opts "$@" \
		<"${DG_STDIN:-/dev/null}" >dg.out 2>dg.err
	DG_STATUS=$?
	if [ "${DG_NATIVE:-yes}" != no ]; then
		check_eq "$_name: traced exit status is the native one" "$_nst" "$DG_STATUS" ||
			diag_file dg.err 10
		check_cmp "$_name: traced stdout is the native one" native.out dg.out
		filter_vg dg.err >dg.err.filtered
		check_cmp "$_name: traced stderr (less ==PID== lines) is the native one" \
			native.err dg.err.filtered
	fi
	if [ -s "$_log" ]; then
		ok "$_name: log $_log written"
	else
		not_ok "$_name: log $_log written"
		diag "datagrind$_opts $* exited $DG_STATUS"
		diag_file dg.err 15
		return 1
	fi
}

# ------------------------------------------------------------ reading logs

# dump MODE LOG OUT: dg-dump MODE LOG > OUT, failing the check if dg-dump does.
dump() {
	if "$DG_DUMP" $1 "$2" >"$3" 2>dump.err; then
		return 0
	fi
	not_ok "dg-dump $1 $2 succeeds"
	diag "exit status $?"
	diag_file dump.err 10
	return 1
}

# stat_of STATSFILE KEY: the value of KEY in dg-dump --stats output.
stat_of() {
	awk -v k="$2" '$1 == k { print $2; f = 1; exit } END { if (!f) print "missing" }' "$1"
}

# dgawk [-v VAR=VALUE | -FSEP]... PROGRAM [FILES...]: awk with the helpers
# of tests/lib.awk (hex()) prepended to PROGRAM.
dgawk() {
	_dgawk_opts=""
	while [ $# -gt 0 ]; do
		case $1 in
		-v) _dgawk_opts="$_dgawk_opts -v '$2'"; shift 2 ;;
		-F*) _dgawk_opts="$_dgawk_opts '$1'"; shift ;;
		*) break ;;
		esac
	done
	_dgawk_prog="$(cat "$DG_TESTS/lib.awk")
$1"
	shift
	eval "awk $_dgawk_opts \"\$_dgawk_prog\" \"\$@\""
}

# sym_range EXE SYMBOL: "START END" (decimal, END exclusive) of a function
# from nm; fails when the symbol is missing.  Test programs are linked
# -no-pie, so these are run-time addresses.
sym_range() {
	nm -S --defined-only "$1" 2>/dev/null |
		dgawk -v s="$2" '$4 == s && NF == 4 { a = hex($1); print a, a + hex($2); f = 1; exit }
			END { exit !f }'
}

# sym_addr EXE SYMBOL: the decimal address of a (data) symbol.
sym_addr() {
	sym_range "$1" "$2" | awk '{ print $1 }'
}

# text_range EXE: "START END" of the executable's executable LOAD segments
# (union; decimal).  Test programs are -no-pie: addresses as in the file.
text_range() {
	readelf -lW "$1" | dgawk '$1 == "LOAD" {
			f = ""
			for (i = 7; i < NF; i++) f = f $i
			if (f !~ /E/) next
			s = hex($3); e = s + hex($6)
			if (lo == "" || s < lo) lo = s
			if (e > hi) hi = e
		}
		END { if (lo == "") exit 1; print lo, hi }'
}

# blocks_from BLOCKS EXE FUNC [SIZE]: the lines of dg-dump --blocks output
# whose allocation stack starts (frame 0, the call of the allocator) inside
# function FUNC of EXE, and whose size is SIZE if given.
blocks_from() {
	_r=$(sym_range "$2" "$3") || { echo "no symbol $3 in $2" >&2; return 1; }
	dgawk -v lo="${_r% *}" -v hi="${_r#* }" -v size="${4:-}" '
		{ split($9, f, ","); pc = hex(f[1]) }
		pc >= lo && pc < hi && (size == "" || $2 == size)' "$1"
}

# accesses_in ACCESSES LO HI [FROM TO]: the lines of dg-dump --accesses
# output whose access overlaps [LO, HI) (decimal), and whose icount is in
# [FROM, TO) if given (a block's lifetime: TO may be "-", never freed).
accesses_in() {
	dgawk -v lo="$2" -v hi="$3" -v from="${4:-0}" -v to="${5:--}" '
		{ a = hex($6) }
		a < hi && a + $5 > lo && $2 >= from + 0 && (to == "-" || $2 < to + 0)' "$1"
}

# pcs_outside ACCESSES LO HI: the access lines whose pc is outside [LO, HI).
pcs_outside() {
	dgawk -v lo="$2" -v hi="$3" '{ pc = hex($3) } pc < lo || pc >= hi' "$1"
}

# count_dir FILE R|W [SIZE]: the number of access lines of that direction
# (and size).
count_dir() {
	awk -v d="$2" -v s="${3:-}" '$4 == d && (s == "" || $5 == s) { n++ } END { print n + 0 }' "$1"
}

# per_pc_dg ACCESSES LO HI: "pc-hex reads writes" per pc in [LO, HI), sorted.
per_pc_dg() {
	dgawk -v lo="$2" -v hi="$3" '
		{ pc = hex($3) }
		pc >= lo && pc < hi { seen[pc] = 1; if ($4 == "R") r[pc]++; else if ($4 == "W") w[pc]++; else bad[pc]++ }
		END { for (pc in seen) printf "%x %d %d%s\n", pc, r[pc], w[pc], (pc in bad) ? " BADDIR" : "" }' "$1" | sort
}

# per_pc_lackey LACKEY_LOG LO HI: the same from `valgrind --tool=lackey
# --trace-mem=yes` output: a Modify is one read and one write.
per_pc_lackey() {
	dgawk -v lo="$2" -v hi="$3" '
		$1 == "I" { split($2, a, ","); cur = hex(a[1]); next }
		$1 == "L" || $1 == "S" || $1 == "M" {
			if (cur < lo || cur >= hi) next
			seen[cur] = 1
			if ($1 != "S") r[cur]++
			if ($1 != "L") w[cur]++
		}
		END { for (pc in seen) printf "%x %d %d\n", pc, r[pc], w[pc] }' "$1" | sort
}

# kv KEY: awk snippet-free helper: the value of KEY=... in a --records line
# given on stdin (quotes kept for strings).
kv() {
	awk -v k="$1" '{ for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }'
}

# event_window RECORDS LABEL: "START END" instruction counts of the first
# START_EVENT/END_EVENT pair with LABEL in dg-dump --records output: the
# count of instructions executed before each record (runs advance it by
# their n_instrs, ICOUNT records set it).
event_window() {
	awk -v want="label=\"$2\"" '
		function val(k,   i) { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
		$1 == "run" { cur = val("icount") + val("n_instrs"); next }
		$1 == "icount" { cur = val("icount"); next }
		$1 == "start_event" && $2 == want && s == "" { s = cur + 0 }
		$1 == "end_event" && $2 == want && s != "" && e == "" { e = cur + 0 }
		END { if (s == "" || e == "") exit 1; print s, e }' "$1"
}

# lackey_compare PROG [ARGS...]: the per-instruction cross-check with
# Lackey.  For every instruction of PROG's own text (linked -no-pie, so the
# range comes from readelf), Lackey's loads+modifies and stores+modifies
# must equal Datagrind's reads and writes at that pc.  Datagrind replaces
# malloc and Lackey does not, so whole-program totals differ; the program's
# own code runs the same under both.
lackey_compare() {
	_exe=$1
	_n=$(basename "$1")
	need_cmd valgrind
	_tr=$(text_range "$_exe") || bail "text range of $_exe from readelf"
	valgrind --tool=lackey --trace-mem=yes --log-file=lackey.log "$@" \
		</dev/null >lackey.out 2>lackey.err
	_lst=$?
	"$@" </dev/null >native.out 2>/dev/null
	check_eq "$_n: lackey run exits as native" "$?" "$_lst"
	run_dg lk.log -- "$@" || finish
	dump --accesses lk.log lk.acc || finish
	per_pc_lackey lackey.log ${_tr% *} ${_tr#* } >lackey.perpc
	per_pc_dg lk.acc ${_tr% *} ${_tr#* } >dg.perpc
	check_ge "$_n: lackey saw accesses at >= 10 instructions of the program" 10 \
		"$(wc -l <lackey.perpc | tr -d ' ')"
	check_cmp "$_n: per-pc reads/writes (pc R W) equal lackey's" lackey.perpc dg.perpc
	check_eq "$_n: total reads/writes of the program's code equal lackey's" \
		"$(awk '{ r += $2; w += $3 } END { print r + 0, w + 0 }' lackey.perpc)" \
		"$(awk '{ r += $2; w += $3 } END { print r + 0, w + 0 }' dg.perpc)"
}
