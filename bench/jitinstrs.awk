# bench/jitinstrs.awk: host instructions of Valgrind's generated code, from
# a run with --profile-flags=00000001 --profile-interval=0 (stderr), e.g.
#
#   build/bin/datagrind --profile-flags=00000001 --profile-interval=0 \
#       sort -n numbers.txt 2>prof.txt >/dev/null
#   awk -f bench/jitinstrs.awk prof.txt
#
# Valgrind prints its 200 most used superblocks (over 99 % of the score on
# the programs of bench/real.sh) with their host code.  A superblock's
# score is its run count times a weight that follows its host code size
# (score / size of one superblock is the same, within 0.3 %, in builds
# that instrument it differently), so score / size (the VexExpansionRatio
# line) is its run count up to one constant factor.  Printed: the
# host instructions per superblock run, averaged over the runs so
# counted, of the whole superblock (the event check and the profile
# counter left out, an exit stub counted as one): what the generated
# code executes if no side exit is taken; and the total in the same
# relative unit.  A count, not a time, so the machine's load does not
# change it; compare builds, and --tool=none, on the same program and input.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
/begin SB rank/                  { want_score = 1; next }
/^ *[0-9]+: \([ 0-9]+/ && want_score { sub(/^.*%\) +/, ""); score = $1; want_score = 0 }
/Assembly ---/                   { in_asm = 1; n = 0; next }
in_asm && /^VexExpansionRatio/   { in_asm = 0; c = score / $3; runs += c; instrs += c * n; next }
in_asm && /^\((evCheck|profInc)\)/ { next }
in_asm && /^[0-9A-F][0-9A-F]( |$)/ { next }
in_asm && NF > 0                 { n++ }
END {
	if (runs == 0) { print "jitinstrs.awk: no profiled superblocks in the input" > "/dev/stderr"; exit 1 }
	printf "host instructions per superblock run %.2f  total (relative) %.4g\n", instrs / runs, instrs
}
