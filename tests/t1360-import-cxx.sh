#!/bin/sh
# t1360-import-cxx: C++ programs imported with dg-import: function names are
# demangled and qualified.
#   tests/progs/cxxnames.cc: functions.name has dgt::Counter::bump(int*),
#   dgt::Counter::~Counter() and int dgt::total<int>(int const*, int) with
#   their linkage names, as c++filt gives them; bump wrote the 40-byte block
#   10 times (40 bytes), total read it 10 times; their pcs lie in the
#   functions nm gives.
#   tests/progs/cxx.cc: the 5 blocks allocated from main (24 33 64 77 200
#   bytes) and, for every function with a mangled linkage name, name is
#   c++filt's demangling of it.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_cmd c++filt
need_prog cxxnames
need_prog cxx
P=$DG_PROGS/cxxnames

run_dg n.log -- "$P" || finish
check_eq "program output" 45 "$(cat dg.out)"
import_ok n.log n.db || finish
DB=n.db
check_eq "meta complete" 1 "$(meta $DB complete)"
for f in 'dgt::Counter::bump(int*)|_ZN3dgt7Counter4bumpEPi' \
	'dgt::Counter::~Counter()|_ZN3dgt7CounterD2Ev' \
	'int dgt::total<int>(int const*, int)|_ZN3dgt5totalIiEET_PKS1_i'; do
	name=${f%|*}
	check_eq "functions: '$name' (once, with its linkage name, in the executable's module)" "$f|$P" \
		"$(q $DB "SELECT f.name, f.linkage_name, m.path FROM functions f JOIN modules m ON m.id = f.module_id WHERE f.name = '$name'")"
done
check_eq "c++filt agrees (bump)" 'dgt::Counter::bump(int*)' "$(echo _ZN3dgt7Counter4bumpEPi | c++filt)"
bid=$(q $DB "SELECT id FROM blocks WHERE size = 40")
check_eq "one 40-byte block" 1 "$(q $DB 'SELECT count(*) FROM blocks WHERE size = 40')"
check_eq "sum_fn_block: bump x block = 10 writes, 40 bytes" "1|10|40" \
	"$(q $DB "SELECT s.is_write, s.accesses, s.bytes FROM sum_fn_block s JOIN functions f ON f.id = s.function_id
	          WHERE f.name = 'dgt::Counter::bump(int*)' AND s.block_id = '$bid'")"
check_eq "sum_fn_block: total<int> x block = 10 reads, 40 bytes" "0|10|40" \
	"$(q $DB "SELECT s.is_write, s.accesses, s.bytes FROM sum_fn_block s JOIN functions f ON f.id = s.function_id
	          WHERE f.name = 'int dgt::total<int>(int const*, int)' AND s.block_id = '$bid'")"
check_eq "~Counter: no access in a heap block; one 4-byte write (n = 0) at one pc" "0|1" \
	"$(q $DB "SELECT count(*) FROM sum_fn_block s JOIN functions f ON f.id = s.function_id
	          WHERE f.name = 'dgt::Counter::~Counter()' AND s.block_id IS NOT NULL")|$(q $DB "SELECT count(*) FROM sum_pc s JOIN pcs p ON p.pc = s.pc AND p.module_id = s.module_id
	          JOIN functions f ON f.id = p.function_id WHERE f.name = 'dgt::Counter::~Counter()' AND s.is_write AND s.bytes = 4 AND s.accesses = 1")"
r=$(sym_range "$P" _ZN3dgt7Counter4bumpEPi)
check_eq "every pc symbolized to bump lies in bump (nm)" 0 \
	"$(q $DB "SELECT count(*) FROM pcs p JOIN functions f ON f.id = p.function_id
	          WHERE f.name = 'dgt::Counter::bump(int*)' AND (p.pc < ${r% *} OR p.pc >= ${r#* })")"
check_gt "... and there are such pcs" 0 \
	"$(q $DB "SELECT count(*) FROM pcs p JOIN functions f ON f.id = p.function_id WHERE f.name = 'dgt::Counter::bump(int*)'")"

# cxx.cc
X=$DG_PROGS/cxx
run_dg x.log -- "$X" 1 || finish
import_ok x.log x.db || finish
check_eq "cxx: blocks allocated from main: 24 33 64 77 200 bytes, all freed" "24 33 64 77 200|0" \
	"$(q x.db "SELECT group_concat(size, ' ') FROM (SELECT b.size FROM blocks b JOIN stack_frames sf ON sf.stack_id = b.alloc_stack_id AND sf.depth = 0
	             JOIN pcs p ON p.pc = sf.pc AND p.module_id = sf.module_id JOIN functions f ON f.id = p.function_id WHERE f.name = 'main' ORDER BY b.size)")|$(q x.db "SELECT count(*) FROM blocks b JOIN stack_frames sf ON sf.stack_id = b.alloc_stack_id AND sf.depth = 0
	             JOIN pcs p ON p.pc = sf.pc AND p.module_id = sf.module_id JOIN functions f ON f.id = p.function_id WHERE f.name = 'main' AND b.free_icount IS NULL")"
for db in n.db x.db; do
	q $db "SELECT linkage_name FROM functions WHERE linkage_name LIKE '\_Z%' ESCAPE '\\' ORDER BY id" >$db.mangled
	q $db "SELECT name FROM functions WHERE linkage_name LIKE '\_Z%' ESCAPE '\\' ORDER BY id" >$db.names
	c++filt <$db.mangled >$db.filt
	check_cmp "$db: every mangled function's name is c++filt's demangling" $db.filt $db.names
	check_eq "$db: no name left mangled" 0 "$(q $db "SELECT count(*) FROM functions WHERE name LIKE '\_Z%' ESCAPE '\\'")"
done
check_ge "cxxnames: at least the 3 dgt functions are mangled ones" 3 "$(wc -l <n.db.mangled | tr -d ' ')"
finish
