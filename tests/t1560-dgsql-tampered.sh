#!/bin/sh
# t1560-dgsql-tampered: a database is input like any other.  On writes.c's
# trace: contexts and bbdefs rebuilt untyped with a text id and an id far
# past max(id) (which once wrote past a heap array), a duplicate
# access_descs row, a chunk's icount_lo at INT64_MAX, sum_block_chunks
# counts out of range or above what the chunk holds: `SELECT count(*)
# FROM accesses` is an SQL error naming the table and row (exit 1), in
# dgsql and in stock sqlite3 with the extension, never a crash.  A 0-byte
# file, a file that is not SQLite, an SQLite database that is not a trace
# and one of a newer schema version, or of an older one (5: code keyed by
# pc alone): .stats is a clear error, exit 3.  A block's fns blob cut
# short: sum_fn_block's error names the block, byte and field.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_cmd sqlite3
trace_db w.db writes || finish

# tamper DB NAME SQL: a copy of w.db as NAME with SQL applied.
tamper() {
	cp w.db "$1" && sqlite3 "$1" "$2" || bail "tampering $1"
}
# (sum(size): every access decoded; a bare count(*) is answered from the
# chunks' own counts and reads none of the tables tampered with here)
count_fails() {
	dq "$1" 'SELECT sum(size) FROM accesses' >/dev/null
	check_eq "$1: sum(size) FROM accesses fails cleanly (exit 1)" 1 "$?" ||
		diag_file dq.err
	check_eq "$1: the message names $2" 1 "$(grep -c "$2" dq.err)" ||
		diag_file dq.err
}

tamper ctx.db "ALTER TABLE contexts RENAME TO c_old;
CREATE TABLE contexts (id, bbdef_id INTEGER, stack_id INTEGER);
INSERT INTO contexts SELECT * FROM c_old; INSERT INTO contexts VALUES ('z', 0, NULL);
UPDATE contexts SET id = 100000000 WHERE id = 5;"
count_fails ctx.db "accesses: table contexts, row [0-9]*: id"
tamper bb.db "CREATE TABLE b2 AS SELECT * FROM bbdefs; DROP TABLE bbdefs;
ALTER TABLE b2 RENAME TO bbdefs; UPDATE bbdefs SET id = 'q' WHERE rowid = 2;"
count_fails bb.db "accesses: table bbdefs, row 2: id"
tamper sparse.db "UPDATE contexts SET id = 100000000 WHERE id = (SELECT max(id) FROM contexts)"
count_fails sparse.db "accesses: table contexts: largest id 100000000"
tamper desc.db "CREATE TABLE d2 AS SELECT * FROM access_descs; DROP TABLE access_descs;
ALTER TABLE d2 RENAME TO access_descs; INSERT INTO access_descs SELECT * FROM access_descs LIMIT 1;"
count_fails desc.db "accesses: access_descs ([0-9]*, [0-9]*): not unique"
tamper ic.db "UPDATE chunks SET icount_lo = 9223372036854775807 WHERE id = (SELECT min(id) FROM chunks)"
count_fails ic.db "accesses: chunk [0-9]*: run 0: icount 9223372036854775807 out of range"

# sum_block_chunks: a count no chunk can hold is refused, not counted out
# row by row; a count above what the chunk holds fails when a rowid makes
# the table decode it
block_fails() {
	dq "$1" "$2" >/dev/null
	check_eq "$1: $2 fails cleanly (exit 1)" 1 "$?" || diag_file dq.err
	check_eq "$1: the message names $3" 1 "$(grep -c "$3" dq.err)" || diag_file dq.err
}
big="UPDATE blocks SET reads = 100000 WHERE id = (SELECT min(id) FROM blocks);
DELETE FROM sum_block_chunks;"
tamper bc.db "$big INSERT INTO sum_block_chunks SELECT min(id), 1, 1000000000000 FROM blocks"
block_fails bc.db "SELECT count(*) FROM accesses WHERE block_id = (SELECT min(id) FROM blocks)" \
	"accesses: sum_block_chunks: block [0-9]*, chunk 1: 1000000000000 accesses, not 1 to 65536"
block_fails bc.db "SELECT count(*) FROM accesses WHERE block_id = $(sqlite3 bc.db 'SELECT min(id) FROM blocks')" \
	"accesses: sum_block_chunks: block [0-9]*, chunk 1: 1000000000000 accesses, not 1 to 65536"
tamper bc2.db "$big INSERT INTO sum_block_chunks SELECT min(id), 1, 65536 FROM blocks"
block_fails bc2.db "SELECT rowid FROM accesses WHERE block_id = (SELECT min(id) FROM blocks) LIMIT 1 OFFSET 1000" \
	"accesses: chunk 1 holds fewer accesses of block [0-9]* than sum_block_chunks counts"

# a block's fns blob (schema 14: sum_fn_block's rows of the block) cut short
tamper fns.db "UPDATE blocks SET fns = x'0205' WHERE id = (SELECT min(id) FROM blocks WHERE fns IS NOT NULL)"
block_fails fns.db "SELECT sum(accesses) FROM sum_fn_block" \
	"sum_fn_block: blocks.fns: block [0-9]*: byte 2 (size): the blob ends inside the number"
block_fails fns.db "SELECT sum(accesses) FROM sum_fn_block WHERE block_id = (SELECT min(id) FROM blocks WHERE fns IS NOT NULL)" \
	"sum_fn_block: blocks.fns: block [0-9]*: byte 2 (size)"

ext=$DG_BUILD/lib/dgaccess.so
if [ -f "$ext" ]; then
	sqlite3 ctx.db ".load ${ext%.so}" 'SELECT count(*) FROM accesses' >/dev/null 2>sq.err
	st=$?
	check_eq "stock sqlite3 + extension: an error, not a crash (exit $st)" yes \
		"$( [ "$st" -ge 1 ] && [ "$st" -lt 128 ] && echo yes)" || diag_file sq.err
	check_eq "stock sqlite3 + extension: the message names the table" 1 \
		"$(grep -c 'accesses: table contexts' sq.err)"
fi

: >empty.db
echo 'not a database at all, just text' >text.db
sqlite3 other.db 'CREATE TABLE t(x)'
tamper newer.db 'PRAGMA user_version = 99'
tamper older.db 'PRAGMA user_version = 5'
for db in empty text other newer older; do
	dq "$db.db" .stats >stats.out
	check_eq "$db.db: .stats exits 3" 3 "$?"
	check_eq "$db.db: nothing on stdout" 0 "$(wc -c <stats.out | tr -d ' ')"
done
check_eq "empty.db: said so" 1 "$( (dq empty.db .stats; cat dq.err) 2>/dev/null | grep -c "'empty.db' is empty")"
check_eq "text.db: said so" 1 "$( (dq text.db .stats; cat dq.err) 2>/dev/null | grep -c 'not a database')"
check_eq "other.db: said so" 1 "$( (dq other.db .stats; cat dq.err) 2>/dev/null | grep -c 'not a Datagrind trace')"
check_eq "newer.db: said so" 1 "$( (dq newer.db .stats; cat dq.err) 2>/dev/null | grep -c 'schema version 99')"
check_eq "older.db: said so, and what to do" 1 \
	"$( (dq older.db .stats; cat dq.err) 2>/dev/null | grep -c 'schema version 5, from an older dg-import.*import the log again')"
finish
