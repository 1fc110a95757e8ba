#!/bin/sh
# t1397-import-fields: fields of accesses (sum_field, types, fields,
# variables) against what tests/progs/fields.c provably does and against
# pahole.
#   - way 1 (a malloc'd array tracked as "struct item") and way 2 (the
#     global g_items) each give, for R = 3 rounds over 8 items, exactly:
#     a 24 R, b 24 W, pos.y 24 W, slots[].key 48 R, flags 24 R + 24 W (the
#     read-modify-write of its byte), all from `touch`; c, pos.x,
#     slots[].val, mode and name none;
#   - g_one.a 1 R and g_one.b 2 W (variable g_one), the static g_count 4 W;
#   - a type name no module defines: its 32 writes counted `unknown`, one
#     warning for the name although two ranges carry it;
#   - meta fields_range is the tracked accesses (168), and the fields_*
#     sum to the accesses;
#   - ranges.c's "int[64]" range: type int, its 96 R + 128 W as `range`,
#     the 64 W before TRACK_RANGE as `global` (variable arr);
#   - every field of struct item (nested struct, folded array of struct
#     slot, bit-fields), struct shared and struct padded (offset, size;
#     bit-fields offset:bit and width) equals what `pahole --expand_types`
#     prints (a type is in a database only if accesses were given it);
#   - `fields share`: .q false_sharing finds g_shared's line 0 with c0
#     written 1000 times by one thread and c1 by another; `fields padded`:
#     nothing (of the program's own types: ld.so's struct link_map is
#     written by both threads too);
#   - dgsql --ranges field:item.PATH selects exactly the accesses sum_field
#     counts for the field (a quote in it is data); --plot-fields draws a
#     PNG whose rows' reads and writes (--plot-data) are the fields'.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog fields
need_prog ranges
P=$DG_PROGS/fields
DGSQL=$DG_BUILD/bin/dgsql

run_dg f.log -- "$P" 3 || finish
import_ok f.log f.db || finish
DB=f.db

# "field how reads writes functions" of struct item, every field
per_field() {
	q $DB "SELECT f.path, '$1', coalesce(sum(s.reads), 0), coalesce(sum(s.writes), 0),
	              coalesce(group_concat(DISTINCT fn.name), '-')
	       FROM fields f JOIN types t ON t.id = f.type_id AND t.name = 'struct item'
	       LEFT JOIN sum_field s ON s.field_id = f.id AND s.how = '$1'
	       LEFT JOIN functions fn ON fn.id = s.function_id
	         AND (s.variable_id IS NULL OR s.variable_id IN
	              (SELECT id FROM variables WHERE name = 'g_items'))
	       WHERE s.variable_id IS NULL OR s.variable_id IN
	             (SELECT id FROM variables WHERE name = 'g_items')
	       GROUP BY f.id ORDER BY f.offset, f.id"
}
for how in range global; do
	check_eq "way $how: per-field counts of struct item" \
