#!/bin/sh
# t1600-sym-stripped: symbols of stripped binaries, as distributions ship
# them (tests/progs/sym: a PIE, a shared library, two plugins).  With
# nothing else, code no symbol names is named by its function's entry
# address, the ELF address nm gives ("0x1189"), with exactly the accesses
# the DWARF-named function has when --debug-dir gives the split-off debug
# files; PLT stubs are "name@plt"; no code of the program or its library is
# left unnamed; dgsql's fn: filter selects an address-named function and
# globs; modules say where their names came from.  Two plugins dlopen'ed in
# turn at the same address are each named by the one mapped at the time.
# A truncated library and a vanished one give warnings naming them, and
# the import goes on.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-sym.sh"
need_tool
sym_setup
sym_trace s.log || finish

sym_import s.log none.db
sym_import s.log dbg.db --debug-dir "$PWD/debug"

# --- names: entry addresses without debug info, exact counts
for pair in symprog:prog_fill symprog:prog_sum symprog:main libsymlib.so:lib_fill; do
	file=${pair%%:*}
	fn=${pair#*:}
	addr=$(nm_addr "$file" "$fn")
	want=$(fn_acc dbg.db "$file" "$fn")
	check_gt "$file: $fn has accesses with its debug file" 0 "$want"
	check_eq "$file: $fn is named $addr without it, with the same accesses" \
		"$want" "$(fn_acc none.db "$file" "$addr")"
	check_eq "$file: $addr is an entry-address name" entry \
		"$(sqlite3 none.db "SELECT DISTINCT origin FROM functions WHERE name = '$addr'")"
done
check_eq "symprog: prog_fill's accesses are its 300 writes and loop counter" 1 \
	"$(sqlite3 dbg.db "SELECT sum(s.accesses) >= 300 FROM sum_pc s JOIN pcs p USING (pc, module_id)
	   JOIN functions f ON f.id = p.function_id WHERE f.name = 'prog_fill' AND s.is_write")"
for fn in lib_sum lib_touch; do
	check_eq "libsymlib.so: $fn named by .dynsym without debug info, same accesses" \
		"$(fn_acc dbg.db libsymlib.so $fn)" "$(fn_acc none.db libsymlib.so $fn)"
done
check_gt "symprog: lib_sum@plt (its GOT read) is named" 0 "$(fn_acc none.db symprog lib_sum@plt)"
# symprog calls 6 functions through its PLT (printf, lib_touch, lib_sum,
# dlopen, dlsym, dlclose), each bound lazily at its first call through the
# PLT header: push GOT[1] (a read and a write), jmp *GOT[2] (a read)
for db in none.db dbg.db; do
	check_eq "$db: symprog's PLT header is PLT0@symprog: 6 bindings, 2 reads and a write each" \
		"12|6" "$(sqlite3 $db "SELECT sum(s.accesses * (1 - s.is_write)) || '|' ||
		   sum(s.accesses * s.is_write) FROM sum_pc s JOIN pcs p USING (pc, module_id)
		   JOIN functions f ON f.id = p.function_id JOIN modules m ON m.id = s.module_id
		   WHERE f.name = 'PLT0@symprog' AND m.path LIKE '%/symprog'")"
done
check_eq "no code of symprog or libsymlib.so is unnamed" 0 \
	"$(sqlite3 none.db "SELECT count(*) FROM pcs p JOIN modules m ON m.id = p.module_id
	   WHERE p.function_id IS NULL AND (m.path LIKE '%/symprog' OR m.path LIKE '%/libsymlib.so')")"
check_eq "every access of the run is counted in both imports" \
	"$(sqlite3 dbg.db 'SELECT sum(accesses) FROM sum_pc')" \
	"$(sqlite3 none.db 'SELECT sum(accesses) FROM sum_pc')"

# --- filters and queries with address names
addr=$(nm_addr symprog prog_fill)
check_eq "dgsql fn:$addr selects prog_fill's accesses" "$(fn_acc dbg.db symprog prog_fill)" \
	"$("$DGSQL" none.db --events "fn:$addr" 'SELECT count(*) FROM filtered_accesses' 2>&1)"
check_eq "dgsql fn:0x* (a glob) selects the accesses of every address-named function" \
	"$(sqlite3 none.db "SELECT sum(s.accesses) FROM sum_pc s JOIN pcs p USING (pc, module_id)
	   JOIN functions f ON f.id = p.function_id WHERE f.name GLOB '0x*'")" \
	"$("$DGSQL" none.db --events 'fn:0x*' "SELECT count(*) FROM filtered_accesses WHERE (pc, module_id) IN
	   (SELECT p.pc, p.module_id FROM pcs p JOIN functions f ON f.id = p.function_id WHERE f.name GLOB '0x*')" 2>&1)"
check_eq ".q by_function lists $addr with symprog" 1 \
	"$("$DGSQL" none.db '.q by_function' 2>&1 | grep -c "^$addr|.*/symprog")"

# --- where names came from
check_eq "modules: symprog's names from .dynsym and entry addresses, with advice" \
	".dynsym, entry addresses|1" \
	"$(sqlite3 none.db "SELECT symbols_from, advice LIKE '%dbgsym%DEBUGINFOD_URLS%' FROM modules WHERE path LIKE '%/symprog'")"
check_eq "modules: with --debug-dir, DWARF from debug/symprog.debug" \
	"DWARF: $PWD/debug/symprog.debug (from a debug directory)|" \
	"$(sqlite3 dbg.db "SELECT symbols_from, advice FROM modules WHERE path LIKE '%/symprog'")"
check_eq "dg-import says where each module's names came from" 2 \
	"$(grep -c -E "symbols of .*/bin/(symprog|libsymlib.so): \.dynsym, entry addresses$" none.db.err)"
"$DGSQL" none.db .modules >modules.out 2>&1
check_eq "dgsql .modules: symprog's accesses, all named by symbol table or entry" 1 \
	"$(awk -F'|' '$1 ~ /\/symprog$/ && $2 > 0 && $2 == $4 + $5 && $3 == 0' modules.out | wc -l)"
check_eq "dgsql .stats: a symbols line" 1 \
	"$("$DGSQL" none.db .stats 2>&1 | grep -c '^symbols: .*% debug info, .*% symbol table, .*% entry address')"

# --- modules that come and go at one address
check_eq "libsyma.so and libsymb.so were mapped at the same address" 1 \
	"$(sqlite3 none.db "SELECT count(DISTINCT p.start) FROM mappings p JOIN modules m
	   ON m.id = p.module_id WHERE p.offset = 0 AND (m.path LIKE '%/libsyma.so' OR m.path LIKE '%/libsymb.so')")"
# plug's writes at -O0: its argument spilled, i = 0, then N times s[i] and
# i++, and its frame pointer pushed: 3 + 2N; sum_fn_block counts each access under the module mapped then
for db in none.db dbg.db; do
	for x in a:70 b:90; do
		check_eq "$db: plug of libsym${x%:*}.so made its own writes" $((3 + 2 * ${x#*:})) \
			"$(sqlite3 -cmd ".load $DG_BUILD/lib/dgaccess.so" $db "SELECT sum(b.accesses) FROM sum_fn_block b
			   JOIN functions f ON f.id = b.function_id JOIN modules m ON m.id = f.module_id
			   WHERE f.name = 'plug' AND b.is_write AND m.path LIKE '%/libsym${x%:*}.so'")"
	done
done

# Every reader of code addresses keys them by (pc, module_id), so each plugin
# keeps its own accesses at the shared pcs.  plug also makes 5N + 3 reads (N
# times i twice, s and i for i++; N + 1 loop tests; the frame pointer
# popped; the return address).  Keyed by pc alone (schema 5), pcs had one
# row there, libsyma.so's, and libsymb.so had no plug in by_function.
check_gt "pcs: plug's pcs have a row for each plugin" 0 \
	"$(sqlite3 none.db "SELECT count(*) FROM (SELECT pc FROM pcs GROUP BY pc
	   HAVING count(DISTINCT module_id) = 2)")"
for db in none.db dbg.db; do
	"$DGSQL" $db '.q by_function 1000' >$db.byfn 2>&1
	"$DGSQL" $db --events fn:plug '.q by_function 1000' >$db.byfn-plug 2>&1
	for x in a:70 b:90; do
		lib=libsym${x%:*}.so
		n=${x#*:}
		want="$((5 * n + 3))|$((2 * n + 3))"
		check_eq "$db: .q by_function: plug of $lib, its own reads|writes" "$want" \
			"$(awk -F'|' -v m="$PWD/bin/$lib" '$1 == "plug" && $5 == m { print $2 "|" $3 }' $db.byfn)"
		check_eq "$db: .q by_function under fn:plug (filtered_sum): plug of $lib" "$want" \
			"$(awk -F'|' -v m="$PWD/bin/$lib" '$1 == "plug" && $5 == m { print $2 "|" $3 }' $db.byfn-plug)"
		check_eq "$db: sum_pc joined on (pc, module_id): plug of $lib" "$want" \
			"$(sqlite3 $db "SELECT sum(s.accesses * (1 - s.is_write)) || '|' ||
			   sum(s.accesses * s.is_write) FROM sum_pc s JOIN pcs p USING (pc, module_id)
			   JOIN functions f ON f.id = p.function_id JOIN modules m ON m.id = s.module_id
			   WHERE f.name = 'plug' AND m.path LIKE '%/$lib'")"
		check_eq "$db: fn:plug decoded, by the accesses' module_id: $lib" "$want" \
			"$("$DGSQL" $db --events fn:plug "SELECT sum(NOT is_write) || '|' || sum(is_write)
			   FROM filtered_accesses a JOIN modules m ON m.id = a.module_id
			   WHERE m.path LIKE '%/$lib'" 2>&1)"
	done
	check_eq "$db: fn:plug selects both plugins' plug and nothing else" $((7 * 160 + 12)) \
		"$("$DGSQL" $db --events fn:plug 'SELECT count(*) FROM filtered_accesses' 2>&1)"
	# the module of each access against the mappings alone: the one mapped
	# over its pc at its icount
	check_eq "$db: every access's module_id is the module mapped at its pc at its icount" 0 \
		"$("$DGSQL" $db "SELECT count(*) FROM accesses a WHERE a.module_id IS NOT
		   coalesce((SELECT mp.module_id FROM mappings mp WHERE a.pc >= mp.start
		   AND a.pc < mp.end AND a.icount >= mp.map_icount AND (mp.unmap_icount IS NULL
		   OR a.icount < mp.unmap_icount) ORDER BY mp.id DESC LIMIT 1), 0)" 2>&1)"
done

# --- --no-system-debug: --debug-dir's directories alone.  symprog's debug
# file in the debuginfod cache (by build-id) or beside it (by debuglink) is
# found by default, and not with it; libc's from libc6-dbg likewise
id=$(readelf -n bin/symprog | sed -n 's/^ *Build ID: *//p')
mkdir -p "cache/$id" && cp debug/symprog.debug "cache/$id/debuginfo"
sym_import s.log cache.db
sym_import s.log own.db --no-system-debug
sym_import s.log owndir.db --no-system-debug --debug-dir "$PWD/debug"
rm -r "cache/$id"
# and beside the binary, through a .gnu_debuglink (the file's CRC checked)
objcopy --add-gnu-debuglink=debug/symprog.debug bin/symprog || bail "objcopy --add-gnu-debuglink"
cp debug/symprog.debug bin/symprog.debug
sym_import s.log beside.db
sym_import s.log beside-own.db --no-system-debug
rm bin/symprog.debug
from() {
	sqlite3 "$1" "SELECT symbols_from FROM modules WHERE path LIKE '%/$2'"
}
check_eq "by default symprog's DWARF comes from the debuginfod cache" \
	"DWARF: $PWD/cache/$id/debuginfo (from the debuginfod cache)" "$(from cache.db symprog)"
check_eq "--no-system-debug: not from the cache" ".dynsym, entry addresses" \
	"$(from own.db symprog)"
check_eq "--no-system-debug --debug-dir: from the directory" \
	"DWARF: $PWD/debug/symprog.debug (from a debug directory)" "$(from owndir.db symprog)"
check_eq "by default symprog's DWARF comes from beside it, by its debuglink" \
	"DWARF: $PWD/bin/symprog.debug (from a local debug file)" "$(from beside.db symprog)"
check_eq "--no-system-debug: not from beside it" ".dynsym, entry addresses" \
	"$(from beside-own.db symprog)"
check_eq "--no-system-debug: the accesses are the same" \
	"$(sqlite3 cache.db 'SELECT sum(accesses) FROM sum_pc')" \
	"$(sqlite3 own.db 'SELECT sum(accesses) FROM sum_pc')"
case $(from cache.db libc.so.6) in
*/usr/lib/debug/*)
	check_eq "--no-system-debug: libc's names not from /usr/lib/debug (libc6-dbg)" "" \
		"$(from own.db libc.so.6 | grep /usr/lib/debug)"
	;;
esac

# --- bad input: a truncated library, a vanished one
head -c 3000 full/libsymlib.so >bin/libsymlib.so
rm bin/libsyma.so
sym_import s.log bad.db
check_eq "a truncated library: a warning names it" 1 \
	"$(grep -c 'warning: .*/bin/libsymlib.so: ' bad.db.err)"
check_eq "a vanished library: a warning names it and says why" 1 \
	"$(grep -c 'warning: .*/bin/libsyma.so: No such file or directory' bad.db.err)"
check_eq "the program's names survive" "$(fn_acc none.db symprog "$addr")" \
	"$(fn_acc bad.db symprog "$addr")"
finish
