# lib-sym.sh: helpers for the symbol scripts (tests/t16NN-sym-*.sh), over the
# program and libraries of tests/progs/sym/ (see symprog.c for their work).
#
#   sym_setup          ./full/ the -g builds (for nm), ./debug/NAME.debug their
#                      debug info (objcopy --only-keep-debug), ./bin/ the same
#                      files stripped (strip keeps the build-id): what a
#                      distribution ships
#   sym_trace LOG      trace bin/symprog (it dlopens bin/libsyma.so, then
#                      bin/libsymb.so)
#   sym_import LOG DB [OPTIONS]   dg-import with no debuginfod and a private,
#                      empty cache and HOME; stderr in DB.err; fails the
#                      check if it does not exit 0
#   fn_acc DB FILE NAME   accesses by the function NAME of module */FILE
#   nm_addr FILE SYM   "0x..." the address of SYM in full/FILE, as nm says
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

SYM_SRC=$DG_BUILD/tests/progs/sym
: "${DG_IMPORT:=$DG_BUILD/bin/dg-import}"
: "${DGSQL:=$DG_BUILD/bin/dgsql}"

sym_setup() {
	for t in objcopy strip nm sqlite3; do
		command -v $t >/dev/null 2>&1 || skip "$t not installed"
	done
	[ -x "$DG_IMPORT" ] || bail "$DG_IMPORT exists (run make)"
	mkdir -p full debug bin cache home
	for f in symprog libsymlib.so libsyma.so libsymb.so; do
		[ -f "$SYM_SRC/$f" ] || bail "$SYM_SRC/$f is built (make tests-progs)"
		cp "$SYM_SRC/$f" full/ && cp "$SYM_SRC/$f" bin/ &&
			objcopy --only-keep-debug "full/$f" "debug/$f.debug" &&
			strip "bin/$f" || bail "split and strip $f"
	done
	check_eq "stripped files keep no .symtab and no DWARF" 0 \
		"$(for f in bin/*; do readelf -S "$f"; done | grep -c -E '\.symtab|\.debug_info')"
}

sym_trace() {
	LD_LIBRARY_PATH=$PWD/bin DG_NATIVE=no run_dg "$1" -- bin/symprog \
		"$PWD/bin/libsyma.so" "$PWD/bin/libsymb.so"
}

sym_import() {
	_log=$1
	_db=$2
	shift 2
	rm -f "$_db"
	if env -u DEBUGINFOD_URLS HOME="$PWD/home" XDG_CACHE_HOME="$PWD/home" \
		DEBUGINFOD_CACHE_PATH="$PWD/cache" \
		"$DG_IMPORT" "$@" "$_log" "$_db" >"$_db.out" 2>"$_db.err"; then
		ok "dg-import $* $_log $_db exits 0"
	else
		not_ok "dg-import $* $_log $_db exits 0"
		diag_file "$_db.err" 10
	fi
}

fn_acc() {
	sqlite3 -batch "$1" "SELECT coalesce(sum(s.accesses), 0) FROM sum_pc s
		JOIN pcs p ON p.pc = s.pc AND p.module_id = s.module_id JOIN functions f ON f.id = p.function_id
		JOIN modules m ON m.id = p.module_id
		WHERE f.name = '$3' AND m.path LIKE '%/$2'" 2>&1
}

nm_addr() {
	nm "full/$1" | awk -v s="$2" '$3 == s { sub(/^0+/, "", $1); print "0x" $1 }'
}