"a|$how|24|0|touch
b|$how|0|24|touch
c|$how|0|0|-
pos.x|$how|0|0|-
pos.y|$how|0|24|touch
slots[].key|$how|48|0|touch
slots[].val|$how|0|0|-
flags|$how|24|24|touch
mode|$how|0|0|-
name|$how|0|0|-" "$(per_field $how)"
done
check_eq "g_one: a 1 R, b 2 W from one_global" "a|1|0|one_global
b|0|2|one_global" "$(q $DB "SELECT f.path, sum(s.reads), sum(s.writes), fn.name
	FROM sum_field s JOIN variables v ON v.id = s.variable_id AND v.name = 'g_one'
	JOIN fields f ON f.id = s.field_id JOIN functions fn ON fn.id = s.function_id
	GROUP BY f.id ORDER BY f.offset")"
check_eq "g_count: 4 W, type long int" "long int|0|4" "$(q $DB "SELECT t.name, sum(s.reads), sum(s.writes)
	FROM sum_field s JOIN variables v ON v.id = s.variable_id AND v.name = 'g_count'
	JOIN types t ON t.id = s.type_id")"
g_count=$(sym_addr "$P" g_count)
check_eq "variables: g_count's address and size as nm says" "$g_count|8" \
	"$(q $DB "SELECT addr, size FROM variables WHERE name = 'g_count'")"
check_eq "unknown type: 32 W, no type, from bogus" "|0|32|bogus" \
	"$(q $DB "SELECT s.type_id, sum(s.reads), sum(s.writes), fn.name FROM sum_field s
	          JOIN functions fn ON fn.id = s.function_id WHERE s.how = 'unknown'")"
check_eq "one warning for the unknown name" 1 \
	"$(grep -c "TRACK_RANGE type 'struct no_such_type': its fields are unknown" import.err)"
check_eq "meta fields_range: every tracked access" 168 "$(meta $DB fields_range)"
check_eq "meta fields_*: they sum to the accesses" "$(meta $DB accesses)" \
	"$(q $DB "SELECT sum(value) FROM meta WHERE key LIKE 'fields_%'")"
check_eq "sum_field: rows as many as their distinct keys" \
	"$(q $DB 'SELECT count(*) FROM sum_field')" \
	"$(q $DB 'SELECT count(*) FROM (SELECT DISTINCT type_id, field_id, variable_id, function_id, thread, how FROM sum_field)')"

# dgsql: --ranges field:TYPE.PATH and --plot-fields against sum_field
for fp in b slots[].key flags a; do
	check_eq "--ranges field:item.$fp: the accesses sum_field gives it" \
		"$(q $DB "SELECT sum(s.reads) || '|' || sum(s.writes) FROM sum_field s JOIN fields f
			ON f.id = s.field_id JOIN types t ON t.id = f.type_id
			WHERE t.name = 'struct item' AND f.path = '$fp'")" \
		"$("$DGSQL" $DB --ranges "field:item.$fp" \
			"SELECT (count(*) - sum(is_write)) || '|' || sum(is_write) FROM filtered_accesses")"
done
check_eq "--ranges field:item.c: none" 0 \
	"$("$DGSQL" $DB --ranges 'field:item.c' 'SELECT count(*) FROM filtered_accesses')"
"$DGSQL" $DB --ranges "field:x'); DROP TABLE meta; --.a" 'SELECT 1' >/dev/null 2>&1
check_eq "--ranges field: with quotes in it is data, not SQL" 1 \
	"$(q $DB "SELECT count(*) FROM sqlite_schema WHERE name = 'meta'")"
check_status "--ranges field:item (no path): usage error" 2 "$DGSQL" $DB --ranges field:item 'SELECT 1'
if "$DGSQL" $DB --plot-fields 'struct item' fields.png --plot-data fields.txt 2>plot.err; then
	ok "--plot-fields struct item fields.png"
	check_eq "--plot-fields: each row's reads and writes are its field's in sum_field" \
		"$(q $DB "SELECT sum(s.reads) || ' ' || sum(s.writes) FROM fields f JOIN types t
			ON t.id = f.type_id AND t.name = 'struct item' JOIN sum_field s ON s.field_id = f.id
			GROUP BY f.id ORDER BY f.offset, f.id")" \
		"$(awk '!/^#/ { r[$1] += $3; w[$1] += $4; if (!($1 in seen)) { seen[$1]; o[++n] = $1 } }
			END { for (i = 1; i <= n; i++) print r[o[i]], w[o[i]] }' fields.txt)"
	check_eq "--plot-fields: a PNG" PNG "$(head -c 4 fields.png | tail -c 3)"
else
	not_ok "--plot-fields struct item fields.png"
	diag_file plot.err 5
fi
check_status "--plot-fields of a type not in the trace: exit 1" 1 "$DGSQL" $DB --plot-fields nosuch x.png

# ranges.c: a range typed "int[64]" over the global arr
run_dg r.log -- "$DG_PROGS/ranges" || finish
import_ok r.log r.db || finish
check_eq "ranges.c: int[64] range 96 R + 128 W, global arr 64 W before" "global|int|arr|0|64
range|int||96|128" "$(q r.db "SELECT s.how, t.name, coalesce(v.name, ''), sum(s.reads), sum(s.writes)
	FROM sum_field s JOIN types t ON t.id = s.type_id LEFT JOIN variables v ON v.id = s.variable_id
	WHERE s.how = 'range' OR v.name = 'arr' GROUP BY 1, 2, 3 ORDER BY 1")"

# false sharing: two threads writing c0 and c1 of one line, then padded
run_dg s.log -- "$P" share || finish
import_ok s.log s.db || finish
run_dg p.log -- "$P" padded || finish
import_ok p.log p.db || finish
# The program's own types: ways 3 and 4 also type the dynamic linker's
# struct link_map, whose lines both threads write (thread start-up).
OURS='($1 == "struct shared" || $1 == "struct padded")'
check_eq "false_sharing: g_shared line 0, c0 and c1 written by two threads" \
	"struct shared|g_shared|0|c0|1000
struct shared|g_shared|0|c1|1000" \
	"$("$DGSQL" s.db '.q false_sharing' | awk -F'|' "$OURS"' && $7 > 0 { print $1 "|" $2 "|" $3 "|" $4 "|" $7 }')"
check_eq "false_sharing: two writer threads" 2 \
	"$("$DGSQL" s.db '.q false_sharing' | awk -F'|' "$OURS"' && $7 > 0 { print $5 }' | sort -u | wc -l)"
check_eq "false_sharing: the padded version has none" "" \
	"$("$DGSQL" p.db '.q false_sharing' | awk -F'|' "$OURS")"
check_eq "padded: c0 and c1 still written 1000 times each" "c0|1000
c1|1000" "$(q p.db "SELECT f.path, sum(s.writes) FROM sum_field s JOIN fields f ON f.id = s.field_id
	JOIN types t ON t.id = s.type_id AND t.name = 'struct padded' GROUP BY f.id ORDER BY f.offset")"

# layouts against pahole: "path offset size", bit-fields "path offset:bit width"
if command -v pahole >/dev/null 2>&1; then
	for tydb in item:f.db shared:s.db padded:p.db; do
		ty=${tydb%%:*}
		pahole --expand_types -C "$ty" "$P" >pahole.$ty 2>&1
		awk '
			# leaf: "TYPE NAME;  /* OFF SIZE */" or "TYPE NAME:W; /* OFF: BIT SIZE */"
			/^[ \t]*(struct|union)[^;]*\{[ \t]*$/ { start[++d] = n; next }
			/^[ \t]+\}[ \t]*[A-Za-z_]/ {
				nm = $2; sub(/;.*/, "", nm); arr = (nm ~ /\[/); sub(/\[.*/, "", nm)
				for (i = start[d] + 1; i <= n; i++) path[i] = nm (arr ? "[]" : "") "." path[i]
				d--; next
			}
			/\/\*/ && /;/ && d >= 0 && !/^[ \t]*\/\*/ {
				decl = $0; sub(/;.*/, "", decl); nf = split(decl, w, /[ \t]+/); nm = w[nf]
				bits = ""; if (nm ~ /:/) { bits = nm; sub(/.*:/, "", bits); sub(/:.*/, "", nm) }
				sub(/^\*+/, "", nm); sub(/\[.*/, "", nm)
				c = $0; sub(/.*\/\*[ \t]*/, "", c); sub(/[ \t]*\*\/.*/, "", c)
				if (bits != "") { split(c, x, /[: \t]+/); pos = x[1] ":" x[2]; sz = bits }
				else { split(c, x, /[ \t]+/); pos = x[1]; sz = x[2] }
				path[++n] = nm; val[n] = pos " " sz
			}
			/^struct .*\{$/ { d = 0 }
			END { for (i = 1; i <= n; i++) print path[i], val[i] }' pahole.$ty | sort >want.$ty
		q "${tydb#*:}" "SELECT f.path, CASE WHEN f.bit_size IS NULL THEN f.offset || ' ' || f.size
		              ELSE f.offset || ':' || f.bit_offset || ' ' || f.bit_size END
		       FROM fields f JOIN types t ON t.id = f.type_id WHERE t.name = 'struct $ty'" |
			tr '|' ' ' | sort >got.$ty
		check_cmp "struct $ty: fields as pahole lays them out" want.$ty got.$ty
	done
else
	diag "pahole (Debian package dwarves) not installed: layouts not compared"
fi

finish
