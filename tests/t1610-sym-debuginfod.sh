#!/bin/sh
# t1610-sym-debuginfod: debug files served by a real debuginfod (Debian
# package debuginfod), started here on 127.0.0.1 with a free port over a
# directory of split-off debug files, after its scan has finished (its
# /metrics): with DEBUGINFOD_URLS and a private DEBUGINFOD_CACHE_PATH,
# dg-import downloads them (the cache fills) and names the stripped
# program's functions from DWARF; a second import needs no server (the
# cache).  A server that accepts and never answers: the import finishes,
# with a warning naming the module, and entry-address names.
# debuginfod has no option to listen on loopback only, so the whole script
# runs in a network namespace of its own (`unshare -n`, root) whose only
# device is loopback: there it cannot listen anywhere else.  Where no such
# namespace can be made, the script skips rather than open a port on the
# machine's interfaces.
if [ -z "${DG_NETNS:-}" ] && unshare -n true 2>/dev/null && command -v ip >/dev/null 2>&1; then
	DG_NETNS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
fi
. "$DG_TESTS/lib.sh"
[ -n "${DG_NETNS:-}" ] ||
	skip "no private network namespace (unshare -n and ip, as root): debuginfod would listen on every interface"
. "$DG_TESTS/lib-sym.sh"
need_tool
command -v debuginfod >/dev/null 2>&1 ||
	skip "debuginfod not installed and not installable here (scripts/install-deps.sh installs it)"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
sym_setup
sym_trace s.log || finish

PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done' EXIT INT TERM

# free_port: a port nothing listens on now (bound to 0, then released)
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# get URL: the body (bytes that are not text as \ escapes), or nothing
get() {
	python3 - "$1" <<'PY' 2>/dev/null
import sys, urllib.request
try:
    body = urllib.request.urlopen(sys.argv[1], timeout=5).read()
    print(body.decode(errors="backslashreplace"))
except Exception:
    pass
PY
}

# start debuginfod on the debug files; wait (bounded) for its scan to end
start_server() {
	PORT=$(free_port)
	debuginfod -p "$PORT" -F -t 0 -g 0 -c 1 -d "$PWD/dfd.sqlite" "$PWD/debug" \
		>debuginfod.log 2>&1 &
	PIDS="$PIDS $!"
	i=0
	while [ $i -lt 60 ]; do
		get "http://127.0.0.1:$PORT/metrics" >metrics.out
		if grep -q '^thread_work_total{role="traverse"} [1-9]' metrics.out &&
		   grep -q '^thread_work_pending{role="scan"} 0$' metrics.out &&
		   grep -q '^thread_busy{role="scan"} 0$' metrics.out &&
		   grep -q '^scanned_files_total{source="file"} [1-9]' metrics.out; then
			return 0
		fi
		sleep 0.5
		i=$((i + 1))
	done
	return 1
}

start_server || { diag_file debuginfod.log 10; bail "debuginfod started and scanned $PWD/debug"; }
ok "debuginfod on 127.0.0.1:$PORT scanned the debug files"
ID=$(readelf -n bin/symprog | awk '/Build ID/ { print $3 }')
check_eq "the server has symprog's debug file" 1 \
	"$(get "http://127.0.0.1:$PORT/buildid/$ID/debuginfo" | head -c 8 | grep -c 'ELF')"

# sym_import unsets DEBUGINFOD_URLS; this one sets it
import_url() {
	rm -f "$3"
	env HOME="$PWD/home" XDG_CACHE_HOME="$PWD/home" DEBUGINFOD_CACHE_PATH="$PWD/cache" \
		DEBUGINFOD_URLS="$1" DEBUGINFOD_TIMEOUT=2 DEBUGINFOD_RETRY_LIMIT=0 \
		timeout 120 "$DG_IMPORT" "$2" "$3" >"$3.out" 2>"$3.err"
	check_eq "dg-import with DEBUGINFOD_URLS=$1 exits 0" 0 "$?" || diag_file "$3.err" 10
}

import_url "http://127.0.0.1:$PORT" s.log d.db
check_eq "the debuginfod cache holds symprog's debug file" 1 \
	"$(ls cache/"$ID"/debuginfo 2>/dev/null | wc -l)"
check_eq "symprog: named from DWARF downloaded by debuginfod" \
	"DWARF: $PWD/cache/$ID/debuginfo (from debuginfod)" \
	"$(sqlite3 d.db "SELECT symbols_from FROM modules WHERE path LIKE '%/symprog'")"
for pair in symprog:prog_fill symprog:prog_sum libsymlib.so:lib_fill; do
	check_gt "${pair%%:*}: ${pair#*:} named, with accesses" 0 \
		"$(fn_acc d.db "${pair%%:*}" "${pair#*:}")"
done
check_eq "dg-import says so" 1 \
	"$(grep -c "symbols of .*/bin/symprog: DWARF: .*(from debuginfod)" d.db.err)"

sym_import s.log c.db
check_eq "without a server, the cache still names prog_fill" \
	"$(fn_acc d.db symprog prog_fill)" "$(fn_acc c.db symprog prog_fill)"

# a server that never answers
rm -rf cache && mkdir cache
python3 - >hang.port <<'PY' &
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(64)
print(s.getsockname()[1], flush=True)
held, end = [], time.time() + 120
s.settimeout(1)
while time.time() < end:
    try:
        held.append(s.accept()[0])
    except socket.timeout:
        pass
PY
PIDS="$PIDS $!"
i=0
while [ ! -s hang.port ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
import_url "http://127.0.0.1:$(cat hang.port)" s.log h.db
check_eq "a silent server: one module waited its 2 s, and it is named" 1 \
	"$(grep -c -E "warning: /[^:]*: debuginfod at http://127.0.0.1:[0-9]+: no answer within 2 s" h.db.err)"
check_eq "a silent server: a warning names symprog" 1 \
	"$(grep -c -E "warning: .*/bin/symprog: debuginfod at http://127.0.0.1:[0-9]+" h.db.err)"
check_eq "a silent server: every other stripped module is warned, not asked" 0 \
	"$(grep -E "symbols of .*/bin/" h.db.err | grep -v -c -E ': \.dynsym, entry addresses$')"
addr=$(nm_addr symprog prog_fill)
check_eq "a silent server: prog_fill is named $addr" "$(fn_acc d.db symprog prog_fill)" \
	"$(fn_acc h.db symprog "$addr")"
finish
