#!/bin/sh
# t1398-import-fields-insn-heap: struct fields by the accessing instruction (way 3:
# pc_types, pc_fields) and by the heap block (way 4: site_types,
# site_fields) against the oracle tests/progs/pctype/fields.c, built -O0
# (pointers through stack slots: the tracker) and -O2 (location lists),
# run with N = 1234 (way 4's counts are per allocation site: site_fields).  What the program provably does to struct rec:
#   read_a reads one->a N times, write_b writes .b N/2 + 1 times (once on
#   the first `more` block), no instruction of theirs touches .c; poke_void
#   (a void *) gets no type; local_c writes .c of a local once (a frame
#   slot).  The counts at the typed pcs equal lackey's at the same pcs.
#   Heap: `one` is struct rec by its own votes with a: N reads, b: N/2
#   writes and nothing on c; the three `more` blocks (written only through
#   void * but one) are struct rec, one by votes and two by their
#   allocation site, with 16 writes of b in all; at -O0 the 96-byte array
#   is 8 struct recs: 8 writes of a, 24 reads of c (at -O2 its loops walk
#   induction pointers no variable names: the tracker follows them round
#   the loops' back edges).
#   By allocation (site_types.how 'alloc'): `one` and `arr` are struct rec
#   (a struct rec * variable holds each); `more`'s site says nothing (a
#   void * array holds them).
#   Per access (sum_field), at both levels: a: N reads and init_arr's 8
#   writes, b: write_b's N/2 writes of `one`, c: sum_c's 24 reads, all
#   'alloc' (the block's type, whatever the instruction); b: write_b's one
#   write of more[0] by 'insn' and poke_void's 15 by 'heap'; c: local_c's
#   write by 'insn' (a frame slot).
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog pctype/fields-O0
need_prog pctype/fields-O2
N=1234
HALF=$((N / 2))

# fn_field DB FUNCTION: "type|field|via|is_write|accesses" of its typed pcs.
fn_field() {
	q "$1" "SELECT t.type, ifnull(t.field, '-'), t.via, s.is_write, sum(s.accesses)
		FROM pc_types t JOIN sum_pc s ON s.pc = t.pc JOIN pcs p ON p.pc = t.pc
		JOIN functions f ON f.id = p.function_id
		WHERE f.name = '$2' AND t.type = 'struct rec'
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"
}

# block_of DB SIZE NTH: "type|elements|voted|by_site|other" of the
# site_types row of the NTH (from 1, by id) block of SIZE bytes' site.
block_of() {
	q "$1" "SELECT ifnull(t.type, 'untyped') || '|' || ifnull(t.elements, '-') || '|'
		|| t.blocks_voted || '|' || t.blocks_by_site || '|' || t.blocks_other
		FROM blocks b LEFT JOIN site_types t ON t.stack_id = b.alloc_stack_id
		WHERE b.size = $2 ORDER BY b.id LIMIT 1 OFFSET $(($3 - 1))"
}

# site_of DB SIZE NTH: "field:blocks:reads:writes ..." of the site_fields
# of that block's allocation site, in offset order.
site_of() {
	q "$1" "SELECT group_concat(ifnull(field, 'pad') || ':' || blocks || ':' || reads
		|| ':' || writes, ' ') FROM (SELECT * FROM site_fields WHERE stack_id =
		(SELECT alloc_stack_id FROM blocks WHERE size = $2 ORDER BY id
		 LIMIT 1 OFFSET $(($3 - 1))) ORDER BY offset)"
}

