#!/bin/sh
# t1300-import-writes: tests/progs/writes.c traced and imported with
# dg-import.  The database says what the program provably does and what
# dg-dump says about the same log: the 400-byte block (100 writes by fill,
# 100 reads by sum, 4 bytes each), its allocation stack (frame 0 in main),
# meta (complete, accesses), the pc of fill's store symbolized to writes.c
# and the line addr2line gives; every blocks row (address, size, icounts,
# counts, bytes, stack) equals dg-dump --blocks; each block's offset
# histogram equals the per-offset counts of dg-dump --accesses; sum_pc,
# sum_pages and sum_lines equal the same counts per pc, 4 KiB page and
# 64-byte line; and, when build/lib/dgaccess.so exists, the accesses
# virtual table has meta.accesses rows.  tests/progs/manyfns.c: blocks
# touched by up to 40 functions have each (function, block, direction)
# count exact in sum_fn_block.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog writes
W=$DG_PROGS/writes

run_dg w.log -- "$W" || finish
dump --stats w.log stats || finish
dump --blocks w.log blocks || finish
dump --accesses w.log acc || finish
import_ok w.log w.db || finish
DB=w.db

# ---- meta
check_eq "meta complete" 1 "$(meta $DB complete)"
check_eq "meta accesses = dg-dump reads + writes" \
	$(($(stat_of stats reads) + $(stat_of stats writes))) "$(meta $DB accesses)"
check_eq "meta runs = dg-dump runs" "$(stat_of stats runs)" "$(meta $DB runs)"
check_eq "meta icount = dg-dump icount" "$(stat_of stats icount)" "$(meta $DB icount)"
check_eq "meta format_version word_size endian" "2 8 little" \
	"$(meta $DB format_version) $(meta $DB word_size) $(meta $DB endian)"
check_eq "meta exe" "$W" "$(meta $DB exe)"
check_eq "meta source_bytes = the log's size" "$(wc -c <w.log | tr -d ' ')" "$(meta $DB source_bytes)"
check_eq "no incomplete_reason" missing "$(meta $DB incomplete_reason)"

# ---- the 400-byte block
blocks_from blocks "$W" main 400 >blk
check_eq "dg-dump: one 400-byte block from main" 1 "$(wc -l <blk | tr -d ' ')" || finish
read -r addr size alloc free nr nw rbytes wbytes stack <blk
lo=$(echo "$addr" | dgawk '{ print hex($1) }')
check_eq "blocks: one row for the 400-byte block at its address" 1 \
	"$(q $DB "SELECT count(*) FROM blocks WHERE addr = $lo AND size = 400")"
bid=$(q $DB "SELECT id FROM blocks WHERE addr = $lo AND size = 400")
check_eq "blocks: reads writes read_bytes write_bytes" "100|100|400|400" \
	"$(q $DB "SELECT reads, writes, read_bytes, write_bytes FROM blocks WHERE id = '$bid'")"
check_eq "blocks: freed, alloc < first access <= last access < free" 1 \
	"$(q $DB "SELECT free_icount IS NOT NULL AND alloc_icount < first_icount
	          AND first_icount <= last_icount AND last_icount < free_icount FROM blocks WHERE id = '$bid'")"

check_eq "sum_fn_block: fill x block = 100 writes, 400 bytes, no reads" "1|100|400" \
	"$(q $DB "SELECT s.is_write, s.accesses, s.bytes FROM sum_fn_block s JOIN functions f ON f.id = s.function_id
	          WHERE f.name = 'fill' AND s.block_id = '$bid'")"
check_eq "sum_fn_block: sum x block = 100 reads, 400 bytes, no writes" "0|100|400" \
	"$(q $DB "SELECT s.is_write, s.accesses, s.bytes FROM sum_fn_block s JOIN functions f ON f.id = s.function_id
	          WHERE f.name = 'sum' AND s.block_id = '$bid'")"
check_eq "sum_fn_block: nothing else touches the block" "200" \
	"$(q $DB "SELECT sum(accesses) FROM sum_fn_block WHERE block_id = '$bid'")"

