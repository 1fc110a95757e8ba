#!/bin/sh
# bench/run.sh -- measure Datagrind against native, --tool=none and lackey.
#
# Copyright (C) 2024 the Datagrind authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: sh bench/run.sh [--quick] [--runs N] [--rounds N] [--lackey-rounds N]
#                        [--no-lackey] [--keep]
#
# Builds bench/workload.c into build/bench/, then in this one invocation times
# the same program natively, under `valgrind --tool=none`, under Datagrind and
# under `valgrind --tool=lackey --trace-mem=yes`, and prints a table and the
# figures of Datagrind's log.  The same figures go to build/bench/results.txt
# as `key value` lines.  Reports figures only: nothing here asserts a time.
#
# Exit status: 0 done; 1 a run failed or printed a wrong checksum;
# 2 build/bin/datagrind or build/bin/dg-dump is missing (run `make` first);
# 64 bad usage.

set -u

usage() {
    cat <<'EOF'
usage: sh bench/run.sh [options]
  --quick            smoke run: 1 round for every configuration, 1 run each
  --runs N           timed runs per configuration, the median is reported [3]
  --rounds N         workload size for native/none/datagrind [13, ~294 M instr]
  --lackey-rounds N  workload size for lackey, scaled up per instruction [1]
  --no-lackey        skip lackey (it takes about a minute even at 1 round)
  --keep             keep the logs in build/bench/tmp/ (lackey's is ~430 MB a round)
  --no-datagrind     skip Datagrind (only for working on this script before the
                     tool is built; its figures are then nan)
EOF
}

RUNS=3
ROUNDS=13
LACKEY_ROUNDS=1
DO_LACKEY=1
DO_DG=1
KEEP=0
QUICK=0

while [ $# -gt 0 ]; do
    case "$1" in
        --quick) QUICK=1; RUNS=1; ROUNDS=1; LACKEY_ROUNDS=1 ;;
        --runs) shift; RUNS=${1:-} ;;
        --runs=*) RUNS=${1#--runs=} ;;
        --rounds) shift; ROUNDS=${1:-} ;;
        --rounds=*) ROUNDS=${1#--rounds=} ;;
        --lackey-rounds) shift; LACKEY_ROUNDS=${1:-} ;;
        --lackey-rounds=*) LACKEY_ROUNDS=${1#--lackey-rounds=} ;;
        --no-lackey) DO_LACKEY=0 ;;
        --no-datagrind) DO_DG=0 ;;
        --keep) KEEP=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "bench: unknown option '$1'" >&2; usage >&2; exit 64 ;;
    esac
    shift
done

for v in "$RUNS" "$ROUNDS" "$LACKEY_ROUNDS"; do
    case "$v" in
        ''|*[!0-9]*|0) echo "bench: --runs/--rounds/--lackey-rounds need a positive integer, got '$v'" >&2; exit 64 ;;
    esac
done

# Work from the top of the source tree whatever the caller's directory.
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
OUT=$ROOT/build/bench
TMP=$OUT/tmp
RESULTS=$OUT/results.txt
# Overridable for testing this script against a stand-in.
DATAGRIND=${DG_BENCH_DATAGRIND:-$ROOT/build/bin/datagrind}
DGDUMP=${DG_BENCH_DGDUMP:-$ROOT/build/bin/dg-dump}
PROG=$OUT/workload

# ---------------------------------------------------------------- checks
missing=
[ $DO_DG = 0 ] || [ -x "$DATAGRIND" ] || missing="$missing ${DATAGRIND#$ROOT/}"
[ $DO_DG = 0 ] || [ -x "$DGDUMP" ] || missing="$missing ${DGDUMP#$ROOT/}"
if [ -n "$missing" ]; then
    echo "bench: missing:$missing" >&2
    echo "bench: build the tool first (make), then run this again; no figures were taken." >&2
    exit 2
fi
for t in valgrind date awk sort; do
    command -v $t >/dev/null 2>&1 || { echo "bench: '$t' is not installed" >&2; exit 1; }
