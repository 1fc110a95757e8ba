#!/bin/sh
# t0730-dlopen-remap: a library dlopen'ed, used, dlclose'd, and another
# dlopen'ed at the same address (tests/progs/sym/symprog with libsyma.so,
# then libsymb.so: one plugin built with N = 70 and N = 90, so plug's code
# is at the same address in both).  The log alone must tell them apart:
# walking its records in order (MMAP, MUNMAP, BBDEF, runs), each access of
# plug's code is credited to the plugin mapped when it was made.  At -O0
# plug(s) makes 2N + 3 writes (its frame pointer pushed, its argument
# spilled, i = 0, then N times s[i] and i++) and 5N + 3 reads (N times i
# twice, s, and i for i++; N + 1 loop tests; the frame pointer popped; the
# return address): 143 W 353 R under libsyma.so, 183 W 453 R under
# libsymb.so, and none while neither is mapped.
. "$DG_TESTS/lib.sh"
need_tool
SYM=$DG_PROGS/sym
for f in symprog libsyma.so libsymb.so libsymlib.so; do
	[ -f "$SYM/$f" ] || bail "$SYM/$f is built (make tests-progs)"
done
need_cmd nm

LD_LIBRARY_PATH=$SYM run_dg p.log -- "$SYM/symprog" "$SYM/libsyma.so" "$SYM/libsymb.so" ||
	finish
dump --records p.log rec || finish

range_a=$(sym_range "$SYM/libsyma.so" plug)
range_b=$(sym_range "$SYM/libsymb.so" plug)
check_eq "plug has the same ELF address and size in both plugins" "$range_a" "$range_b"

# One pass over the records: the plugins' mappings as they come and go; each
# bbdef's access pcs and directions; each run's accesses (address 0: a
# guarded access not made) credited to the plugin mapped at the pc then.
dgawk -v lo="${range_a% *}" -v hi="${range_a#* }" '
function kv(k,    i) {
	for (i = 2; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return ""
}
$1 == "mmap" && kv("path") ~ /\/libsym[ab]\.so"$/ {
	n++; ms[n] = hex(kv("start")); me[n] = ms[n] + kv("len")
	mb[n] = hex(kv("bias")); live[n] = 1
	mp[n] = kv("path"); sub(/"$/, "", mp[n]); sub(/.*\//, "", mp[n])
	if (mp[n] == "libsyma.so") maps_a++; else maps_b++
}
$1 == "munmap" {
	s = hex(kv("start")); e = s + kv("len")
	for (i = 1; i <= n; i++)
		if (live[i] && ms[i] >= s && me[i] <= e) live[i] = 0
}
$1 == "bbdef" {
	b = kv("index"); ni = split(kv("instrs"), ins, ",")
	for (i = 1; i <= ni; i++) { split(ins[i], x, "/"); ia[i - 1] = hex(x[1]) }
	na = split(kv("accesses"), acc, ",")
	for (i = 1; i <= na; i++) {
		d = substr(acc[i], 1, 1); q = acc[i]; sub(/.*@/, "", q)
		bpc[b, i - 1] = ia[q]; bdir[b, i - 1] = d
	}
}
$1 == "run" {
	b = kv("bbdef"); na = split(kv("addrs"), ad, ",")
	for (i = 1; i <= na; i++) {
		if (hex(ad[i]) == 0) continue
		pc = bpc[b, i - 1]; who = ""
		for (j = n; j >= 1 && who == ""; j--)
			if (live[j] && pc >= ms[j] && pc < me[j]) {
				who = mp[j]
				if (pc - mb[j] >= lo && pc - mb[j] < hi) c[who, bdir[b, i - 1]]++
			}
		if (who == "" && n && pc - mb[n] >= lo && pc - mb[n] < hi) orphan++
	}
}
END {
	printf "libsyma.so W %d R %d\n", c["libsyma.so", "W"], c["libsyma.so", "R"]
	printf "libsymb.so W %d R %d\n", c["libsymb.so", "W"], c["libsymb.so", "R"]
	printf "unmapped %d\nmapped %d %d\n", orphan, maps_a, maps_b
}' rec >counts

check_eq "libsyma.so's plug: 2*70+3 writes, 5*70+3 reads" "libsyma.so W 143 R 353" \
	"$(grep '^libsyma' counts)"
check_eq "libsymb.so's plug: 2*90+3 writes, 5*90+3 reads, at the same pcs" \
	"libsymb.so W 183 R 453" "$(grep '^libsymb' counts)"
check_eq "no access of plug's code while no plugin is mapped there" "unmapped 0" \
	"$(grep '^unmapped' counts)"
check_eq "both plugins have MMAP records" yes \
	"$(awk '/^mapped/ { print ($2 > 0 && $3 > 0) ? "yes" : "no" }' counts)"
starts=$(dgawk '$1 == "mmap" && /\/libsym[ab]\.so"$/ && / offset=0x0 / {
	sub(/.*start=/, ""); sub(/ .*/, ""); print }' rec | sort -u | wc -l)
check_eq "the two plugins were mapped at one address" 1 "$starts"
finish
