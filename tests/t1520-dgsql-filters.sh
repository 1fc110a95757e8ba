#!/bin/sh
# t1520-dgsql-filters: dg_view's --events/--ranges conditions on real
# traces, against what the programs provably do (tests/README.md):
#   writes.c: fill writes the 400-byte block's 100 ints, sum reads them;
#     the block is allocated in main; libc's stdio buffer (4096 bytes) is
#     written by libc only.
#   ranges.c: arr (256 bytes, tracked as "arr") gets 64 W before tracking,
#     then 64 W, 64 R + 64 W inside event "loop", 32 R, then untracked.
# Also: _start, the very first function of .text, is found (its own
# accesses equal dg-dump's at its pcs); globs; file suffixes on a path
# boundary; C++ names without arguments; push-down into stack_filter;
# the same filter from .filter; bad filter strings are errors (exit 2).
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
trace_db w.db writes || finish
trace_db r.db ranges || finish

B400="block_id = (SELECT id FROM blocks WHERE size = 400)"
B4096="block_id = (SELECT id FROM blocks WHERE size = 4096)"
rw() {  # DB FILTER-ARGS... -- WHERE: "reads writes" of filtered_accesses
	_db=$1
	shift
	_f=""
	while [ "$1" != "--" ]; do _f="$_f '$1'"; shift; done
	eval "dq $_db $_f \"SELECT count(*) - coalesce(sum(is_write), 0), \
		coalesce(sum(is_write), 0) FROM filtered_accesses WHERE $2\"" |
		tr '|' ' '
}

check_eq "fn:fill on the block: 100 writes" "0 100" "$(rw w.db --events fn:fill -- "$B400")"
check_eq "fn:sum on the block: 100 reads" "100 0" "$(rw w.db --events fn:sum -- "$B400")"
check_eq "fn:fill,fn:sum: both" "100 100" "$(rw w.db --events fn:fill,fn:sum -- "$B400")"
check_eq "glob fn:fil*" "0 100" "$(rw w.db --events 'fn:fil*' -- "$B400")"
check_eq "fn:main (caller frame of fill and sum)" "100 100" \
	"$(rw w.db --events fn:main -- "$B400")"
check_eq "--events fn:sum --ranges malloc: sum's reads of heap blocks" "100 0" \
	"$(rw w.db --events fn:sum --ranges malloc -- 1)"
check_eq "file:writes.c on the block" "100 100" "$(rw w.db --events file:writes.c -- "$B400")"
check_eq "file:progs/writes.c (suffix of components)" "100 100" \
	"$(rw w.db --events file:progs/writes.c -- "$B400")"
dq w.db --events file:rites.c 'SELECT 1' >/dev/null
check_eq "file:rites.c is not a component suffix (exit 2)" 2 "$?"
check_eq "dso:writes (the executable) on the block" "100 100" \
	"$(rw w.db --events dso:writes -- "$B400")"
# main is called by libc's __libc_start_call_main: libc is on the stack.
check_eq "dso:libc.so.6 (a caller frame of main)" "100 100" \
	"$(rw w.db --events dso:libc.so.6 -- "$B400")"
all4096=$(dq w.db "SELECT reads, writes FROM blocks WHERE size = 4096" | tr '|' ' ')
check_eq "dso:libc.so.6 makes every access of the stdio buffer" "$all4096" \
	"$(rw w.db --events dso:libc.so.6 -- "$B4096")"
check_eq "--ranges fn:main: the block allocated in main" "100 100" \
	"$(rw w.db --ranges fn:main -- "$B400")"
check_eq "--ranges fn:fill: fill allocates nothing" "0 0" \
	"$(rw w.db --ranges fn:fill -- 1)"
check_eq "--ranges malloc: only heap accesses" 0 \
	"$(dq w.db --ranges malloc 'SELECT count(*) FROM filtered_accesses WHERE block_id IS NULL')"

