# bench/gen.sh: seeded input generators shared by the benchmark scripts
# (sourced by bench/real.sh and bench/scale.sh), so every script and every
# machine traces the same work.  awk's rand() is the same for a given srand()
# within one awk build (mawk on Debian).
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

gen_text() {   # BYTES: English-like words, lines of 60-80 characters
	awk -v want="$1" 'BEGIN {
		srand(20261123)
		split("the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when if so no will can more other its some what them than into only could time these may first two any then new very like made over such our people also years way most well", w, " ")
		nw = 0; for (k in w) nw++
		n = 0; line = ""
		while (n < want) {
			word = w[int(rand() * nw) + 1]
			if (rand() < 0.05) word = word int(rand() * 10000)
			line = line word " "
			if (length(line) > 60 + int(rand() * 20)) { print line; n += length(line) + 1; line = "" }
		}
	}'
}

gen_sql_rows() {   # ROWS: one INSERT per row in a transaction, an index,
                   # GROUP BY, a self-join: a program that allocates per row
	awk -v n="$1" 'BEGIN {
		srand(20261124)
		print "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT);"
		print "BEGIN;"
		for (i = 1; i <= n; i++)
			printf "INSERT INTO t VALUES(%d, %d, %crow%08d%c);\n", i,
				int(rand() * 1000), 39, int(rand() * 100000), 39
		print "COMMIT;"
		print "CREATE INDEX t_a ON t(a);"
		print "SELECT a % 10, count(*), sum(length(b)) FROM t GROUP BY a % 10 ORDER BY 1;"
		print "SELECT count(*) FROM t x JOIN t y ON y.a = x.a AND y.id = x.id + 1;"
		print "SELECT count(DISTINCT b) FROM t;"
	}'
}
