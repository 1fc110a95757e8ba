#!/bin/sh
# t1370-import-compressed: dg-import reads LOG.gz (and .zst, .xz when those
# programs are installed) through the decompressor, to the same database
# contents as the plain log; a cut compressed log imports as truncated
# (exit 3); a file that is not compressed data is an error (exit 1).
. "$DG_TESTS/lib.sh"
need_cmd sqlite3
need_cmd gzip
IMP=$DG_BUILD/bin/dg-import
FX=$DG_TESTS/fixtures/ranges-main.dg
q() { sqlite3 "$1" "SELECT value FROM meta WHERE key = 'accesses';
	SELECT count(*) FROM blocks; SELECT sum(reads + writes) FROM sum_lines" | paste -sd ' ' -; }

check_status "plain log imports" 0 "$IMP" -q "$FX" plain.db
want=$(q plain.db)
gzip -c "$FX" >l.dg.gz
check_status ".gz imports" 0 "$IMP" -q l.dg.gz gz.db
check_eq ".gz: same contents as the plain log" "$want" "$(q gz.db)"
for z in zstd xz; do
	command -v $z >/dev/null 2>&1 || { ok "$z not installed: .$z not checked"; continue; }
	ext=$z; [ $z = zstd ] && ext=zst
	$z -q -c "$FX" >l.dg.$ext
	check_status ".$ext imports" 0 "$IMP" -q l.dg.$ext $ext.db
	check_eq ".$ext: same contents as the plain log" "$want" "$(q $ext.db)"
done
head -c "$(( $(wc -c <l.dg.gz) / 2 ))" l.dg.gz >cut.dg.gz
check_status "a cut .gz imports as truncated (exit 3)" 3 "$IMP" -q cut.dg.gz cut.db
check_eq "a cut .gz: meta complete 0" 0 \
	"$(sqlite3 cut.db "SELECT value FROM meta WHERE key = 'complete'")"
printf 'not gzip data' >bad.gz
check_status "a .gz that is not gzip data is an error (exit 1)" 1 "$IMP" -q bad.gz bad.db
check_eq "and no database was written" no "$([ -e bad.db ] && echo yes || echo no)"
finish