# _start is the first function of .text: found, with exactly its accesses.
DG_NATIVE=no run_dg ws.log -- "$DG_PROGS/writes" >/dev/null || finish
dump --accesses w.db.log w.acc || finish
text=$(readelf -SW "$DG_PROGS/writes" | awk '$2 == ".text" { print $4 }')
first=$(nm "$DG_PROGS/writes" | awk -v t="$text" '($2 == "T" || $2 == "t") && $1 == t { print $3; exit }')
check_eq "a function starts at .text's first byte" _start "$first"
r=$(sym_range "$DG_PROGS/writes" "$first")
own=$(dgawk -v lo="${r% *}" -v hi="${r#* }" '{ pc = hex($3) } pc >= lo && pc < hi { n++ } END { print n + 0 }' w.acc)
check_gt "$first makes accesses" 0 "$own"
check_eq "fn:$first: its own accesses are found" "$own" \
	"$(dq w.db --events "fn:$first" "SELECT count(*) FROM filtered_accesses WHERE pc >= ${r% *} AND pc < ${r#* }")"

# ranges.c
check_eq "--ranges range: arr while tracked" "96 128" "$(rw r.db --ranges range -- 1)"
check_eq "--ranges user:arr" "96 128" "$(rw r.db --ranges user:arr -- 1)"
check_eq "--ranges 'user:a*' (glob)" "96 128" "$(rw r.db --ranges 'user:a*' -- 1)"
check_eq "--ranges user:nosuch: nothing" "0 0" "$(rw r.db --ranges user:nosuch -- 1)"
check_eq "--events user:loop --ranges range" "64 64" \
	"$(rw r.db --events user:loop --ranges range -- 1)"
ev=$(dq r.db "SELECT start_icount || ' ' || end_icount FROM events WHERE label = 'loop'")
check_eq "--events user:loop: every access inside the interval" \
	"$(dq r.db "SELECT count(*) FROM accesses WHERE icount >= ${ev% *} AND icount < ${ev#* }")" \
	"$(dq r.db --events user:loop 'SELECT count(*) FROM filtered_accesses')"
a=$(dq r.db --events fn:main 'SELECT count(*) FROM filtered_accesses')
b=$(dq r.db --events user:loop 'SELECT count(*) FROM filtered_accesses')
c=$(dq r.db --events fn:main "SELECT count(*) FROM filtered_accesses WHERE icount >= ${ev% *} AND icount < ${ev#* }")
check_eq "--events user:loop,fn:main: the union" "$((a + b - c))" \
	"$(dq r.db --events user:loop,fn:main 'SELECT count(*) FROM filtered_accesses')"

# The same through .filter, and its display and reset.
check_eq ".filter sets, shows and resets" \
	"$(printf -- '--events fn:fill --ranges malloc\n100\nno filter: filtered_accesses is every access')" \
	"$(printf '.filter --events fn:fill --ranges malloc\n.filter\nSELECT count(*) FROM filtered_accesses;\n.filter off\n.filter\n' | dq w.db)"
check_eq "push-down: fn: becomes stack_filter (evaluated in the vtab)" 1 \
	"$(dq w.db --events fn:fill '.schema filtered_accesses' | grep -c "stack_filter = 'dgf_ev'")"
check_eq "stack_filter = the same condition in SQL" \
	"$(dq w.db --events fn:fill "SELECT count(*), sum(pc), sum(icount) FROM accesses
	    WHERE context_id IN (SELECT id FROM temp.dgf_ev_ctx WHERE whole)
	    OR (context_id IN (SELECT id FROM temp.dgf_ev_ctx)
	        AND (pc, module_id) IN (SELECT pc, module_id FROM temp.dgf_ev_pcs))")" \
	"$(dq w.db --events fn:fill "SELECT count(*), sum(pc), sum(icount) FROM filtered_accesses")"
check_eq "push-down: user: ranges become addr bounds" 1 \
	"$(dq r.db --ranges user:arr '.schema filtered_accesses' | grep -c 'AND addr >= ')"

# C++ names: qualified, without arguments.
check_eq "dg_match_fn: qualified name without arguments" "1|1|0|1|0" \
	"$(dq w.db "SELECT dg_match_fn('ns::Cls::method(int) const', 'ns::Cls::method'),
	  dg_match_fn('std::vector<int, std::allocator<int> >::push_back(int const&)', 'std::vector<int, std::allocator<int> >::push_back'),
	  dg_match_fn('ns::Cls::method(int)', 'Cls::method'),
	  dg_match_fn('qsort_r', 'qsort*'), dg_match_fn('xqsort', 'qsort*')")"
check_eq "dg_match_path: component boundary" "1|1|0|1" \
	"$(dq w.db "SELECT dg_match_path('/src/foo.c', 'foo.c'), dg_match_path('/src/foo.c', 'src/foo.c'),
	  dg_match_path('/src/xfoo.c', 'foo.c'), dg_match_path('/src/foo.c', '*.c')")"

# Bad filters: clear errors, exit 2, never a crash.
for f in "--events=bogus" "--events=malloc" "--events=range" "--events=fn:" \
    "--events=," "--events=fn:main,," "--ranges=malloc:x" "--ranges=user:" \
    "--events=fn:nosuchfunction" "--ranges=dso:nosuch.so" "--events=:" \
    "--events=fn:((((" "--events=fn:[" "--events=fn:'\"" "--ranges= "; do
	"$DGSQL" w.db "$f" 'SELECT 1' >bad.out 2>bad.err
	st=$?
	check_eq "bad filter $f exits 2" 2 "$st"
	check_eq "bad filter $f: one message" 1 "$(grep -c '^dgsql: filter: ' bad.err)"
done
dq w.db '.filter --events bogus' >/dev/null
check_eq ".filter with a bad list fails" 1 "$?"
check_eq "... and keeps the previous view" \
	"$(dq w.db 'SELECT count(*) FROM accesses')" \
	"$(printf '.filter --events bogus\nSELECT count(*) FROM filtered_accesses;\n' | "$DGSQL" -w w.db 2>/dev/null; \
	   printf '.bail off\n.filter --events bogus\nSELECT count(*) FROM filtered_accesses;\n' | "$DGSQL" w.db 2>/dev/null)"
finish
