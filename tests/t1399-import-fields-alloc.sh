#!/bin/sh
# t1399-import-fields-alloc: heap blocks typed where they are allocated
# (issue 12: sum_field how 'alloc', site_types.how/evidence/base) and the
# type tracker's loops, against tests/progs/pctype/alloc.c at -O0, -O1,
# -O2 and -O3 and alloc_cxx.cc at -O0 and -O2 (each program's header says
# what it provably does).  Every level must give the -O0 counts, per
# function: gcc steps pointers round the loops from -O1 on, vectorizes
# fill at -O3 and turns none of it into something no variable names.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_import
need_dgsql
N=1000
HALF=$((N / 2))
LIST=50

# by_fn DB TYPE: "function|field|how|reads|writes" of TYPE, one a line,
# for the program's own functions (not libc's mem* and C++ runtime).
by_fn() {
	q "$1" "SELECT fn.name || '|' || ifnull(f.path, 'pad') || '|' || s.how || '|'
		|| sum(s.reads) || '|' || sum(s.writes)
		FROM sum_field s JOIN types t ON t.id = s.type_id
		LEFT JOIN fields f ON f.id = s.field_id JOIN functions fn ON fn.id = s.function_id
		WHERE t.name = '$2' AND fn.name IN ('fill', 'mark_odd', 'total', 'push', 'main',
			'set_pt', 'set_big', 'stock(Item*, int)', 'count(Item const*, int)')
		GROUP BY fn.name, f.path, s.how ORDER BY 1" | tr '\n' ' ' | sed 's/ $//'
}

# site DB SIZE [NTH]: "type|how|evidence's variable|base|elements" of the
# site of the NTH (1) block of SIZE bytes ("untyped" if its site has no row).
site() {
	q "$1" "SELECT ifnull(t.type || '|' || t.how || '|' || ifnull(
			CASE WHEN t.evidence GLOB 'variable * at *' OR t.evidence GLOB 'stored to local * at *'
			THEN rtrim(substr(t.evidence, 1, instr(t.evidence, ' at ') - 1), ' ')
			ELSE t.evidence END, '-') || '|' || t.base || '|' || ifnull(t.elements, '-'),
			'untyped')
		FROM blocks b LEFT JOIN site_types t ON t.stack_id = b.alloc_stack_id
		WHERE b.size = $2 ORDER BY b.id LIMIT 1 OFFSET $((${3:-1} - 1))" \
		| sed 's/|variable /|/; s/|stored to local /|/'
}

# bytes DB FUNCTION TYPE: "how|write bytes" of FUNCTION's writes of TYPE.
bytes() {
	q "$1" "SELECT s.how || '|' || sum(s.write_bytes) FROM sum_field s
		JOIN types t ON t.id = s.type_id JOIN functions fn ON fn.id = s.function_id
		WHERE t.name = '$3' AND fn.name = '$2' GROUP BY s.how ORDER BY 1" \
		| tr '\n' ' ' | sed 's/ $//'
}

want_acct="fill|balance|alloc|0|$N fill|id|alloc|0|$N main|next|alloc|$LIST|0"
want_acct="$want_acct mark_odd|flags|alloc|$HALF|$HALF push|id|alloc|0|$LIST"
want_acct="$want_acct push|next|alloc|0|$LIST total|balance|alloc|$N|0"
for o in O0 O1 O2 O3; do
	need_prog pctype/alloc-$o
	run_dg $o.log -- "$DG_PROGS/pctype/alloc-$o" $N || continue
	import_ok $o.log $o.db || continue
	check_eq "$o struct acct: the -O0 counts per function, all by allocation" \
		"$want_acct" "$(by_fn $o.db 'struct acct')"
	check_eq "$o the array's site: struct acct, by its variable a" \
		"struct acct|alloc|a|0|$N" "$(site $o.db $((N * 48)))"
	check_eq "$o copy's site: struct acct, by its variable copy" \
		"struct acct|alloc|copy|0|4" "$(site $o.db 192)"
	check_eq "$o a list node's site: struct acct, by push's node" \
		"struct acct|alloc|node|0|1" "$(site $o.db 48)"
	# copy: only memset, memcpy and memcmp touch it (no instruction of the
	# program types it): by allocation, each wide store counted in every
	# field it covers, so memset's writes land on all five
	check_eq "$o memset/memcpy's writes of struct acct: every field, all by allocation" \
		"balance|alloc flags|alloc id|alloc name|alloc next|alloc" \
		"$(q $o.db "SELECT DISTINCT f.path || '|' || s.how FROM sum_field s
			JOIN types t ON t.id = s.type_id JOIN fields f ON f.id = s.field_id
			JOIN functions fn ON fn.id = s.function_id
			WHERE t.name = 'struct acct' AND s.writes > 0 AND fn.name GLOB '*memset*'
			ORDER BY 1" | tr '\n' ' ' | sed 's/ $//')"
	check_eq "$o memset/memcpy's writes of struct acct: >= 384 bytes" 1 \
		"$(q $o.db "SELECT sum(s.write_bytes) >= 384 FROM sum_field s
			JOIN types t ON t.id = s.type_id JOIN functions fn ON fn.id = s.function_id
			WHERE t.name = 'struct acct' AND fn.name GLOB '*mem*'")"
	if "$DGSQL" $o.db -c ".q by_field acct" >$o.byf 2>$o.byf.err; then
		check_eq "$o .q by_field acct: balance by fill and total, by allocation; name not cold" \
			"balance alloc 1 name alloc 1" \
			"$(awk -F, '$1 == "balance" { print $1, $8, ($0 ~ /total 1000/ && $0 ~ /fill 1000/) }
				$1 == "name" { print $1, $8, $9 != "\"cold\"" }' $o.byf | tr '\n' ' ' | sed 's/ $//')"
	else
		not_ok "$o dgsql .q by_field acct runs"
		diag_file $o.byf.err 5
	fi
	# the wrapper: each typed one level up, by its caller's variable; the
	# void * buffer (the second 24-byte block) used as two types: untyped
	check_eq "$o xmalloc's struct pt: typed by main's p, not by the wrapper" \
		"struct pt|alloc|p|0|1" "$(site $o.db 8)"
	check_eq "$o xmalloc's struct big: typed by main's b" "struct big|alloc|b|0|1" \
		"$(site $o.db 24 1)"
	check_eq "$o the void * buffer used as two types: untyped" "untyped" "$(site $o.db 24 2)"
	# set_pt and set_big write p and b (typed by allocation) and buf (not:
	# its instructions' types alone); gcc -O2 makes set_pt's two int
	# stores one 8-byte store, so bytes, not accesses
	check_eq "$o set_pt: 8 bytes of p by allocation, 8 of buf by the instruction" \
		"alloc|8 insn|8" "$(bytes $o.db set_pt 'struct pt')"
	check_eq "$o set_big: 16 bytes of b by allocation, 16 of buf by the instruction" \
		"alloc|16 insn|16" "$(bytes $o.db set_big 'struct big')"
	# realloc: a generic grower (through a void **) says nothing; the new
	# block keeps the old one's type, so set_ys's writes are 'alloc'
	check_eq "$o pts' first block: struct pt, by its variable" "struct pt|alloc|pts|0|2" \
		"$(site $o.db 16)"
	check_eq "$o set_ys: 64 writes of y in the block realloc made, by allocation" \
		"alloc|64" \
		"$(q $o.db "SELECT s.how || '|' || sum(s.writes) FROM sum_field s
			JOIN types t ON t.id = s.type_id JOIN fields f ON f.id = s.field_id
			JOIN functions fn ON fn.id = s.function_id
			WHERE t.name = 'struct pt' AND f.path = 'y' AND fn.name = 'set_ys'
			GROUP BY s.how")"
	check_eq "$o: every site_types row says how, 'alloc' ones with evidence" 0 \
		"$(q $o.db "SELECT count(*) FROM site_types WHERE how NOT IN ('alloc', 'votes')
			OR (how = 'alloc') <> (evidence IS NOT NULL)")"