check_eq "alloc stack frame 0 symbolizes to main in writes.c" "main|writes.c" \
	"$(q $DB "SELECT f.name, replace(p.file, rtrim(p.file, replace(p.file, '/', '')), '')
	          FROM blocks b JOIN stack_frames sf ON sf.stack_id = b.alloc_stack_id AND sf.depth = 0
	          JOIN pcs p ON p.pc = sf.pc AND p.module_id = sf.module_id JOIN functions f ON f.id = p.function_id WHERE b.id = '$bid'")"
m=$(sym_range "$W" main)
f0=$(q $DB "SELECT sf.pc FROM blocks b JOIN stack_frames sf ON sf.stack_id = b.alloc_stack_id AND sf.depth = 0 WHERE b.id = '$bid'")
check_eq "alloc stack frame 0 lies in main (nm)" yes \
	"$([ "$f0" -ge "${m% *}" ] && [ "$f0" -lt "${m#* }" ] && echo yes || echo "no: $f0 not in $m")"
check_eq "stacks.depth = number of stack_frames rows, for every stack" 0 \
	"$(q $DB "SELECT count(*) FROM stacks s WHERE depth != (SELECT count(*) FROM stack_frames WHERE stack_id = s.id)")"

# ---- fill's store: pc, file and line as addr2line says
accesses_in acc "$lo" $((lo + 400)) "$alloc" "$free" | awk '$4 == "W" { print $3 }' | sort -u >wpcs
check_eq "dg-dump: fill's writes come from one pc" 1 "$(wc -l <wpcs | tr -d ' ')"
wpc=$(dgawk '{ print hex($1) }' wpcs)
a2l=$(addr2line -e "$W" "$(cat wpcs)" | sed 's/ (discriminator.*//')
want_line=$(grep -n 'p\[i\] = i;' "$DG_TESTS/progs/writes.c" | cut -d: -f1)
check_eq "addr2line puts the store at writes.c:$want_line" "writes.c:$want_line" "${a2l##*/}"
check_eq "pcs: the store's function, file, line" "fill|writes.c|${a2l##*:}" \
	"$(q $DB "SELECT f.name, replace(p.file, rtrim(p.file, replace(p.file, '/', '')), ''), p.line
	          FROM pcs p JOIN functions f ON f.id = p.function_id WHERE p.pc = $wpc")"
check_eq "pc_inlines: the store has its depth-0 row only (fill is not inlined)" "fill|$want_line" \
	"$(q $DB "SELECT f.name, i.line FROM pc_inlines i JOIN functions f ON f.id = i.function_id WHERE i.pc = $wpc")"
check_eq "sum_pc: the store made 100 writes of 400 bytes" "1|100|400" \
	"$(q $DB "SELECT is_write, accesses, bytes FROM sum_pc WHERE pc = $wpc")"

# ---- every block equals dg-dump --blocks
dgawk '{ printf "%d %d %d %s %d %d %d %d %s\n", hex($1), $2, $3, $4, $5, $6, $7, $8, $9 }' blocks >blocks.want
q $DB "SELECT b.addr, b.size, b.alloc_icount, ifnull(b.free_icount, '-'), b.reads, b.writes,
              b.read_bytes, b.write_bytes,
              ifnull((SELECT group_concat(printf('0x%x', pc), ',') FROM
                        (SELECT pc FROM stack_frames WHERE stack_id = b.alloc_stack_id ORDER BY depth)), '-')
       FROM blocks b ORDER BY b.alloc_icount, b.id" | tr '|' ' ' >blocks.got
check_eq "blocks: as many rows as dg-dump --blocks lines" \
	"$(wc -l <blocks | tr -d ' ')" "$(q $DB 'SELECT count(*) FROM blocks')"
check_cmp "blocks: addr size alloc free reads writes bytes stack = dg-dump --blocks" blocks.want blocks.got

# ---- offset histograms (schema.sql: the bytes 0x80 0x00, then per touched
# bucket three unsigned LEB128 numbers, the untouched buckets skipped, the
# reads, the writes started in the bucket; hist_bucket the smallest power
# of two giving <= 1024 buckets)
grep -q 'three unsigned LEB128$' "$DG_TOP/schema/schema.sql" ||
	not_ok "schema.sql no longer describes blocks.hist as (skip, reads, writes) triples (update this test's decoder)"
acc_by_block acc blocks >byblock
check_eq "dg-dump --accesses per block agrees with --blocks (reads writes per block)" \
	"$(awk '{ print $5, $6 }' blocks | tr '\n' ' ')" \
	"$(awk -v n="$(wc -l <blocks)" '{ c[$1 " " $2]++ } END { for (b = 1; b <= n; b++) printf "%d %d ", c[b " R"], c[b " W"] }' byblock)"
q $DB "SELECT size, ifnull(hist_bucket, '-'), ifnull(hex(hist), '-') FROM blocks ORDER BY alloc_icount, id" |
	tr '|' ' ' >hist.raw
awk '{ print NR, $1, $2 }' hist.raw | while read -r n sz bk; do
	b=1
	while [ $((b * 1024)) -lt "$sz" ]; do b=$((b * 2)); done
	[ "$bk" = - ] || [ "$bk" = "$b" ] || echo "block $n size $sz: hist_bucket $bk, want $b"
done >badbucket
check_eq "hist is NULL exactly for the blocks never accessed" 0 \
	"$(q $DB "SELECT count(*) FROM blocks WHERE (hist IS NULL) != (reads + writes = 0)")"
check_empty "hist_bucket is the smallest power of two giving <= 1024 buckets" badbucket
# decoded: "block bucket reads writes" for the touched buckets; a malformed
# blob (no 0x80 0x00 first, a number cut short, a count not in threes, a
# bucket with neither reads nor writes) is reported.
dgawk '
	$3 != "-" {
		if (substr($3, 1, 4) != "8000") { print NR, "no-marker"; next }
		n = 0; v = 0; m = 1; open = 0
		for (o = 5; o < length($3); o += 2) {
			c = hex(substr($3, o, 2))
			v += (c % 128) * m; m *= 128; open = 1
			if (c < 128) { num[n++] = v; v = 0; m = 1; open = 0 }
		}
		if (open || n % 3 || n == 0) { print NR, "malformed", n, open; next }
		k = -1
		for (i = 0; i < n; i += 3) {
			k += num[i] + 1
			if (!num[i + 1] && !num[i + 2]) print NR, "untouched-bucket", k
			else print NR, k, num[i + 1], num[i + 2]
		}
	}' hist.raw >hist.got
awk 'NR == FNR { bk[NR] = $2; next }
	{ k = $1 " " int($3 / bk[$1]); if ($2 == "R") r[k]++; else w[k]++; seen[k] = 1 }
	END { for (k in seen) print k, r[k] + 0, w[k] + 0 }' hist.raw byblock | sort -n -k1,1 -k2,2 >hist.want
sort -n -k1,1 -k2,2 hist.got >hist.got.s
check_cmp "blocks.hist decodes to dg-dump's per-offset counts for every block" hist.want hist.got.s
# dgsql's dg_hist reads the sparse form, and the dense one of schema 11 and
# before (the same histograms re-encoded into a copy); a blob cut short is
# an error that says so
DGSQL=$DG_BUILD/bin/dgsql
hq() {
	"$DGSQL" "$1" "SELECT n.k, h.offset / b.hist_bucket, h.reads, h.writes
	  FROM (SELECT id, row_number() OVER (ORDER BY alloc_icount, id) AS k FROM blocks) n
	  JOIN blocks b ON b.id = n.id, dg_hist(b.hist, b.hist_bucket) h" 2>&1 | tr '|' ' ' |
		sort -n -k1,1 -k2,2
}
hq $DB >dghist.got
check_cmp "dg_hist decodes every block's histogram as dg-dump counts it" hist.want dghist.got
cp $DB dense.db
python3 - dense.db <<'PY' || not_ok "histograms re-encoded dense"
import sqlite3, sys
def ulebs(b):
    out, v, sh = [], 0, 0
    for c in b:
        v |= (c & 0x7f) << sh; sh += 7
        if not c & 0x80: out.append(v); v, sh = 0, 0
    return out
def uleb(v):
    o = bytearray()
    while v >= 0x80: o.append(v & 0x7f | 0x80); v >>= 7
    o.append(v); return bytes(o)
db = sqlite3.connect(sys.argv[1])
for bid, h in db.execute("SELECT id, hist FROM blocks WHERE hist IS NOT NULL").fetchall():
    assert h[:2] == b"\x80\x00"
    n, k, dense = ulebs(h[2:]), -1, {}
    for i in range(0, len(n), 3):
        k += n[i] + 1; dense[k] = (n[i + 1], n[i + 2])
    blob = b"".join(uleb(c) for j in range(k + 1) for c in dense.get(j, (0, 0)))
    db.execute("UPDATE blocks SET hist = ? WHERE id = ?", (blob, bid))
db.commit()
PY
check_eq "the copy's histograms are dense (none starts with 0x80 0x00)" 0 \
	"$(q dense.db "SELECT count(*) FROM blocks WHERE substr(hex(hist), 1, 4) = '8000'")"
hq dense.db >dense.got
check_cmp "dg_hist reads the dense form (schema 11 and before) the same" hist.want dense.got
cp $DB cut.db
q cut.db "UPDATE blocks SET hist = x'800000' WHERE id = (SELECT min(id) FROM blocks WHERE hist IS NOT NULL)"
"$DGSQL" cut.db "SELECT count(*) FROM blocks b, dg_hist(b.hist, b.hist_bucket)" >cut.out 2>&1
check_eq "a histogram cut short: exit 1, and a message that says so" "1 1" \
	"$? $(grep -c "dg_hist: malformed histogram (after 0 buckets): a bucket's numbers cut short" cut.out)"
# hostile: bucket 2^32 - 1, then a skip that would wrap back to bucket 5;
# a bucket listed with neither reads nor writes
for x in "8000FFFFFFFF0F010085808080F0FFFFFFFF010700:a bucket past 2^32" \
	"8000000100020000:a bucket listed with neither reads nor writes"; do
	q cut.db "UPDATE blocks SET hist = x'${x%%:*}' WHERE id = (SELECT min(id) FROM blocks WHERE hist IS NOT NULL)"
	"$DGSQL" cut.db "SELECT count(*) FROM blocks b, dg_hist(b.hist, b.hist_bucket)" >cut.out 2>&1
	check_eq "a histogram with ${x#*:}: exit 1, and a message that says so" "1 1" \
		"$? $(grep -c "dg_hist: malformed histogram (after 1 buckets): ${x#*:}" cut.out)"
done
check_eq "the 400-byte block: 100 buckets of 1 read + 1 write at offsets 0, 4, ..., 396" \
	"100 100 100 0" \
	"$(awk -v b="$(grep -n "^$lo 400 " blocks.want | cut -d: -f1)" '$1 == b && $2 % 4 == 0 && $3 == 1 && $4 == 1 { n++ }
		$1 == b { t++; r += $3; w += $4 } $1 == b && $2 % 4 { bad++ }
		END { print n + 0, r + 0, w + 0, bad + 0 }' hist.got)"

# ---- per pc, page and cache line
dgawk '{ k = hex($3) " " ($4 == "W"); n[k]++; b[k] += $5 } END { for (k in n) print k, n[k], b[k] }' acc | sort -n -k1,1 -k2,2 >pc.want
q $DB "SELECT pc, is_write, accesses, bytes FROM sum_pc ORDER BY pc, is_write" | tr '|' ' ' >pc.got
check_cmp "sum_pc = dg-dump --accesses counted per pc and direction" pc.want pc.got
for u in page:4096 line:64; do
	t=${u%:*}; d=${u#*:}
	dgawk -v d="$d" '{ k = int(hex($6) / d); seen[k] = 1; if ($4 == "R") r[k]++; else w[k]++ }
		END { for (k in seen) printf "%d %d %d\n", k, r[k], w[k] }' acc | sort -n >$t.want
	q $DB "SELECT $t, reads, writes FROM sum_${t}s ORDER BY $t" | tr '|' ' ' >$t.got
	check_cmp "sum_${t}s = dg-dump --accesses counted per ${t}" $t.want $t.got
	check_eq "sum_${t}s total reads + writes = meta accesses" "$(meta $DB accesses)" \
		"$(q $DB "SELECT sum(reads) + sum(writes) FROM sum_${t}s")"
done
check_eq "sum_pc total = meta accesses" "$(meta $DB accesses)" "$(q $DB 'SELECT sum(accesses) FROM sum_pc')"
check_eq "sum_fn_block total = meta accesses" "$(meta $DB accesses)" "$(q $DB 'SELECT sum(accesses) FROM sum_fn_block')"
check_eq "chunks: n_accesses total = meta accesses, n_runs total = meta runs" \
	"$(meta $DB accesses)|$(meta $DB runs)" "$(q $DB 'SELECT sum(n_accesses), sum(n_runs) FROM chunks')"

# ---- function x block counts past the block's own room (manyfns.c): 81
# (function, direction) pairs on `wide` (past the 64 a block keeps; main
# reads it 40 times), 24 on `mid`, 2 on `few`; every pair as the program
# makes it
need_prog manyfns
run_dg m.log -- "$DG_PROGS/manyfns" || finish
import_ok m.log m.db || finish
awk 'BEGIN { for (k = 0; k < 40; k++) {
	printf "wide f%d 0 %d\nwide f%d 1 1\n", k, k + 1, k
	if (k < 12) printf "mid f%d 0 1\nmid f%d 1 2\n", k, k
} print "wide main 0 40"; print "few f0 0 1"; print "few f0 1 1"; print "few main 0 300" }' | sort >fb.want
q m.db "WITH b(name, id) AS (SELECT CASE size WHEN 4 THEN 'few' ELSE
	          CASE WHEN id = (SELECT min(id) FROM blocks WHERE size = 160) THEN 'wide' ELSE 'mid' END END, id
	        FROM blocks WHERE size IN (4, 160))
	SELECT b.name, f.name, s.is_write, s.accesses FROM sum_fn_block s JOIN b ON b.id = s.block_id
	JOIN functions f ON f.id = s.function_id" | tr '|' ' ' | sort >fb.got