for o in O0 O2; do
	P=$DG_PROGS/pctype/fields-$o
	[ $o = O0 ] && via=tracked || via=register
	run_dg $o.log -- "$P" $N || continue
	import_ok $o.log $o.db || continue

	# ---- way 3
	check_eq "$o read_a: N reads of struct rec.a, via $via" \
		"struct rec|a|$via|0|$N" "$(fn_field $o.db read_a)"
	check_eq "$o write_b: N/2 + 1 writes of struct rec.b, via $via" \
		"struct rec|b|$via|1|$((HALF + 1))" "$(fn_field $o.db write_b)"
	check_eq "$o poke_void: no struct type (void *)" "" "$(fn_field $o.db poke_void)"
	check_eq "$o local_c: one write of a local struct rec.c (frame slot)" \
		"struct rec|c|stack|1|1" "$(fn_field $o.db local_c)"
	check_eq "$o: no instruction touches struct rec.c but sum_c's and local_c's" "" \
		"$(q $o.db "SELECT f.name FROM pc_types t JOIN pcs p ON p.pc = t.pc
			JOIN functions f ON f.id = p.function_id
			WHERE t.type = 'struct rec' AND t.field = 'c'
			AND f.name NOT IN ('sum_c', 'local_c')")"

	# ---- the same pcs, counted by lackey
	pcs=$(q $o.db "SELECT printf('%x', t.pc) FROM pc_types t JOIN pcs p ON p.pc = t.pc
		JOIN functions f ON f.id = p.function_id
		WHERE f.name IN ('read_a', 'write_b') AND t.type = 'struct rec'")
	if valgrind --tool=lackey --trace-mem=yes --log-file=$o.lackey "$P" $N >/dev/null 2>&1; then
		for pc in $pcs; do
			lo=$(printf '%d' "0x$pc")
			check_eq "$o pc $pc: sum_pc = lackey's count" \
				"$(per_pc_lackey $o.lackey "$lo" "$((lo + 1))" | awk '{ print $2 + $3 }')" \
				"$(q $o.db "SELECT sum(accesses) FROM sum_pc WHERE pc = $lo")"
		done
	else
		not_ok "$o: lackey runs"
	fi

	# ---- way 4
	check_eq "$o one's site: struct rec, 1 block typed by its votes" \
		"struct rec|1|1|0|0" "$(block_of $o.db 12 1)"
	check_eq "$o one's site: a: N reads, b: N/2 writes, c: none" \
		"a:1:$N:0 b:1:0:$HALF" "$(site_of $o.db 12 1)"
	check_eq "$o more's site: struct rec, 1 block by its votes, 2 by the site (void * only)" \
		"struct rec|1|1|2|0" "$(block_of $o.db 12 2)"
	check_eq "$o more's site is more[2]'s" "$(block_of $o.db 12 2)" "$(block_of $o.db 12 4)"
	check_eq "$o more's site: b: 16 writes in 3 blocks, a and c: none" \
		"b:3:0:16" "$(site_of $o.db 12 2)"
	arr=$(block_of $o.db 96 1)
	check_eq "$o arr's site: 8 struct recs a block" "struct rec|8|1|0|0" "$arr"
	check_eq "$o arr's site: a: 8 writes, c: 24 reads" \
		"a:1:0:8 c:1:24:0" "$(site_of $o.db 96 1)"
	check_eq "$o one's and arr's sites typed by allocation, more's by votes" \
		"alloc|struct rec|one alloc|struct rec|arr votes|struct rec|-" \
		"$(q $o.db "SELECT t.how || '|' || t.type || '|' || CASE
			WHEN t.evidence GLOB '* one at main+*' THEN 'one'
			WHEN t.evidence GLOB '* arr at main+*' THEN 'arr'
			ELSE ifnull(t.evidence, '-') END FROM site_types t
			WHERE t.stack_id IN (SELECT alloc_stack_id FROM blocks WHERE size IN (12, 96))
			ORDER BY t.how, t.evidence GLOB '* arr *'" | tr '\n' ' ' | sed 's/ $//')"
	# ---- per access, in sum_field: how 'alloc' (the block's site), 'insn'
	# (way 3), 'heap' (way 4, the accesses of untyped pcs: poke_void's 15
	# writes of b)
	want="a|alloc|$N|8 b|alloc|0|$HALF b|heap|0|15 b|insn|0|1 c|alloc|24|0 c|insn|0|1"
	check_eq "$o sum_field: struct rec by field and way" "$want" \
		"$(q $o.db "SELECT f.path || '|' || s.how || '|' || sum(s.reads) || '|' || sum(s.writes)
			FROM sum_field s JOIN types t ON t.id = s.type_id
			LEFT JOIN fields f ON f.id = s.field_id WHERE t.name = 'struct rec'
			GROUP BY f.path, s.how ORDER BY f.path, s.how" | tr '\n' ' ' | sed 's/ $//')"
	check_eq "$o: every pc_types row names a via" 0 \
		"$(q $o.db "SELECT count(*) FROM pc_types WHERE via NOT IN ('register', 'stack', 'tracked')")"
done

# ---- --no-fields: no field tables, the same counts everywhere else
if [ -f O2.db ]; then
	if "$DG_IMPORT" -q --no-fields O2.log nf.db >nf.out 2>nf.err; then
		ok "dg-import --no-fields exits 0"
		check_eq "--no-fields: no types, fields, pc_types, site_types or sum_field rows" "0|0|0|0|0" \
			"$(q nf.db "SELECT (SELECT count(*) FROM types) || '|' || (SELECT count(*) FROM fields)
				|| '|' || (SELECT count(*) FROM pc_types) || '|' || (SELECT count(*) FROM site_types)
				|| '|' || (SELECT count(*) FROM sum_field)")"
		check_eq "--no-fields: no fields_* or heap_accesses* meta" 0 \
			"$(q nf.db "SELECT count(*) FROM meta WHERE key LIKE 'fields%' OR key LIKE 'heap_accesses%'")"
		sp="SELECT pc, module_id, is_write, accesses FROM sum_pc ORDER BY 1, 2, 3"
		check_eq "--no-fields: sum_pc as with fields" "$(q O2.db "$sp" | cksum)" \
			"$(q nf.db "$sp" | cksum)"
		check_gt "--no-fields: sum_pc has rows" 0 "$(q nf.db "SELECT count(*) FROM sum_pc")"
	else
		not_ok "dg-import --no-fields exits 0"
		diag_file nf.err 10
	fi
fi

finish