done
# date must give nanoseconds (GNU coreutils); BSD date prints a literal N.
case "$(date +%N)" in
    *[!0-9]*|'') echo "bench: 'date +%N' does not give nanoseconds (need GNU date)" >&2; exit 1 ;;
esac

mkdir -p "$OUT" "$TMP" || exit 1
rm -f "$TMP/failed"

# ---------------------------------------------------------------- build
# Fixed flags on purpose: the figures must not depend on the caller's CFLAGS.
CC=${CC:-cc}
echo "bench: building $PROG ($CC -O2 -g)"
"$CC" -O2 -g -std=gnu11 -o "$PROG" bench/workload.c || { echo "bench: build failed" >&2; exit 1; }

STATUS=0
# Other work on the machine skews every figure: note the load around the run.
loadavg() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo nan; }
LOAD_START=$(loadavg)

# now_ns: wall clock in nanoseconds.
now_ns() { date +%s%N; }

# median: the median of the numbers on stdin.
median() {
    sort -g | awk '{ a[NR] = $1 }
        END { if (NR == 0) { print "nan"; exit }
              if (NR % 2) printf "%.3f\n", a[(NR + 1) / 2]
              else        printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# calc FORMAT EXPR: floating-point arithmetic on plain numbers.
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

# minus A B: A - B; scale A B C: A * B / C.  Either gives nan for a nan input.
minus() { awk -v a="$1" -v b="$2" 'BEGIN {
        if (a == "nan" || b == "nan" || a == "" || b == "") print "nan";
        else printf "%.6f\n", a - b }'; }
scale() { awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN {
        if (a == "nan" || b == "nan" || c == "nan" || a == "" || b == "" || c + 0 == 0) print "nan";
        else printf "%.3f\n", a * b / c }'; }

# timed NAME RUNS EXPECTED_OUTPUT_FILE CMD...: run CMD RUNS times, print the
# median wall-clock seconds.  stdout of each run is compared with the expected
# output; stderr of the last run is kept in $TMP/NAME.err.  Runs in a command
# substitution (a subshell), so a failure is flagged by creating $TMP/failed.
timed() {
    _name=$1; _runs=$2; _expect=$3; shift 3
    _times=
    _i=0
    while [ $_i -lt "$_runs" ]; do
        _t0=$(now_ns)
        "$@" >"$TMP/$_name.out" 2>"$TMP/$_name.err"
        _rc=$?
        _t1=$(now_ns)
        if [ $_rc -ne 0 ]; then
            echo "bench: $_name: exit status $_rc; last lines of its stderr:" >&2
            tail -n 15 "$TMP/$_name.err" >&2
            : >"$TMP/failed"
        elif [ -n "$_expect" ] && ! cmp -s "$_expect" "$TMP/$_name.out"; then
            echo "bench: $_name: WRONG OUTPUT (checksum differs from native):" >&2
            cat "$TMP/$_name.out" >&2
            : >"$TMP/failed"
        fi
        _times="$_times $(calc '%.6f' "($_t1 - $_t0) / 1e9")"
        _i=$((_i + 1))
    done
    printf '%s\n' $_times | median
}

# icount ROUNDS: guest instructions of the workload at that size (callgrind's
# total Ir; the whole process, dynamic linker included, as the tools see it).
icount() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PROG" "$1" \
        >/dev/null 2>"$TMP/callgrind.err"
    awk '/Collected :/ { n = $NF } END { print n + 0 }' "$TMP/callgrind.err"
}

# stat_key FILE KEY: the value of a `key value` line of dg-dump --stats.
stat_key() { awk -v k="$2" '$1 == k { print $2; found = 1; exit } END { if (!found) print "nan" }' "$1"; }

# Reference outputs from native runs (also warms the page cache).
"$PROG" "$ROUNDS" >"$TMP/expect.full" || { echo "bench: the workload failed natively" >&2; exit 1; }
"$PROG" "$LACKEY_ROUNDS" >"$TMP/expect.small" || exit 1

echo "bench: counting guest instructions (callgrind)"
INSTR=$(icount "$ROUNDS")
if [ "$LACKEY_ROUNDS" = "$ROUNDS" ]; then
    INSTR_SMALL=$INSTR
else
    INSTR_SMALL=$(icount "$LACKEY_ROUNDS")
fi

# Runs that last under about a second (native; none; the small size) are
# noisy and cheap: they take at least 5 samples.
SHORT_RUNS=$RUNS
[ "$SHORT_RUNS" -lt 5 ] && SHORT_RUNS=5
NATIVE_RUNS=$SHORT_RUNS

echo "bench: native ($NATIVE_RUNS runs, $ROUNDS round(s))"
T_NATIVE=$(timed native "$NATIVE_RUNS" "$TMP/expect.full" "$PROG" "$ROUNDS")
echo "bench: valgrind --tool=none ($SHORT_RUNS runs)"
T_NONE=$(timed none "$SHORT_RUNS" "$TMP/expect.full" valgrind --tool=none "$PROG" "$ROUNDS")

DGLOG=$TMP/bench.dg
T_DG=nan; DG_BYTES=nan; DG_ACC=nan; DG_RUNS_=nan; DG_ICOUNT=nan
if [ $DO_DG = 1 ]; then
    rm -f "$DGLOG"
    echo "bench: datagrind ($RUNS runs)"
    T_DG=$(timed datagrind "$RUNS" "$TMP/expect.full" \
        "$DATAGRIND" --datagrind-out-file="$DGLOG" "$PROG" "$ROUNDS")
    if [ -s "$DGLOG" ]; then
        DG_BYTES=$(wc -c <"$DGLOG" | tr -d ' ')
        if "$DGDUMP" --stats "$DGLOG" >"$TMP/dgstats.txt" 2>"$TMP/dgstats.err"; then
            DG_ACC=$(stat_key "$TMP/dgstats.txt" accesses)
            DG_RUNS_=$(stat_key "$TMP/dgstats.txt" runs)
            DG_ICOUNT=$(stat_key "$TMP/dgstats.txt" icount)
        else
            echo "bench: dg-dump --stats failed on $DGLOG:" >&2
            tail -n 15 "$TMP/dgstats.err" >&2
            STATUS=1
        fi
    else
        echo "bench: datagrind wrote no log at $DGLOG" >&2
        STATUS=1
    fi
fi

T_LACKEY=nan; T_LACKEY_SCALED=nan
LK_L=nan; LK_S=nan; LK_M=nan; LK_INSTR=nan; LK_BYTES=nan
if [ $DO_LACKEY = 1 ]; then
    LKLOG=$TMP/lackey.txt
    rm -f "$LKLOG"
    echo "bench: lackey --trace-mem=yes to a file (1 run, $LACKEY_ROUNDS round(s); slow)"
    T_LACKEY=$(timed lackey 1 "$TMP/expect.small" \
        valgrind --tool=lackey --trace-mem=yes --log-file="$LKLOG" "$PROG" "$LACKEY_ROUNDS")
    if [ -s "$LKLOG" ]; then
        LK_BYTES=$(wc -c <"$LKLOG" | tr -d ' ')
        # Lines are "I  addr,size", " L addr,size", " S ...", " M ..."
        # (M: a load and a store of the same place by one instruction).
        set -- $(awk '
            /^ L / { l++; next }
            /^ S / { s++; next }
            /^ M / { m++; next }
            /guest instrs:/ { gsub(",", "", $NF); gi = $NF }
            END { print l + 0, s + 0, m + 0, gi + 0 }' "$LKLOG")
        LK_L=$1; LK_S=$2; LK_M=$3; LK_INSTR=$4
    else
        echo "bench: lackey wrote no log" >&2
        STATUS=1
    fi
    [ $KEEP = 1 ] || rm -f "$LKLOG"
    T_LACKEY_SCALED=$(scale "$T_LACKEY" "$INSTR" "$INSTR_SMALL")
fi

# The small size (lackey's): none and datagrind again.  This gives the access
# counts at equal size and, from the difference of the two sizes, the cost of
# the extra instructions with Valgrind's start-up (~0.3 s) taken out.
T_NONE_SMALL=nan; T_DG_SMALL=nan; DG_ACC_SMALL=nan
if [ "$LACKEY_ROUNDS" = "$ROUNDS" ]; then
    T_NONE_SMALL=$T_NONE; T_DG_SMALL=$T_DG; DG_ACC_SMALL=$DG_ACC
else
    echo "bench: valgrind --tool=none at the small size ($SHORT_RUNS runs, $LACKEY_ROUNDS round(s))"
    T_NONE_SMALL=$(timed none-small "$SHORT_RUNS" "$TMP/expect.small" valgrind --tool=none "$PROG" "$LACKEY_ROUNDS")
    if [ $DO_DG = 1 ]; then
        echo "bench: datagrind at the small size ($SHORT_RUNS runs, $LACKEY_ROUNDS round(s))"
        DGLOG_SMALL=$TMP/bench-small.dg
        rm -f "$DGLOG_SMALL"
        T_DG_SMALL=$(timed datagrind-small "$SHORT_RUNS" "$TMP/expect.small" \
            "$DATAGRIND" --datagrind-out-file="$DGLOG_SMALL" "$PROG" "$LACKEY_ROUNDS")
        if [ -s "$DGLOG_SMALL" ] &&
           "$DGDUMP" --stats "$DGLOG_SMALL" >"$TMP/dgstats-small.txt" 2>"$TMP/dgstats.err"; then
            DG_ACC_SMALL=$(stat_key "$TMP/dgstats-small.txt" accesses)
        else
            echo "bench: no statistics from datagrind's small-size log" >&2
            STATUS=1
        fi
        [ $KEEP = 1 ] || rm -f "$DGLOG_SMALL"
    fi
fi
[ $KEEP = 1 ] || rm -f "$DGLOG"
[ -e "$TMP/failed" ] && STATUS=1

# ---------------------------------------------------------------- report
LOAD_END=$(loadavg)
# r A B: A / B, or nan when either is not a number or B is 0.
r() { awk -v a="$1" -v b="$2" 'BEGIN {
        if (a == "nan" || b == "nan" || a == "" || b == "" || b + 0 == 0) print "nan";
        else printf "%.2f\n", a / b }'; }

X_NONE_NATIVE=$(r "$T_NONE" "$T_NATIVE")
X_DG_NATIVE=$(r "$T_DG" "$T_NATIVE")
X_DG_NONE=$(r "$T_DG" "$T_NONE")
X_LK_NATIVE=$(r "$T_LACKEY_SCALED" "$T_NATIVE")
X_LK_NONE=$(r "$T_LACKEY_SCALED" "$T_NONE")
X_LK_DG=$(r "$T_LACKEY_SCALED" "$T_DG")
X_LK_DG_EQUAL=$(r "$T_LACKEY" "$T_DG_SMALL")
X_DG_NONE_MARGINAL=nan
if [ "$LACKEY_ROUNDS" != "$ROUNDS" ]; then
    X_DG_NONE_MARGINAL=$(r "$(minus "$T_DG" "$T_DG_SMALL")" "$(minus "$T_NONE" "$T_NONE_SMALL")")
fi
BPA=$(r "$DG_BYTES" "$DG_ACC")
# Per instruction Datagrind traced (its icount leaves out the untraced allocator).
APIN=$(awk -v a="$DG_ACC" -v i="$DG_ICOUNT" 'BEGIN {
        if (a == "nan" || i == "nan" || i + 0 == 0) print "nan"; else printf "%.3f\n", a / i }')
LK_ACC=nan; LK_ACC_M2=nan
[ "$LK_L" != nan ] && LK_ACC=$((LK_L + LK_S + LK_M)) && LK_ACC_M2=$((LK_L + LK_S + 2 * LK_M))
DG_OVER_LK=$(r "$DG_ACC_SMALL" "$LK_ACC_M2")
fmt_mb() { awk -v b="$1" 'BEGIN { if (b == "nan") print "nan"; else printf "%.1f MB\n", b / 1e6 }'; }

echo
echo "Datagrind benchmark: bench/workload.c, $ROUNDS round(s) = $INSTR guest instructions"
echo "(wall-clock seconds, median of $RUNS runs for datagrind, of $SHORT_RUNS for native and none; $(nproc) CPUs;"
echo " 1-minute load average at start $LOAD_START, at end $LOAD_END)"
echo
printf '%-48s %7s %10s %9s %8s\n' configuration rounds seconds "x native" "x none"
printf '%-48s %7s %10s %9s %8s\n' native "$ROUNDS" "$T_NATIVE" 1.00 "$(r "$T_NATIVE" "$T_NONE")"
printf '%-48s %7s %10s %9s %8s\n' "valgrind --tool=none" "$ROUNDS" "$T_NONE" "$X_NONE_NATIVE" 1.00
printf '%-48s %7s %10s %9s %8s\n' "datagrind (log to local disk)" "$ROUNDS" "$T_DG" "$X_DG_NATIVE" "$X_DG_NONE"
if [ $DO_LACKEY = 1 ]; then
    if [ "$LACKEY_ROUNDS" = "$ROUNDS" ]; then
        printf '%-48s %7s %10s %9s %8s\n' "lackey --trace-mem=yes (log to file)" \
            "$ROUNDS" "$T_LACKEY" "$X_LK_NATIVE" "$X_LK_NONE"
    else
        printf '%-48s %7s %10s %9s %8s\n' "lackey --trace-mem=yes (log to file), measured" \
            "$LACKEY_ROUNDS" "$T_LACKEY" - -
        printf '%-48s %7s %10s %9s %8s\n' "lackey, SCALED to $ROUNDS rounds (see below)" \
            "$ROUNDS" "$T_LACKEY_SCALED" "$X_LK_NATIVE" "$X_LK_NONE"
    fi
fi
echo
if [ $DO_LACKEY = 1 ] && [ "$LACKEY_ROUNDS" != "$ROUNDS" ]; then
    echo "Lackey ran at $LACKEY_ROUNDS round(s) = $INSTR_SMALL instructions and was scaled by the"
    echo "instruction ratio $INSTR / $INSTR_SMALL: it is compared per guest instruction."
    echo
fi
echo "Datagrind log:        $(fmt_mb "$DG_BYTES") ($DG_BYTES bytes)"
echo "  accesses:           $DG_ACC ($APIN per instruction traced)"
echo "  bytes per access:   $BPA"
echo "  runs:               $DG_RUNS_"
echo "  icount:             $DG_ICOUNT (callgrind: $INSTR; the difference is mostly glibc's"
echo "                      malloc/free, which run untraced under Datagrind's replacement)"
echo
echo "Targets:"
echo "  datagrind / none:   $X_DG_NONE   (target <= 4)"
[ "$LACKEY_ROUNDS" != "$ROUNDS" ] &&
    echo "                      $X_DG_NONE_MARGINAL   (start-up excluded: ($T_DG - $T_DG_SMALL) / ($T_NONE - $T_NONE_SMALL), $ROUNDS vs $LACKEY_ROUNDS rounds)"
if [ $DO_LACKEY = 1 ]; then
    if [ "$LACKEY_ROUNDS" = "$ROUNDS" ]; then
        echo "  lackey / datagrind: $X_LK_DG   (target >= 50; both at $ROUNDS round(s), not scaled)"
    else
        echo "  lackey / datagrind: $X_LK_DG   (target >= 50; per guest instruction)"
    fi
    [ "$LACKEY_ROUNDS" != "$ROUNDS" ] &&
        echo "                      $X_LK_DG_EQUAL   (both at $LACKEY_ROUNDS round(s): lackey $T_LACKEY s, datagrind $T_DG_SMALL s)"
    echo
    echo "Accesses at equal size ($LACKEY_ROUNDS round(s), $INSTR_SMALL instructions):"
    echo "  datagrind:          $DG_ACC_SMALL"
    echo "  lackey:             $LK_ACC = $LK_L loads + $LK_S stores + $LK_M modifies"
    echo "  lackey, M as 2:     $LK_ACC_M2 (datagrind writes a read-modify-write as a read and a write)"
    echo "  datagrind / lackey: $DG_OVER_LK (against the M-as-2 count)"
    echo "  They differ: Datagrind replaces malloc/free, so glibc's allocator runs untraced"
    echo "  under it, while lackey traces the allocator's own loads and stores."
    echo "  Lackey's log: $(fmt_mb "$LK_BYTES"); its own instruction count: $LK_INSTR."
fi

{
    echo "# bench/run.sh results, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "git_commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "valgrind_version $(valgrind --version)"
    echo "cpus $(nproc)"
    # The build measured may be older than HEAD (make was not rerun).
    echo "datagrind_tool_mtime $(date -u -r "$ROOT/build/lib/valgrind/datagrind-amd64-linux" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo nan)"
    echo "loadavg_start $LOAD_START"
    echo "loadavg_end $LOAD_END"
    echo "quick $QUICK"
    echo "runs $RUNS"
    echo "short_runs $SHORT_RUNS"
    echo "rounds $ROUNDS"
    echo "instructions $INSTR"
    echo "native_s $T_NATIVE"
    echo "none_s $T_NONE"
    echo "datagrind_s $T_DG"
    echo "none_x_native $X_NONE_NATIVE"
    echo "datagrind_x_native $X_DG_NATIVE"
    echo "datagrind_x_none $X_DG_NONE"
    echo "small_rounds $LACKEY_ROUNDS"
    echo "small_instructions $INSTR_SMALL"
    echo "none_s_small $T_NONE_SMALL"
    echo "datagrind_s_small $T_DG_SMALL"
    echo "datagrind_x_none_marginal $X_DG_NONE_MARGINAL"
    echo "dg_accesses_small $DG_ACC_SMALL"
    echo "dg_log_bytes $DG_BYTES"
    echo "dg_accesses $DG_ACC"
    echo "dg_accesses_per_instr $APIN"
    echo "dg_bytes_per_access $BPA"
    echo "dg_runs $DG_RUNS_"
    echo "dg_icount $DG_ICOUNT"
    echo "lackey_ran $DO_LACKEY"
    if [ $DO_LACKEY = 1 ]; then
        echo "lackey_rounds $LACKEY_ROUNDS"
        echo "lackey_scaled $([ "$LACKEY_ROUNDS" = "$ROUNDS" ] && echo 0 || echo 1)"
        echo "lackey_s_measured $T_LACKEY"
        echo "lackey_s $T_LACKEY_SCALED"
        echo "lackey_x_native $X_LK_NATIVE"
        echo "lackey_x_none $X_LK_NONE"
        echo "lackey_x_datagrind $X_LK_DG"
        echo "lackey_x_datagrind_equal_size $X_LK_DG_EQUAL"
        echo "lackey_log_bytes $LK_BYTES"
        echo "lackey_loads $LK_L"
        echo "lackey_stores $LK_S"
        echo "lackey_modifies $LK_M"
        echo "lackey_accesses $LK_ACC"
        echo "lackey_accesses_m_as_2 $LK_ACC_M2"
        echo "lackey_guest_instrs $LK_INSTR"
        echo "dg_over_lackey_accesses $DG_OVER_LK"
    fi
    echo "target_datagrind_over_none_max 4"
    echo "target_lackey_over_datagrind_min 50"
    echo "status $STATUS"
} >"$RESULTS"
echo
echo "Figures written to ${RESULTS#$ROOT/}."
[ $STATUS = 0 ] || echo "bench: some runs failed or printed a wrong checksum (see above)" >&2
exit $STATUS