check_cmp "sum_fn_block: 81, 24 and 3 (function, direction) pairs on three blocks, exact" \
	fb.want fb.got
check_eq "sum_fn_block: no (function, block, direction) in two rows" "" \
	"$(q m.db 'SELECT function_id, block_id, is_write FROM sum_fn_block
	          GROUP BY function_id, block_id, is_write HAVING count(*) > 1 LIMIT 3')"
check_eq "sum_fn_block total = meta accesses" "$(meta m.db accesses)" \
	"$(q m.db 'SELECT sum(accesses) FROM sum_fn_block')"
# few's byte 0 is read 301 times: the histogram's counters start as bytes
# and widen when one overflows; mid's stay bytes
check_eq "histograms past 255 counts a byte: few offset 0 301 R 1 W; mid 12 ints 1 R 2 W" \
	"0 301 1|12 12 24" \
	"$("$DG_BUILD/bin/dgsql" m.db "SELECT h.offset || ' ' || h.reads || ' ' || h.writes
	    FROM blocks b, dg_hist(b.hist, b.hist_bucket) h WHERE b.size = 4" 2>&1)|$("$DG_BUILD/bin/dgsql" m.db \
	    "SELECT count(*), sum(h.reads), sum(h.writes) FROM blocks b, dg_hist(b.hist, b.hist_bucket) h
	    WHERE b.id = (SELECT max(id) FROM blocks WHERE size = 160)" 2>&1 | tr '|' ' ')"

# ---- the accesses virtual table, if it is built
ext=$DG_BUILD/lib/dgaccess
if [ -f "$ext.so" ]; then
	check_eq "accesses virtual table: count(*) = meta accesses" "$(meta $DB accesses)" \
		"$(q $DB ".load $ext" 'SELECT count(*) FROM accesses')"
else
	echo "# $ext.so not built: the accesses virtual table is not checked"
fi
finish
