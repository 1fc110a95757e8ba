# lib-dgsql.sh: helpers for the dgsql scripts (tests/t15NN-dgsql-*.sh),
# sourced after lib.sh.
#
#   DGSQL              build/bin/dgsql
#   need_dgsql         dgsql exists (else a failure); dg-import exists (else
#                      a skip: the scripts need real trace databases)
#   trace_db DB PROG [ARGS...]
#                      traces build/tests/progs/PROG and imports the log
#                      into DB (and DB.log); a failed check (and 1) if
#                      either step fails.  Under tests/run.sh once a run:
#                      later calls with the same PROG and ARGS, from any
#                      script, copy the first one's DB and log
#   dq DB ARGS...      dgsql ARGS on DB, stderr to dq.err
#   png_info FILE      "WIDTH HEIGHT green red yellow" of a PNG: pixels that
#                      are exactly reads' (0,255,0), writes' (255,0,0), both
#                      (255,255,0) colour (python3 + zlib)
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

: "${DGSQL:=$DG_BUILD/bin/dgsql}"
: "${DG_IMPORT:=$DG_BUILD/bin/dg-import}"
export DGSQL DG_IMPORT

need_dgsql() {
	[ -x "$DGSQL" ] || bail "$DGSQL exists (run make)"
	[ -x "$DG_IMPORT" ] || skip "dg-import is not built yet"
}

trace_db() {
	_db=$1
	_p=$2
	shift 2
	need_prog "$_p"
	if shared_get "trace_db $_p $*" "$_db" "$_db.log"; then
		ok "$_p $*: traced and imported by another script this run"
		return 0
	fi
	if _trace_db "$_db" "$_p" "$@"; then
		shared_put "trace_db $_p $*" "$_db" "$_db.log"
		return 0
	fi
	shared_drop
	return 1
}

# _trace_db DB PROG [ARGS...]: trace_db without the sharing.
_trace_db() {
	_tdb=$1
	_tp=$2
	shift 2
	DG_NATIVE=no run_dg "$_tdb.log" -- "$DG_PROGS/$_tp" "$@" || return 1
	rm -f "$_tdb"
	if "$DG_IMPORT" -q "$_tdb.log" "$_tdb" >import.out 2>import.err; then
		return 0
	fi
	not_ok "dg-import $_tdb.log $_tdb exits 0"
	diag_file import.err 10
	return 1
}

dq() {
	_db=$1
	shift
	"$DGSQL" "$_db" "$@" 2>dq.err
}

png_info() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    print('not-a-png'); sys.exit(0)
pos, idat, hdr = 8, b'', None
while pos < len(data):
    n, t = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if t == b'IHDR': hdr = struct.unpack('>IIBBBBB', body)
    elif t == b'IDAT': idat += body
    pos += 12 + n
w, h, depth, ctype = hdr[0], hdr[1], hdr[2], hdr[3]
bpp = {2: 3, 6: 4}.get(ctype)
if depth != 8 or bpp is None:
    print(w, h, 'unsupported'); sys.exit(0)
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
count = {(0, 255, 0): 0, (255, 0, 0): 0, (255, 255, 0): 0}
i = 0
for y in range(h):
    f = raw[i]; row = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = row[x - bpp] if x >= bpp else 0
        b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: row[x] = (row[x] + a) & 255
        elif f == 2: row[x] = (row[x] + b) & 255
        elif f == 3: row[x] = (row[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            row[x] = (row[x] + pr) & 255
    for x in range(0, stride, bpp):
        k = (row[x], row[x + 1], row[x + 2])
        if k in count: count[k] += 1
    prev = row
print(w, h, count[(0, 255, 0)], count[(255, 0, 0)], count[(255, 255, 0)])
PY
}

# gdb_hits FUNC DB OPTIONS... : reads SQL statements, one a line, from
# standard input and runs dgsql OPTIONS DB SQL for each under one gdb with
# a breakpoint at FUNC; prints "OPTIONS SQL: N" a line (OPTIONS and its
# space left out when empty), N the times FUNC was entered before the
# breakpoint let go (1 if it ran at all: each run ends at the first).
# Loading dgsql's symbols once for every run is what makes it cheap.
gdb_hits() {
	_gf=$1 _gdb=$2
	shift 2
	_gopt="$*"
	echo "break $_gf" >gdb.cmd
	: >gdb.labels
	_gi=0
	while IFS= read -r _gq; do
		_gi=$((_gi + 1))
		# gdb hands run's arguments to the shell: quote the statement
		printf "echo @@%d\\\\n\nrun %s %s '%s'\n" "$_gi" "$_gopt" "$_gdb" \
			"$(printf '%s' "$_gq" | sed "s/'/'\\\\''/g")" >>gdb.cmd
		echo "${_gopt:+$_gopt }$_gq" >>gdb.labels
	done
	gdb -nx -batch -x gdb.cmd "$DGSQL" >gdb.out 2>&1
	awk -v f="$_gf" 'NR == FNR { label[NR] = $0; n = NR; next }
		/^@@[0-9]+$/ { i = substr($0, 3) + 0; next }
		$0 ~ "^Breakpoint 1, .*" f { hits[i]++ }
		END { for (k = 1; k <= n; k++) print label[k] ": " hits[k] + 0 }' \
		gdb.labels gdb.out
}
