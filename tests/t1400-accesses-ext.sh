#!/bin/sh
# t1400-accesses-ext: the `accesses` virtual table as the loadable extension
# build/lib/dgaccess.so in the stock sqlite3 shell.  First its C unit test
# (test_dgvtab, sanitized: columns, random pushed-down constraints against a
# plain copy, plans, block history, corrupt chunks).  Then a database made
# here from schema/schema.sql with chunks encoded by hand: every row and
# column, guarded zeros left out, block_id at and after a free, constraints
# pushed down, a malformed chunk (error naming it; queries that exclude it
# still work), the export list of the .so.  Then, when dg-import is built,
# each tests/fixtures/*.dg imported: accesses row by row equal to
# `dg-dump --accesses`, count(*) equal to --stats' accesses (which leave out
# guarded zeros), and per heap block the accesses with block_id = id equal
# to the block's reads + writes.
. "$DG_TESTS/lib.sh"

need_cmd sqlite3
EXT=$DG_BUILD/lib/dgaccess.so
[ -f "$EXT" ] || bail "$EXT is built (run make)"
U=$DG_BUILD/tests/unit/test_dgvtab
[ -x "$U" ] || bail "$U is built (run make unit-tests)"

# ------------------------------------------------------------ unit test
"$U" "$DG_TOP/schema/schema.sql" >unit.out 2>unit.err
st=$?
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "unit: ${line#ok - }" ;;
	"not ok - "*) not_ok "unit: ${line#not ok - }" ;;
	esac
done <unit.out
check_eq "test_dgvtab exits 0" 0 "$st"
[ "$st" -eq 0 ] || diag_file unit.err

# q DB SQL...: run SQL in the stock shell with the extension loaded.
q() {
	db=$1
	shift
	sqlite3 -batch -bail "$db" ".load ${EXT%.so}" "$@"
}

# ------------------------------------------------------------ hand-made db
# bbdef 0: 2 instructions; access 0 reads 4 bytes at iseq 0 (pc 0x401000),
# access 1 writes 8 bytes at iseq 1 (pc 0x401004) and is guarded.
# chunk 1, thread 1, icount 10: run (0x5000, 0x6000), run (0x5004, 0: not
#   made).  Bytes: head 00; zigzag deltas 0xa000 = 80 c0 02, 0xc000 =
#   80 80 03; head 00; +4 = 08; -0x6000 = ff ff 02.
# chunk 2, thread 2, icount 20: run (0x7000, 0x7008): 00 80 c0 03 90 c0 03.
# chunk 3, thread 1, icount 30: a truncated varint.
# block 1 [0x5000, +16) lives 0..12, block 2 [0x7000, +8) from 15 on.
rm -f hand.db
sqlite3 -cmd ".load $EXT" hand.db <"$DG_TOP/schema/schema.sql" || bail "schema.sql makes a database (with the extension: its virtual table sum_fn_block)"
sqlite3 hand.db "
INSERT INTO bbdefs VALUES (0, 4198400, 2, 2, 0);
INSERT INTO access_descs VALUES (0, 0, 0, 4198400, 0, 4, 0, 0), (0, 1, 1, 4198404, 1, 8, 1, 0);
INSERT INTO contexts VALUES (0, 0, 0);
INSERT INTO chunks VALUES (1, 1, 10, 14, 20480, 24576, 2, 4, x'0080c0028080030008ffff02');
INSERT INTO chunks VALUES (2, 2, 20, 22, 28672, 28680, 1, 2, x'0080c00390c003');
INSERT INTO chunks VALUES (3, 1, 30, 32, 20480, 20480, 1, 2, x'0080');
INSERT INTO chunk_regions VALUES (0, 1), (0, 2), (0, 3);
INSERT INTO context_chunks VALUES (0, 1, 3, x'0101');
INSERT INTO blocks (id, addr, size, alloc_icount, free_icount) VALUES (1, 20480, 16, 0, 12), (2, 28672, 8, 15, NULL);
" 2>hand.err || { diag_file hand.err; bail "the hand-made database is made"; }

