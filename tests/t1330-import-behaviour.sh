#!/bin/sh
# t1330-import-behaviour: dg-import's contract as its --help states it, on
# the golden log tests/fixtures/writes-fill.dg and damaged copies of it.
#   - an existing database is refused without --force (exit 1, the file
#     untouched: same checksum); -f/--force replaces it
#   - a log cut at several byte offsets: exit 3, meta complete=0 and an
#     incomplete_reason, meta accesses = what dg-dump --stats decodes from
#     the same cut log; --strict: exit 1, no database, no DB.tmp.* left
#   - a log with one byte flipped inside a record (the cases dg-dump --check
#     rejects as malformed): exit 1, the message names the file, 'byte N'
#     and the record type exactly as dg-dump does, an existing database is
#     left unchanged, no temporary file is left
#   - LOG '-' reads standard input and gives the same database content
#   - --check: 0 good, 3 truncated, 1 corrupt, and writes nothing
#   - usage errors exit 2; --help and --version exit 0 and print to stdout
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_import
[ -x "$DG_DUMP" ] || bail "$DG_DUMP exists (run make)"
LOG=$DG_TESTS/fixtures/writes-fill.dg
LOG2=$DG_TESTS/fixtures/ranges-main.dg
SIZE=$(wc -c <"$LOG" | tr -d ' ')

no_tmp() { # no_tmp DESC DB: no DB.tmp.* beside DB
	ls "$2".tmp.* >tmpfiles 2>/dev/null
	check_empty "$1: no $2.tmp.* left" tmpfiles
}
# content DB: the database's content without the import's time and source
content() {
	sqlite3 -batch "$1" "SELECT key, value FROM meta WHERE key NOT IN ('import_time', 'source') ORDER BY key" \
		'SELECT * FROM blocks ORDER BY id' 'SELECT * FROM threads' 'SELECT * FROM sum_pc' \
		'SELECT id, thread, icount_lo, icount_hi, n_runs, n_accesses, hex(data) FROM chunks ORDER BY id' \
		'SELECT count(*) FROM functions' 'SELECT count(*) FROM pcs' 'SELECT * FROM sum_lines'
}

# ---- --force
import_ok "$LOG2" a.db || finish
sum0=$(cksum <a.db)
"$DG_IMPORT" -q "$LOG" a.db >out 2>err
check_eq "existing database without --force: exit 1" 1 "$?"
check_eq "... and the file is untouched (checksum)" "$sum0" "$(cksum <a.db)"
check_eq "... and the message names the database" yes "$(grep -q 'a\.db' err && echo yes || echo "no: $(cat err)")"
no_tmp "refused" a.db
check_status "with --force: exit 0" 0 "$DG_IMPORT" -q --force "$LOG" a.db
check_eq "... the database is replaced (meta source)" "$LOG" "$(meta a.db source)"
check_status "with -f: exit 0" 0 "$DG_IMPORT" -q -f "$LOG2" a.db
check_eq "... replaced again" "$LOG2" "$(meta a.db source)"
no_tmp "forced" a.db

# ---- truncated logs
"$DG_IMPORT" -q "$LOG" full.db >/dev/null 2>&1
full_acc=$(meta full.db accesses)
n_cut=0
for cut in 16 17 $((SIZE / 7)) $((SIZE / 3)) $((SIZE / 2)) $((SIZE * 3 / 4)) $((SIZE - 40)) $((SIZE - 1)); do
	head -c "$cut" "$LOG" >cut.dg
	n_cut=$((n_cut + 1))
	rm -f cut.db
	"$DG_IMPORT" -q cut.dg cut.db >out 2>err
	st=$?
	check_eq "cut at byte $cut: exit 3" 3 "$st" || diag_file err 3
	check_eq "cut at byte $cut: meta complete 0" 0 "$(meta cut.db complete)"
	r=$(meta cut.db incomplete_reason)
	check_eq "cut at byte $cut: incomplete_reason names the log and says truncated" yes \
		"$(case $r in *cut.dg*truncated*) echo yes ;; *) echo "no: $r" ;; esac)"
	"$DG_DUMP" --stats cut.dg >cut.stats 2>/dev/null
	check_eq "cut at byte $cut: meta accesses = what dg-dump decodes" \
		"$(stat_of cut.stats accesses)" "$(meta cut.db accesses)"
	"$DG_IMPORT" -q --strict cut.dg strict.db >out 2>err
	check_eq "cut at byte $cut: --strict exits 1" 1 "$?"
	check_eq "cut at byte $cut: --strict writes no database" no "$([ -e strict.db ] && echo yes || echo no)"
	no_tmp "cut at byte $cut, --strict" strict.db
	check_status "cut at byte $cut: --check exits 3" 3 "$DG_IMPORT" --check cut.dg
	[ "$cut" -eq $((SIZE / 2)) ] && half_acc=$(meta cut.db accesses)
