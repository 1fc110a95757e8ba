/* logs.c: sample logs for the unit tests; see logs.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "logs.h"

static const struct dgwrite_instr instrs[3] = {
	{ 0x401000, 3 }, { 0x401003, 4 }, { 0x401007, 2 },
};
static const struct dgwrite_access acc[4] = {
	{ DG_ACC_READ, 8, 0, 0 },
	{ DG_ACC_WRITE, 4, 1, 0 },
	{ DG_ACC_READ, 1, 1, DG_AF_GUARDED },
	{ DG_ACC_WRITE, 255, 2, DG_AF_CLAMPED },
};
static const uint64_t stack[2] = { 0x401000, 0x400500 };
static const uint64_t ips[2] = { 0x400100, 0x400200 };
static const uint64_t free_ips[1] = { 0x400300 };
static const uint64_t run1[4] = { 0x10000, 0x10008, 0, 0x7ff000 };
static const uint64_t run2[2] = { 0x10010, 0x10018 };
static const uint64_t run3[4] = { 0x10020, 0x10028, 0x10030, 0x7ff008 };
static const uint8_t build_id[4] = { 0xde, 0xad, 0xbe, 0xef };
static const char *const argv[2] = { "true", "--x" };

static void v2_prologue(struct dgwrite *w)
{
	dgwrite_process(w, 42, 1, "datagrind 0.1.0", "/bin/true", 2, argv);
	dgwrite_mmap(w, 0x400000, 0x1000, 0, 0x1000, 5, 4, build_id, "/bin/true");
	dgwrite_thread(w, 1);
}

static void runs(struct dgwrite *w, int version, int which)
{
	const uint64_t *a = which == 1 ? run1 : which == 2 ? run2 : run3;

	if (version < 2) {
		dgwrite_bbrun(w, 0, which == 2 ? 2 : 3, which == 2 ? 2 : 4, a);
		return;
	}
	if (which == 2)
		dgwrite_run(w, 0, 1, 2, 2, a);
	else
		dgwrite_run(w, 0, 0, 3, 4, a);
}

int logs_full(struct dgwrite *w, int version, int endian, int word_size,
	      int long_lengths, int fini)
{
	dgwrite_init(w, version, endian, word_size);
	w->long_lengths = long_lengths;
	if (version >= 2)
		v2_prologue(w);
	else
		dgwrite_text_avma(w, 0x400000, "/bin/true");
	dgwrite_bbdef(w, 3, instrs, 4, acc, DG_EXIT_CALL);
	dgwrite_context(w, 0, 2, stack);
	dgwrite_malloc(w, 0x10000, 64, 2, ips);
	runs(w, version, 1);
	runs(w, version, 2);
	dgwrite_track(w, 0x20000, 16, "int", "arr");
	dgwrite_untrack(w, 0x20000, 16);
	dgwrite_event(w, DG_R_START_EVENT, "phase 1");
	dgwrite_event(w, DG_R_END_EVENT, "phase 1");
	dgwrite_free(w, 0x10000, 1, free_ips);
	if (version >= 2) {
		dgwrite_icount(w, 1000);
		dgwrite_trace_state(w, 0, DG_TRACE_REQUEST);
		dgwrite_munmap(w, 0x400000, 0x1000);
		dgwrite_thread(w, 2);
	}
	runs(w, version, 3);
	dgwrite_raw(w, 42, "abc", 3);
	dgwrite_raw(w, 200, "\x07", 1);
	if (version >= 2 && fini)
		dgwrite_fini(w, 1003, w->n_runs, w->n_accesses, w->n_records, 0);
	return dgwrite_finish(w);
}

const char *const logs_full_v1[] = {
	"header version=1 endian=E word_size=W",
	"text_avma addr=0x400000 path=/bin/true",
	"bbdef 0 exit=0 instrs=0x401000/3,0x401003/4,0x401007/2 accesses=R8@0/0,W4@1/0,R1@1/0,W255@2/0",
	"context 0 bbdef=0 stack=0x401000,0x400500",
	"malloc_block addr=0x10000 size=64 stack=0x400100,0x400200",
	"run #0 thread=0 icount=0 ctx=0 bbdef=0 n_instrs=3 partial=0 addrs=0x10000,0x10008,0x0,0x7ff000",
	"run #1 thread=0 icount=3 ctx=0 bbdef=0 n_instrs=2 partial=1 addrs=0x10010,0x10018",
	"track_range addr=0x20000 len=16 type=int label=arr",
	"untrack_range addr=0x20000 len=16",
	"start_event label=phase 1",
	"end_event label=phase 1",
	"free_block addr=0x10000 size=0 stack=",
	"run #2 thread=0 icount=5 ctx=0 bbdef=0 n_instrs=3 partial=0 addrs=0x10020,0x10028,0x10030,0x7ff008",
	"unknown 42 len=3",
	"unknown 200 len=1",
	NULL
};

const char *const logs_full_v2[] = {
	"header version=2 endian=E word_size=W",
	"process pid=42 ppid=1 tool=datagrind 0.1.0 exe=/bin/true argc=2 true --x",
	"mmap start=0x400000 len=4096 offset=0x0 bias=0x1000 prot=5 build_id=4 path=/bin/true",
	"thread 1",
	"bbdef 0 exit=1 instrs=0x401000/3,0x401003/4,0x401007/2 accesses=R8@0/0,W4@1/0,R1@1/1,W255@2/2",
	"context 0 bbdef=0 stack=0x401000,0x400500",
	"malloc_block addr=0x10000 size=64 stack=0x400100,0x400200",
	"run #0 thread=1 icount=0 ctx=0 bbdef=0 n_instrs=3 partial=0 addrs=0x10000,0x10008,0x0,0x7ff000",
	"run #1 thread=1 icount=3 ctx=0 bbdef=0 n_instrs=2 partial=1 addrs=0x10010,0x10018",
	"track_range addr=0x20000 len=16 type=int label=arr",
	"untrack_range addr=0x20000 len=16",
	"start_event label=phase 1",
	"end_event label=phase 1",
	"free_block addr=0x10000 size=0 stack=0x400300",
	"icount 1000",
	"trace_state on=0 reason=1",
	"munmap start=0x400000 len=4096",
	"thread 2",
	"run #2 thread=2 icount=1000 ctx=0 bbdef=0 n_instrs=3 partial=0 addrs=0x10020,0x10028,0x10030,0x7ff008",
	"unknown 42 len=3",
	"unknown 200 len=1",
	"fini icount=1003 runs=3 accesses=10 records=20 dropped=0",
	NULL
};
