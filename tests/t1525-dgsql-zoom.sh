#!/bin/sh
# t1525-dgsql-zoom: --icount-range and --addr-range (the plot's zoom)
# narrow filtered_accesses for SQL and canned queries when there is no
# --plot or --report: every access with icount (addr) in [LO, HI), alone
# and under --events/--ranges, in SQL given as arguments and in a script
# whose .filter keeps them; dg_filtered() is 1 and no summary answers
# (dg_summed(), dg_windowed(), dg_paged() 0), so totals, by_thread,
# hot_pages and working_set equal the same aggregates decoded with the
# bounds written in SQL; with --plot, the arguments' SQL sees every
# access, as before.  On a single- and a multi-threaded trace.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
trace_db m.db mixed || finish
trace_db t.db threads || finish

for db in m.db t.db; do
	set -- $(dq $db "SELECT min(icount_lo), max(icount_hi) FROM chunks" | tr '|' ' ')
	LO=$(( $1 + ($2 - $1) / 3 )) HI=$(( $1 + 2 * ($2 - $1) / 3 ))
	IC="icount >= $LO AND icount < $HI"
	A=$(dq $db "SELECT addr FROM blocks ORDER BY reads + writes DESC LIMIT 1")
	AH=$(printf '0x%x:0x%x' "$A" $((A + 4096)))
	AD="addr >= $A AND addr < $((A + 4096))"
	n=$(dq $db "SELECT count(*) FROM accesses WHERE $IC")
	check_gt "$db: the window holds accesses" 0 "$n"
	check_gt "$db: and not all" "$n" "$(dq $db "SELECT count(*) FROM accesses")"
	check_eq "$db --icount-range: filtered_accesses = the window" "$n" \
		"$(dq $db --icount-range $LO:$HI "SELECT count(*) FROM filtered_accesses")"
	check_eq "$db --icount-range: a filter, no summary" "1|0|0|0" \
		"$(dq $db --icount-range $LO:$HI "SELECT dg_filtered(), dg_summed(), dg_windowed(), dg_paged()")"
	check_eq "$db --icount-range: totals = decoded" \
		"$(dq $db "SELECT count(*), sum(is_write = 0), sum(is_write), sum(size) FROM accesses WHERE $IC")" \
		"$(dq $db --icount-range $LO:$HI ".q totals")"
	check_eq "$db --icount-range: by_thread reads and writes = decoded" \
		"$(dq $db "SELECT thread, sum(is_write = 0), sum(is_write) FROM accesses WHERE $IC
		    GROUP BY thread ORDER BY 1")" \
		"$(dq $db --icount-range $LO:$HI ".q by_thread" | cut -d'|' -f1-3 | sort -n)"
	check_eq "$db --icount-range: hot_pages = decoded" \
		"$(dq $db "SELECT dg_hex(addr / 4096 * 4096), count(*) FROM accesses WHERE $IC
		    GROUP BY addr / 4096" | sort -t'|' -k2,2nr -k1,1)" \
		"$(dq $db --icount-range $LO:$HI ".q hot_pages 1000" | cut -d'|' -f1,2 | sort -t'|' -k2,2nr -k1,1)"
	check_eq "$db --icount-range: working_set = decoded" \
		"$(dq $db "SELECT icount / 100000 * 100000, count(*), count(DISTINCT addr / 64),
		    count(DISTINCT addr / 4096) FROM accesses WHERE $IC GROUP BY icount / 100000 ORDER BY 1")" \
		"$(dq $db --icount-range $LO:$HI ".q working_set")"
	check_eq "$db --addr-range: totals = decoded" \
		"$(dq $db "SELECT count(*), sum(is_write = 0), sum(is_write), sum(size) FROM accesses WHERE $AD")" \
		"$(dq $db --addr-range $AH ".q totals")"
	check_eq "$db both, with --ranges malloc: = decoded" \
		"$(dq $db --ranges malloc "SELECT count(*) FROM filtered_accesses WHERE $IC AND $AD")" \
		"$(dq $db --ranges malloc --icount-range $LO:$HI --addr-range $AH "SELECT count(*) FROM filtered_accesses")"
	check_eq "$db --icount-range with --events fn:main: = decoded" \
		"$(dq $db --events fn:main "SELECT count(*) FROM filtered_accesses WHERE $IC")" \
		"$(dq $db --events fn:main --icount-range $LO:$HI ".q totals" | cut -d'|' -f1)"
	printf '.filter --ranges malloc\nSELECT count(*) FROM filtered_accesses;\n.filter\n.filter off\nSELECT count(*) FROM filtered_accesses;\n.filter\n' >f.sql
	check_eq "$db: .filter in a script keeps the window, and shows it" \
		"$(dq $db --ranges malloc "SELECT count(*) FROM filtered_accesses WHERE $IC")
--ranges malloc --icount-range $LO:$HI
$n
--icount-range $LO:$HI" "$(dq $db --icount-range $LO:$HI <f.sql)"
	check_eq "$db: with --plot the SQL sees every access" \
		"$(dq $db "SELECT count(*) FROM accesses")" \
		"$(dq $db --icount-range $LO:$HI --plot z.png "SELECT count(*) FROM filtered_accesses")"
done
finish
