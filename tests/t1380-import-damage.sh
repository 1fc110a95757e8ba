#!/bin/sh
# t1380-import-damage: damaged logs are told apart from cut ones, located,
# and cost no memory (docs/FORMAT.md section 5, "Record sizes" and
# "Truncated or corrupt").  On the golden log tests/fixtures/writes-fill.dg,
# which ends with its FINI record:
#   - the length of its first BBRUNS raised by 0xeb0000 (under the type's
#     bound, past the end of the file): dg-import and dg-dump --check and
#     --stats exit 1 naming 'byte N: record #K (bbruns)' and 'corrupt'; no
#     database or temporary file; the same damage with the FINI cut off is a
#     truncation (exit 3), as is the damaged file read through a pipe
#   - that BBRUNS's type made 40 (an unknown type, skipped by length): the
#     FINI's totals disagree, exit 1 for dg-import, dg-dump --stats and
#     --check, naming the fini and the skipped record's byte
#   - a THREAD's type made 7 (reserved): exit 1 at that record
#   - that BBRUNS's type flipped to 241 (a one-byte type): exit 1, not 3
# and on handmade logs with one record claiming a huge length:
#   - 1 GiB - 16 bytes in front of 300 MB of (sparse) zeros: refused by the
#     type's bound, exit 1, peak RSS of dg-dump under 8 MB and of dg-import
#     under 40 MB (/usr/bin/time, Debian package time)
#   - 16 MiB - 16 bytes (under the bound) in front of 12 MB: truncated
#     (exit 3 for dg-import, 1 for dg-dump) with the file's size in the
#     message, dg-dump under 8 MB; with a FINI at the end: corrupt, exit 1
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_import
[ -x "$DG_DUMP" ] || bail "$DG_DUMP exists (run make)"
LOG=$DG_TESTS/fixtures/writes-fill.dg

