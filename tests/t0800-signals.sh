#!/bin/sh
# t0800-signals: signal handlers' accesses are traced and the program's
# behaviour is unchanged (tests/progs/signals.c: SIGUSR1 raised 7 times,
# SIGALRM sent 5 times; each handler reads and writes its counter once,
# main reads each counter twice at the end).
. "$DG_TESTS/lib.sh"
need_tool
need_prog signals
P=$DG_PROGS/signals

run_dg s.log -- "$P" || finish
check_eq "program output" "usr 7 alrm 5" "$(cat dg.out)"
dump --accesses s.log acc || finish
dump --stats s.log stats || finish
check_eq "log complete" 1 "$(stat_of stats complete)"

for v in usr:on_usr:7:9 alrm:on_alrm:5:7; do
	IFS=: read -r name handler nw nr <<EOT
$v
EOT
	a=$(sym_addr "$P" ${name}_hits)
	accesses_in acc "$a" $((a + 4)) >$name.acc
	check_eq "${name}_hits: $nw writes of 4 bytes" "$nw" "$(count_dir $name.acc W 4)"
	check_eq "${name}_hits: $nr reads of 4 bytes" "$nr" "$(count_dir $name.acc R 4)"
	check_eq "${name}_hits: no other access" $((nw + nr)) "$(wc -l <$name.acc | tr -d ' ')"
	h=$(sym_range "$P" $handler)
	awk '$4 == "W"' $name.acc >$name.w
	pcs_outside $name.w ${h% *} ${h#* } >$name.notfromhandler
	check_empty "${name}_hits: every write is made by $handler" $name.notfromhandler
done
finish