done
check_lt "the log cut in half holds fewer accesses than the whole one" "$full_acc" "$half_acc"
check_eq "cut inside the header (10 bytes): exit 1, no database" "1 no" \
	"$(head -c 10 "$LOG" >hdr.dg; "$DG_IMPORT" -q hdr.dg hdr.db 2>/dev/null; echo "$? $([ -e hdr.db ] && echo yes || echo no)")"

# ---- corrupt logs: one byte flipped (xor 0xff)
flip() { # flip IN OFFSET OUT
	_b=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
	head -c "$2" "$1" >"$3"
	printf "\\$(printf %o $((_b ^ 255)))" >>"$3"
	tail -c +$(($2 + 2)) "$1" >>"$3"
}
n_bad=0
i=1
while [ $i -lt 20 ]; do
	off=$((SIZE * i / 20))
	i=$((i + 1))
	flip "$LOG" "$off" bad.dg
	[ "$(wc -c <bad.dg)" -eq "$SIZE" ] || { not_ok "flip at $off keeps the size"; continue; }
	"$DG_DUMP" --check bad.dg >/dev/null 2>dump.err && continue
	grep -q truncated dump.err && continue    # a length past the end, no FINI there: a truncation
	n_bad=$((n_bad + 1))
	where=$(sed -n 's/^dg-dump: bad\.dg: \(byte [0-9]*: record #[0-9]* ([a-z_]*)\).*/\1/p' dump.err)
	cp a.db keep.db
	sumk=$(cksum <keep.db)
	"$DG_IMPORT" -q --force bad.dg keep.db >out 2>err
	check_eq "flip at $off: exit 1" 1 "$?"
	check_eq "flip at $off: message 'bad.dg: $where' as dg-dump's" yes \
		"$([ -n "$where" ] && grep -q "bad\.dg: $where" err && echo yes || echo "no: $(head -c 300 err)")"
	check_eq "flip at $off: the existing database is unchanged (even with --force)" "$sumk" "$(cksum <keep.db)"
	no_tmp "flip at $off" keep.db
	check_status "flip at $off: --check exits 1" 1 "$DG_IMPORT" --check bad.dg
done
check_ge "at least 3 flipped logs were malformed for dg-dump" 3 "$n_bad"

# ---- standard input
"$DG_IMPORT" -q - stdin.db <"$LOG" >out 2>err
check_eq "dg-import - DB < LOG: exit 0" 0 "$?"
content full.db >full.content
content stdin.db >stdin.content
check_cmp "... same content as importing the file" full.content stdin.content
check_ge "... which is not empty" 10 "$(wc -l <full.content | tr -d ' ')"
head -c $((SIZE / 2)) "$LOG" | "$DG_IMPORT" -q - stdincut.db >out 2>err
check_eq "a truncated log on standard input: exit 3" 3 "$?"
check_eq "... complete 0" 0 "$(meta stdincut.db complete)"
check_status "--check - < LOG: 0" 0 sh -c '"$DG_IMPORT" --check - <"$1"' sh "$LOG"

# ---- --check
check_status "--check on the good log: exit 0" 0 "$DG_IMPORT" --check "$LOG"
: >after.ls
ls >before.ls
"$DG_IMPORT" --check "$LOG" >/dev/null 2>&1
ls >after.ls
check_cmp "--check writes no file" before.ls after.ls

# ---- usage
check_status "no arguments: exit 2" 2 "$DG_IMPORT"
check_status "one argument: exit 2" 2 "$DG_IMPORT" "$LOG"
check_status "three arguments: exit 2" 2 "$DG_IMPORT" "$LOG" x.db y.db
check_status "unknown option: exit 2" 2 "$DG_IMPORT" --no-such-option "$LOG" x.db
check_eq "usage errors write no database" no "$([ -e x.db ] && echo yes || echo no)"
"$DG_IMPORT" --help >help.out 2>help.err
check_eq "--help: exit 0" 0 "$?"
check_eq "--help: usage on stdout" yes "$(grep -q '^usage: dg-import' help.out && echo yes || echo no)"
"$DG_IMPORT" --version >ver.out 2>&1
check_eq "--version: exit 0" 0 "$?"
check_eq "--version: 'dg-import VERSION'" yes "$(grep -Eq '^dg-import [0-9]+\.[0-9]+' ver.out && echo yes || echo "no: $(cat ver.out)")"
check_status "missing log: exit 1" 1 "$DG_IMPORT" -q no-such.dg x.db
check_eq "missing log: no database" no "$([ -e x.db ] && echo yes || echo no)"
finish