cat >want.rows <<'EOF'
10|0x5000|4|0|0x401000|1|0|1|0|1
11|0x6000|8|1|0x401004|1|0||1|1
12|0x5004|4|0|0x401000|1|0||0|1
20|0x7000|4|0|0x401000|2|0|2|0|2
21|0x7008|8|1|0x401004|2|0||1|2
EOF
q hand.db "SELECT icount, printf('0x%x', addr), size, is_write, printf('0x%x', pc), thread,
	context_id, block_id, aseq, chunk_id FROM accesses WHERE chunk_id < 3" >got.rows 2>got.err
check_eq "chunks 1-2: sqlite3 exits 0" 0 "$?"
check_cmp "chunks 1-2: every row and column (guarded zero left out)" want.rows got.rows

q hand.db "SELECT count(*) FROM accesses" >full.out 2>full.err
check_gt "full scan over the bad chunk: sqlite3 fails" 0 "$?"
case $(cat full.err) in
*"accesses: chunk 3: malformed data"*) ok "the error names the malformed chunk" ;;
*) not_ok "the error names the malformed chunk"; diag_file full.err ;;
esac

check_eq "icount < 30 never decodes chunk 3" 5 "$(q hand.db 'SELECT count(*) FROM accesses WHERE icount < 30')"
check_eq "icount BETWEEN: one row" "11" "$(q hand.db 'SELECT icount FROM accesses WHERE icount BETWEEN 11 AND 11')"
check_eq "thread = 2" "20 21" "$(q hand.db 'SELECT icount FROM accesses WHERE thread = 2' | tr '\n' ' ' | sed 's/ $//')"
check_eq "block_id = 1: only while it lived" "10" "$(q hand.db 'SELECT icount FROM accesses WHERE block_id = 1')"
check_eq "block_id = 2" "20" "$(q hand.db 'SELECT icount FROM accesses WHERE block_id = 2')"
check_eq "context_id with chunk_id bounds (context_chunks read within them)" "20 21" \
	"$(q hand.db 'SELECT icount FROM accesses WHERE context_id = 0 AND chunk_id BETWEEN 2 AND 2' | tr '\n' ' ' | sed 's/ $//')"
check_eq "dg_chunks: a context_chunks row's ids" "[1,2,3]" \
	"$(q hand.db 'SELECT dg_chunks(chunk_lo, chunk_hi, data) FROM context_chunks')"
check_eq "dg_chunk_in: 2 is, 4 is not" "1|0" \
	"$(q hand.db 'SELECT dg_chunk_in(chunk_lo, chunk_hi, data, 2), dg_chunk_in(chunk_lo, chunk_hi, data, 4) FROM context_chunks')"
# schema 10 and older: a row a (context, chunk) in chunk_contexts
cp hand.db old.db
sqlite3 old.db "DROP TABLE context_chunks;
CREATE TABLE chunk_contexts (context_id INTEGER NOT NULL, chunk_id INTEGER NOT NULL,
	PRIMARY KEY (context_id, chunk_id)) WITHOUT ROWID;
INSERT INTO chunk_contexts VALUES (0, 1), (0, 2), (0, 3);"
check_eq "schema 10's chunk_contexts read within the chunk_id bounds" "20 21" \
	"$(q old.db 'SELECT icount FROM accesses WHERE context_id = 0 AND chunk_id BETWEEN 2 AND 2' | tr '\n' ' ' | sed 's/ $//')"
# a damaged row: the ids run past chunk_hi
cp hand.db bad.db
sqlite3 bad.db "UPDATE context_chunks SET data = x'0105'"
q bad.db 'SELECT count(*) FROM accesses WHERE context_id = 0 AND chunk_id <= 2' >bad.out 2>&1
case $(cat bad.out) in
*"context_chunks: context 0: byte 1: the ids do not end at chunk_hi"*) ok "a damaged context_chunks row is an error naming the context and byte" ;;
*) not_ok "a damaged context_chunks row is an error naming the context and byte"; diag_file bad.out ;;
esac
check_eq "addr range" "10 12" "$(q hand.db 'SELECT icount FROM accesses WHERE addr BETWEEN 0x5000 AND 0x500f' | tr '\n' ' ' | sed 's/ $//')"
check_eq "is_write = 1 before chunk 3" "2 16" "$(q hand.db 'SELECT count(*), sum(size) FROM accesses WHERE is_write = 1 AND chunk_id <= 2' | tr '|' ' ')"
check_eq "join with blocks" "1|1 2|1" \
	"$(q hand.db 'SELECT b.id, count(a.icount) FROM blocks b JOIN accesses a ON a.block_id = b.id WHERE a.icount < 30 GROUP BY b.id' | tr '\n' ' ' | sed 's/ $//')"