# records LOG: one line per record after the header: OFFSET TYPE HDR LEN
# (a little-endian log; the header is 16 bytes)
records() {
	od -An -v -tu1 "$1" | awk '
		{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END {
			p = 16
			while (p < n) {
				t = b[p]
				if (t >= 128) { h = 1; l = 1 }
				else if (b[p + 1] == 255) {
					h = 10; l = 0
					for (k = 7; k >= 0; k--) l = l * 256 + b[p + 2 + k]
				} else { h = 2; l = b[p + 1] }
				print p, t, h, l
				p += h + l
			}
		}'
}
# setbyte IN OFFSET VALUE OUT: IN with the byte at OFFSET set to VALUE
setbyte() {
	head -c "$2" "$1" >"$4"
	printf "\\$(printf %o "$3")" >>"$4"
	tail -c +$(($2 + 2)) "$1" >>"$4"
}
no_tmp() { # no_tmp DESC DB
	ls "$2".tmp.* >tmpfiles 2>/dev/null
	check_empty "$1: no $2.tmp.* left" tmpfiles
}
has() { # has FILE TEXT: yes if FILE contains TEXT (fixed string)
	if grep -qF -- "$2" "$1"; then echo yes; else echo "no: $(head -c 300 "$1")"; fi
}
# damaged NAME LOG WHERE: dg-import, dg-import --check, dg-dump --check and
# --stats all exit 1 with WHERE (and corrupt) in the message; nothing written
damaged() {
	rm -f "$1.db"
	"$DG_IMPORT" -q "$2" "$1.db" >out 2>err
	check_eq "$1: dg-import exits 1" 1 "$?"
	check_eq "$1: dg-import names '$3'" yes "$(has err "$3")"
	check_eq "$1: dg-import says corrupt" yes "$(has err corrupt)"
	check_eq "$1: no database" no "$([ -e "$1.db" ] && echo yes || echo no)"
	no_tmp "$1" "$1.db"
	check_status "$1: dg-import --check exits 1" 1 "$DG_IMPORT" --check "$2"
	for m in --check --stats; do
		"$DG_DUMP" $m "$2" >out 2>err
		check_eq "$1: dg-dump $m exits 1" 1 "$?"
		check_eq "$1: dg-dump $m names '$3'" yes "$(has err "$3")"
	done
}

records "$LOG" >recs
check_eq "the record walk ends at the end of the log" "$(wc -c <"$LOG" | tr -d ' ')" \
	"$(tail -n 1 recs | awk '{ print $1 + $3 + $4 }')"
check_eq "the log ends with its FINI" 21 "$(tail -n 1 recs | awk '{ print $2 }')"
# the first BBRUNS: its offset, record number (the header is #0), length
set -- $(awk '$2 == 14 && $3 == 10 { print $1, NR, $4; exit }' recs)
BR=$1 BRN=$2 BRLEN=$3
check_gt "a BBRUNS record in long form" 0 "${BRLEN:-0}"

# ---- a damaged length
setbyte "$LOG" $((BR + 4)) 235 len.dg
damaged "length" len.dg "len.dg: byte $BR: record #$BRN (bbruns)"
check_eq "length: the message gives the claimed length" yes \
	"$(has err "needs $((BRLEN + 235 * 65536 + 10)) bytes")"
size=$(wc -c <len.dg | tr -d ' ')
head -c $((size - 42)) len.dg >lencut.dg
"$DG_IMPORT" -q lencut.dg lencut.db >out 2>err
check_eq "the same damage, FINI cut off: a truncation, exit 3" 3 "$?"
check_eq "... meta complete 0" 0 "$(meta lencut.db complete)"
check_eq "... incomplete_reason says truncated" yes \
	"$(meta lencut.db incomplete_reason | grep -q truncated && echo yes || echo no)"
cat len.dg | "$DG_IMPORT" -q - pipe.db >out 2>err
check_eq "the damaged log through a pipe (its end unseen): exit 3" 3 "$?"

# ---- a type made unknown: skipped by its length, the totals disagree
setbyte "$LOG" "$BR" 40 unk.dg
damaged "unknown type" unk.dg "(fini): fini counts"
check_eq "unknown type: the message names the skipped record" yes \
	"$(has err "of an unknown type, 40, is at byte $BR")"

# ---- a reserved type
set -- $(awk '$2 == 15 { print $1, NR; exit }' recs)
setbyte "$LOG" "$1" 7 res.dg
damaged "reserved type" res.dg "res.dg: byte $1: record #$2 (type 7)"

# ---- a type flipped to a one-byte type (xor 0xff)
setbyte "$LOG" "$BR" 241 flip.dg
"$DG_IMPORT" -q flip.dg flip.db >out 2>err
check_eq "type flipped to 241: dg-import exits 1" 1 "$?"
check_status "type flipped to 241: dg-dump --check exits 1" 1 "$DG_DUMP" --check flip.dg

# ---- huge lengths: no memory spent on them
# hdr FILE: a version 2 header, little-endian, 8-byte words
hdr() { printf '\000\016DATAGRIND1\000\002\000\010' >"$1"; }
# u64 V: V as 8 little-endian bytes
u64() {
	_v=$1 _i=0
	while [ $_i -lt 8 ]; do
		printf "\\$(printf %o $((_v % 256)))"
		_v=$((_v / 256)) _i=$((_i + 1))
	done
}
hdr huge.dg
{ printf '\016\377'; u64 $((1073741824 - 16)); } >>huge.dg
truncate -s 300M huge.dg
hdr big.dg
{ printf '\016\377'; u64 $((16777216 - 16)); } >>big.dg
truncate -s 12M big.dg
cp big.dg bigfini.dg
{ printf '\025\050'; u64 0; u64 0; u64 0; u64 2; u64 0; } >>bigfini.dg

"$DG_DUMP" --check huge.dg >out 2>err
check_eq "1 GiB claimed: dg-dump exits 1" 1 "$?"
check_eq "... the type's bound refuses it, located" yes \
	"$(has err "huge.dg: byte 16: record #1 (bbruns): corrupt: payload length 1073741808 is over the limit")"
"$DG_IMPORT" -q huge.dg huge.db >out 2>err
check_eq "1 GiB claimed: dg-import exits 1" 1 "$?"
check_eq "... located" yes "$(has err "huge.dg: byte 16: record #1 (bbruns)")"
"$DG_DUMP" --check big.dg >out 2>err
check_eq "16 MiB claimed in a 12 MB file without FINI: dg-dump exits 1" 1 "$?"
check_eq "... a truncation, with what the file holds" yes \
	"$(has err "big.dg: byte 16: record #1 (bbruns): truncated: the record needs 16777210 bytes, the file has 12582896 left")"
check_status "... dg-import exits 3" 3 "$DG_IMPORT" -q big.dg big.db
"$DG_DUMP" --check bigfini.dg >out 2>err
check_eq "the same with a FINI at the end: corrupt, dg-dump exits 1" yes "$(has err "corrupt")"
check_status "... dg-import exits 1" 1 "$DG_IMPORT" -q bigfini.dg bigfini.db

if [ -x /usr/bin/time ]; then
	# rss LIMIT_KB DESC CMD...: the command's peak RSS is below LIMIT_KB
	rss() {
		_lim=$1 _d=$2
		shift 2
		/usr/bin/time -f '%M' -o rss.out "$@" >/dev/null 2>&1
		check_lt "$_d: peak RSS under $_lim KB" "$_lim" "$(tail -n 1 rss.out)"
	}
	rss 8192 "1 GiB claimed, dg-dump --check" "$DG_DUMP" --check huge.dg
	rss 40960 "1 GiB claimed, dg-import" "$DG_IMPORT" -q -f huge.dg huge.db
	rss 8192 "16 MiB claimed in 12 MB, dg-dump --check" "$DG_DUMP" --check big.dg
	rss 40960 "16 MiB claimed in 12 MB, dg-import" "$DG_IMPORT" -q -f big.dg big.db
else
	ok "# skip peak RSS checks: no /usr/bin/time (Debian package time)"
fi
finish