done

# ---- C++: new T[n] of a derived class (its elements after new[]'s count),
# containers' storage typed by the library's code
for o in O0 O2; do
	need_prog pctype/alloc_cxx-$o
	run_dg cxx$o.log -- "$DG_PROGS/pctype/alloc_cxx-$o" 100 || continue
	import_ok cxx$o.log cxx$o.db || continue
	check_eq "$o new Item[100]: struct Item from byte 8 (after the count), 100 elements" \
		"struct Item|alloc|8|100" \
		"$(q cxx$o.db "SELECT t.type || '|' || t.how || '|' || t.base || '|' || t.elements
			FROM blocks b JOIN site_types t ON t.stack_id = b.alloc_stack_id
			WHERE b.size = 8 + 100 * 32")"
	# main's delete[] reads each _vptr (the virtual destructor); its read
	# of new[]'s count, before the elements, has no field
	check_eq "$o struct Item: stock's, count's and delete[]'s accesses, by allocation" \
		"count(Item const*, int)|qty|alloc|100|0 main|Base::_vptr.Base|alloc|100|0 stock(Item*, int)|Base::id|alloc|0|100 stock(Item*, int)|qty|alloc|0|100" \
		"$(by_fn cxx$o.db 'struct Item')"
	check_eq "$o the constructors write _vptr, price and qty of each Item" \
		"Base::_vptr.Base|100 price|100 qty|100" \
		"$(q cxx$o.db "SELECT f.path || '|' || sum(s.writes) FROM sum_field s
			JOIN types t ON t.id = s.type_id JOIN fields f ON f.id = s.field_id
			JOIN functions fn ON fn.id = s.function_id
			WHERE t.name = 'struct Item' AND fn.name = 'Item::Item()' GROUP BY f.path
			ORDER BY 1" | tr '\n' ' ' | sed 's/ $//')"
	check_eq "$o the vector's storage is typed struct Rec by allocation" 1 \
		"$(q cxx$o.db "SELECT count(*) > 0 FROM site_types WHERE type = 'struct Rec'
			AND how = 'alloc'")"
	check_eq "$o the map's nodes are typed _Rb_tree_node" 1 \
		"$(q cxx$o.db "SELECT count(*) > 0 FROM site_types WHERE type GLOB '*_Rb_tree_node<*Rec*'")"
	# the node keeps its value as raw bytes (__aligned_buffer<pair<const
	# int, Rec>>): flattened as the pair, main's m[i] = Rec{...} writes a
	# and b of each, its loop reads each a
	check_eq "$o map nodes: main's accesses to the value's fields, through the raw storage" \
		"_M_storage.second.a|100|100 _M_storage.second.b|0|100" \
		"$(q cxx$o.db "SELECT substr(f.path, instr(f.path, '_M_storage.')) || '|' || sum(s.reads)
			|| '|' || sum(s.writes) FROM sum_field s JOIN types t ON t.id = s.type_id
			JOIN fields f ON f.id = s.field_id JOIN functions fn ON fn.id = s.function_id
			WHERE t.name GLOB '*_Rb_tree_node<*Rec*' AND f.path GLOB '*_M_storage.second.*'
			AND fn.name = 'main' GROUP BY f.path ORDER BY 1" | tr '\n' ' ' | sed 's/ $//')"
done

finish
