/* mklogs: write the sample logs of tests/unit/logs.c into a directory, for
 * the dg-dump checks of tests/t0100-reader-unit.sh and as the fuzz seed
 * corpus (tests/fuzz/corpus/).
 *
 *     mklogs DIR
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <string.h>

#include "dgwrite.h"
#include "logs.h"

static int save(struct dgwrite *w, const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (dgwrite_save(w, path) < 0) {
		perror(path);
		return -1;
	}
	return 0;
}

/* Close the runs, write FINI (at icount), save the log as name, free it. */
static int finish(struct dgwrite *w, uint64_t icount, const char *dir, const char *name)
{
	int rc;

	dgwrite_flush_runs(w);         /* so that n_records counts the runs */
	dgwrite_fini(w, icount, w->n_runs, w->n_accesses, w->n_records, 0);
	rc = save(w, dir, name);
	dgwrite_release(w);
	return rc;
}

/* A log with strided loops through a heap block, for --blocks and the
 * prediction; thread 1 then thread 2.  With chains, the runs go into
 * BBCHAINS records (heap-v2-chains.log), with heap records the block goes
 * into HEAP_MALLOC and HEAP_FREE (heap-v2-heaprec.log): the same log to
 * every reader. */
enum { HEAP_PLAIN, HEAP_CHAINS, HEAP_RECS };
static int heap_log(const char *dir, int form)
{
	static const char *const names[] = {
		"heap-v2.log", "heap-v2-chains.log", "heap-v2-heaprec.log",
	};
	static const struct dgwrite_instr in[2] = { { 0x401000, 4 }, { 0x401004, 3 } };
	static const struct dgwrite_access ac[2] = {
		{ DG_ACC_READ, 4, 0, 0 }, { DG_ACC_WRITE, 8, 1, DG_AF_GUARDED },
	};
	static const uint64_t ips[2] = { 0x400a00, 0x400b00 };
	struct dgwrite w;

	dgwrite_init(&w, 2, 0, 8);
	w.chains = form == HEAP_CHAINS;
	dgwrite_thread(&w, 1);
	dgwrite_bbdef(&w, 2, in, 2, ac, 0);
	dgwrite_context(&w, 0, 1, &(uint64_t){ 0x401000 });
	if (form == HEAP_RECS)          /* stacks 1 [0x400b00], 2 [0x400a00 1] */
		dgwrite_heap(&w, DG_R_HEAP_MALLOC, 0, DG_HEAP_NEW, 0, 2,
			     (uint64_t[]){ ips[0], ips[1] - ips[0] }, 0x5000, 40);
	else
		dgwrite_malloc(&w, 0x5000, 40, 2, ips);
	for (uint64_t k = 0; k < 10; k++) {
		uint64_t a[2] = { 0x5000 + 4 * k, k % 2 ? 0 : 0x6000 + 8 * k };
		dgwrite_run(&w, 0, 0, 2, 2, a);
	}
	if (form == HEAP_RECS)          /* the empty stack, the same address */
		dgwrite_heap(&w, DG_R_HEAP_FREE, 0, DG_HEAP_INDEX, 0, 0, NULL, 0, 0);
	else
		dgwrite_free(&w, 0x5000, 0, NULL);
	dgwrite_thread(&w, 2);
	dgwrite_run(&w, 0, 1, 1, 1, (uint64_t[]){ 0x5000 });
	return finish(&w, 21, dir, names[form]);
}

/* A block whose code is in two modules (/bin/true mapped at 0x400000,
   /bin/false at 0x401000): its read at 0x400ffc is /bin/true's, its write
   at 0x401000 /bin/false's, so each access's class adds its own module.
   Three runs: the read inside a 64-byte heap block at 0x5000, the write
   outside; the second run writes into the block too, the third reads
   0x9000 outside it (imp_win's classes of a mixed context, t1535). */