q hand.db "EXPLAIN QUERY PLAN SELECT * FROM accesses WHERE block_id = 1 ORDER BY icount" >plan.out
grep -q 'VIRTUAL TABLE INDEX [0-9]*:7=' plan.out && ! grep -q 'ORDER BY' plan.out
check_eq "plan: block_id pushed down, ORDER BY icount free" 0 "$?"
[ "$?" -eq 0 ] || diag_file plan.out

# dgsql's DuckDB scan (lib/dgvt_par) over the same chunks: a question that
# reads no address skips them, yet leaves the guarded zero out (it decodes
# that context's runs), and a run cut short keeps its own accesses alone.
DGSQL=$DG_BUILD/bin/dgsql
if [ -x "$DGSQL" ] && "$DGSQL" --version | grep -q DuckDB; then
	cp hand.db good.db
	sqlite3 good.db "DELETE FROM chunks WHERE id = 3"
	check_eq "DuckDB's scan, no address read: the guarded zero left out" "5|28|2|72" \
		"$("$DGSQL" --engine duckdb -c --no-header good.db \
		'SELECT count(size), sum(size), sum(is_write), sum(thread * 10 + aseq) FROM accesses' 2>&1 | tr ',' '|')"
	check_eq "DuckDB's scan with the addresses: the same rows" "5|28|2|122892" \
		"$("$DGSQL" --engine duckdb -c --no-header good.db \
		'SELECT count(size), sum(size), sum(is_write), sum(addr) / 1 FROM accesses' 2>&1 | tr ',' '|')"
	"$DGSQL" --engine duckdb -c --no-header hand.db 'SELECT sum(size) FROM accesses' >dk.out 2>&1
	case $(cat dk.out) in
	*"accesses: chunk 3: malformed data"*) ok "DuckDB's scan, no address read: the malformed chunk is an error naming it" ;;
	*) not_ok "DuckDB's scan, no address read: the malformed chunk is an error naming it"; diag_file dk.out ;;
	esac
else
	echo "# dgsql with DuckDB not built: its scan's checks skipped"
fi

exports=$(nm -D --defined-only "$EXT" 2>/dev/null | awk '{print $3}' | tr '\n' ' ' | sed 's/ $//')
check_eq "the extension exports only its entry point" "sqlite3_dgaccess_init" "$exports"
if ldd "$EXT" 2>/dev/null | grep -q libsqlite3; then
	not_ok "the extension does not link libsqlite3"
else
	ok "the extension does not link libsqlite3"
fi

# ------------------------------------------------------------ real databases
IMPORT=$DG_BUILD/bin/dg-import
if [ ! -x "$IMPORT" ]; then
	echo "# $IMPORT not built: real-database checks skipped"
	finish
fi
[ -x "$DG_DUMP" ] || bail "$DG_DUMP exists (run make)"
for log in "$DG_TESTS"/fixtures/*.dg; do
	n=$(basename "$log" .dg)
	rm -f "$n.db"
	"$IMPORT" "$log" "$n.db" >"$n.import" 2>&1 || { not_ok "$n: dg-import"; diag_file "$n.import"; continue; }
	"$DG_DUMP" --stats "$log" >"$n.stats"
	"$DG_DUMP" --accesses "$log" >"$n.want"
	check_eq "$n: count(*) = --stats accesses" "$(stat_of "$n.stats" accesses)" \
		"$(q "$n.db" 'SELECT count(*) FROM accesses')"
	q "$n.db" "SELECT printf('%d %d 0x%x %s %d 0x%x', thread, icount, pc,
		iif(is_write, 'W', 'R'), size, addr) FROM accesses" >"$n.got"
	check_cmp "$n: every access as dg-dump --accesses lists it" "$n.want" "$n.got"
	check_eq "$n: block_id = id gives each block's reads + writes" 0 \
		"$(q "$n.db" 'SELECT count(*) FROM blocks b WHERE reads + writes !=
			(SELECT count(*) FROM accesses a WHERE a.block_id = b.id)')"
done
finish
