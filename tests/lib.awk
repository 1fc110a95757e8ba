# lib.awk: awk helpers for the test scripts (used through dgawk in lib.sh).
# Works with mawk: no strtonum.  Doubles hold user-space addresses exactly
# (below 2^53).
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

# hex(S): the value of hexadecimal S (with or without 0x); -1 if S is not hex.
function hex(s,    i, n, d) {
	s = tolower(s)
	sub(/^0x/, "", s)
	if (s == "")
		return -1
	n = 0
	for (i = 1; i <= length(s); i++) {
		d = index("0123456789abcdef", substr(s, i, 1)) - 1
		if (d < 0)
			return -1
		n = n * 16 + d
	}
	return n
}