static int mixed_log(const char *dir)
{
	static const struct dgwrite_instr in[3] = {
		{ 0x400ff8, 4 }, { 0x400ffc, 4 }, { 0x401000, 4 },
	};
	static const struct dgwrite_access ac[2] = {
		{ DG_ACC_READ, 4, 1, 0 }, { DG_ACC_WRITE, 8, 2, 0 },
	};
	static const uint64_t runs[3][2] = {
		{ 0x5000, 0x9008 }, { 0x5004, 0x5010 }, { 0x9000, 0x9010 },
	};
	struct dgwrite w;

	dgwrite_init(&w, 2, 0, 8);
	dgwrite_mmap(&w, 0x400000, 0x1000, 0, 0, 5, 0, NULL, "/bin/true");
	dgwrite_mmap(&w, 0x401000, 0x1000, 0, 0, 5, 0, NULL, "/bin/false");
	dgwrite_thread(&w, 1);
	dgwrite_bbdef(&w, 3, in, 2, ac, 0);
	dgwrite_context(&w, 0, 1, &(uint64_t){ 0x400ff8 });
	dgwrite_malloc(&w, 0x5000, 64, 0, NULL);
	for (int k = 0; k < 3; k++)
		dgwrite_run(&w, 0, 0, 3, 2, runs[k]);
	return finish(&w, 9, dir, "mixed-v2.log");
}

/* Instruction counts that go back: runs at icount 0, 250000, then 100
   (an ICOUNT record sets it lower), then 300000, in thread 1, each a read
   and a write.  The importer gives up the working set (sum_windows and the
   class tables stay empty) but every other summary holds (t1535). */
static int back_log(const char *dir)
{
	static const struct dgwrite_instr in[2] = { { 0x401000, 4 }, { 0x401004, 3 } };
	static const struct dgwrite_access ac[2] = {
		{ DG_ACC_READ, 4, 0, 0 }, { DG_ACC_WRITE, 8, 1, 0 },
	};
	static const uint64_t at[4] = { 0, 250000, 100, 300000 };
	static const uint64_t runs[4][2] = {
		{ 0x5000, 0x9000 }, { 0x5040, 0x9000 }, { 0x5000, 0x9040 }, { 0x5080, 0x9080 },
	};
	struct dgwrite w;

	dgwrite_init(&w, 2, 0, 8);
	dgwrite_thread(&w, 1);
	dgwrite_bbdef(&w, 2, in, 2, ac, 0);
	dgwrite_context(&w, 0, 1, &(uint64_t){ 0x401000 });
	for (int k = 0; k < 4; k++) {
		if (at[k])
			dgwrite_icount(&w, at[k]);
		dgwrite_run(&w, 0, 0, 2, 2, runs[k]);
	}
	return finish(&w, 300002, dir, "back-v2.log");
}

int main(int argc, char **argv)
{
	static const char *const endian[2] = { "le", "be" };
	struct dgwrite w;
	char name[64];
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: mklogs DIR\n");
		return 2;
	}
	for (int v = 1; v <= 2; v++)
		for (int e = 0; e <= 1; e++)
			for (int ws = 4; ws <= 8; ws += 4) {
				logs_full(&w, v, e, ws, ws == 4 && e == 1, 1);
				snprintf(name, sizeof name, "full-v%d-%s-%d.log", v, endian[e], ws);
				rc |= save(&w, argv[1], name);
				dgwrite_release(&w);
			}
	logs_full(&w, 2, 0, 8, 0, 0);
	rc |= save(&w, argv[1], "nofini-v2.log");
	dgwrite_release(&w);
	rc |= heap_log(argv[1], HEAP_PLAIN);
	rc |= heap_log(argv[1], HEAP_CHAINS);
	rc |= heap_log(argv[1], HEAP_RECS);
	rc |= mixed_log(argv[1]);
	rc |= back_log(argv[1]);
	return rc ? 1 : 0;
}
