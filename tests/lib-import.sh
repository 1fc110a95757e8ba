# lib-import.sh: helpers for the dg-import scripts (tests/t13NN-import-*.sh),
# sourced after lib.sh.
#
#   DG_IMPORT          build/bin/dg-import
#   need_import        dg-import and the extension exist (a failure) and
#                      sqlite3 does (a skip)
#   import_ok LOG DB   dg-import -q LOG DB exits 0, else a failed check
#   q DB SQL...        sqlite3 -batch DB SQL (one value per line, '|' between),
#                      with the extension loaded (DG_EXT): the view
#                      sum_fn_block needs its dg_block_fns
#   meta DB KEY        the value of meta KEY ("missing" if absent)
#   acc_by_block ACC BLOCKS
#                      per heap block of dg-dump --blocks output, the
#                      accesses of dg-dump --accesses output that start inside
#                      it while it is live, as "N R|W ADDR SIZE" lines (N the
#                      block's line number in BLOCKS, from 1)
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

: "${DG_IMPORT:=$DG_BUILD/bin/dg-import}"
: "${DG_EXT:=$DG_BUILD/lib/dgaccess.so}"
export DG_IMPORT DG_EXT

need_import() {
	[ -x "$DG_IMPORT" ] || bail "$DG_IMPORT exists (run make)"
	[ -f "$DG_EXT" ] || bail "$DG_EXT exists (run make)"
	need_cmd sqlite3
}

import_ok() {
	if "$DG_IMPORT" -q "$1" "$2" >import.out 2>import.err; then
		ok "dg-import $1 $2 exits 0"
	else
		_st=$?
		not_ok "dg-import $1 $2 exits 0"
		diag "exit status $_st"
		diag_file import.err 10
		return 1
	fi
}

q() {
	_db=$1
	shift
	sqlite3 -batch -cmd ".load $DG_EXT" "$_db" "$@" 2>&1
}

meta() {
	_v=$(sqlite3 -batch "$1" "SELECT value FROM meta WHERE key = '$2'" 2>&1)
	[ -n "$_v" ] || _v=missing
	printf '%s\n' "$_v"
}

acc_by_block() {
	dgawk '
		FNR == NR {
			nb++; lo[nb] = hex($1); hi[nb] = lo[nb] + $2
			from[nb] = $3; to[nb] = ($4 == "-") ? -1 : $4 + 0
			next
		}
		{
			a = hex($6)
			for (b = 1; b <= nb; b++)
				if (a >= lo[b] && a < hi[b] && $2 >= from[b] && (to[b] < 0 || $2 < to[b]))
					print b, $4, a - lo[b], $5
		}' "$2" "$1"
}
