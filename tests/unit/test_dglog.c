/* test_dglog.c: unit tests of the log reader (lib/dglog) and the test
 * writer (lib/dgwrite): round trips in every variant of the format, the
 * address prediction, and every kind of corruption, which must give an
 * error with a message, never a crash (run it under ASan and UBSan too).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dglog.h"
#include "dgwrite.h"
#include "logs.h"
#include "tu.h"

/* ------------------------------------------------------------ helpers */

static char *cat(char *p, const char *end, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static char *cat(char *p, const char *end, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, end - p, fmt, ap);
	va_end(ap);
	return n < 0 || n >= end - p ? (char *)end - 1 : p + n;
}

static char *cat_list(char *p, const char *end, const uint64_t *v, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		p = cat(p, end, "%s0x%llx", i ? "," : "", (unsigned long long)v[i]);
	return p;
}

static void canon_def(const struct dglog_record *rec, char *p, const char *end)
{
	if (rec->type == DG_R_BBDEF) {
		const struct dglog_bbdef *d = rec->u.def.bbdef;
		p = cat(p, end, "bbdef %llu exit=%u instrs=",
			(unsigned long long)rec->u.def.index, d->exit_kind);
		for (uint32_t i = 0; i < d->n_instrs; i++)
			p = cat(p, end, "%s0x%llx/%u", i ? "," : "",
				(unsigned long long)d->instrs[i].addr, d->instrs[i].size);
		p = cat(p, end, " accesses=");
		for (uint32_t i = 0; i < d->n_accesses; i++) {
			const struct dglog_access *a = &d->accesses[i];
			p = cat(p, end, "%s%c%u@%u/%u", i ? "," : "",
				a->dir ? 'W' : 'R', a->size, a->iseq, a->flags);
		}
	} else {
		const struct dglog_context *x = rec->u.def.context;
		p = cat(p, end, "context %llu bbdef=%u stack=",
			(unsigned long long)rec->u.def.index, x->bbdef);
		cat_list(p, end, x->stack, x->depth);
	}
}

static void canon_run(const struct dglog_record *rec, char *p, const char *end)
{
	const struct dglog_run *u = &rec->u.run;

	p = cat(p, end, "run #%llu thread=%u icount=%llu ctx=%llu bbdef=%u n_instrs=%u partial=%d addrs=",
		(unsigned long long)u->index, u->thread,
		(unsigned long long)u->icount_start,
		(unsigned long long)u->context, u->bbdef, u->n_instrs, u->partial);
	cat_list(p, end, u->addrs, u->n_addrs);
}

/* One line of text for a record, the form of logs_full_v1/v2. */
static void canon(const struct dglog_record *rec, char *buf, size_t size)
{
	char *p = buf, *end = buf + size;

	switch (rec->type) {
	case DG_R_HEADER:
		cat(p, end, "header version=%u endian=E word_size=W", rec->u.header.version);
		break;
	case DG_R_PROCESS:
		p = cat(p, end, "process pid=%u ppid=%u tool=%s exe=%s argc=%u",
			rec->u.process.pid, rec->u.process.ppid, rec->u.process.tool,
			rec->u.process.exe, rec->u.process.argc);
		for (uint32_t i = 0; i < rec->u.process.argc; i++)
			p = cat(p, end, " %s", rec->u.process.argv[i]);
		break;
	case DG_R_MMAP:
		cat(p, end, "mmap start=0x%llx len=%llu offset=0x%llx bias=0x%llx prot=%u build_id=%u path=%s",
		    (unsigned long long)rec->u.mmap.start, (unsigned long long)rec->u.mmap.len,
		    (unsigned long long)rec->u.mmap.offset, (unsigned long long)rec->u.mmap.bias,
		    rec->u.mmap.prot, rec->u.mmap.build_id_len, rec->u.mmap.path);
		break;
	case DG_R_MUNMAP:
		cat(p, end, "munmap start=0x%llx len=%llu", (unsigned long long)rec->u.mmap.start,
		    (unsigned long long)rec->u.mmap.len);
		break;
	case DG_R_THREAD:
		cat(p, end, "thread %u", rec->u.thread.tid);
		break;
	case DG_R_TEXT_AVMA:
		cat(p, end, "text_avma addr=0x%llx path=%s",
		    (unsigned long long)rec->u.text_avma.addr, rec->u.text_avma.path);
		break;
	case DG_R_BBDEF:
	case DG_R_CONTEXT:
		canon_def(rec, p, end);
		break;
	case DG_R_MALLOC_BLOCK:
	case DG_R_FREE_BLOCK:
		p = cat(p, end, "%s addr=0x%llx size=%llu stack=", dglog_type_name(rec->type),
			(unsigned long long)rec->u.block.addr, (unsigned long long)rec->u.block.size);
		cat_list(p, end, rec->u.block.ips, rec->u.block.n_ips);
		break;
	case DGLOG_RUN:
		canon_run(rec, p, end);
		break;
	case DG_R_TRACK_RANGE:
		cat(p, end, "track_range addr=0x%llx len=%llu type=%s label=%s",
		    (unsigned long long)rec->u.range.addr, (unsigned long long)rec->u.range.len,
		    rec->u.range.type_name, rec->u.range.label);
		break;
	case DG_R_UNTRACK_RANGE:
		cat(p, end, "untrack_range addr=0x%llx len=%llu",
		    (unsigned long long)rec->u.range.addr, (unsigned long long)rec->u.range.len);
		break;
	case DG_R_START_EVENT:
	case DG_R_END_EVENT:
		cat(p, end, "%s label=%s", dglog_type_name(rec->type), rec->u.event.label);
		break;
	case DG_R_ICOUNT:
		cat(p, end, "icount %llu", (unsigned long long)rec->u.icount.icount);
		break;
	case DG_R_TRACE_STATE:
		cat(p, end, "trace_state on=%u reason=%u", rec->u.trace_state.on,
		    rec->u.trace_state.reason);
		break;
	case DG_R_FINI:
		cat(p, end, "fini icount=%llu runs=%llu accesses=%llu records=%llu dropped=%llu",
		    (unsigned long long)rec->u.fini.icount, (unsigned long long)rec->u.fini.runs,
		    (unsigned long long)rec->u.fini.accesses, (unsigned long long)rec->u.fini.records,
		    (unsigned long long)rec->u.fini.dropped_runs);
		break;
	case DGLOG_UNKNOWN:
		cat(p, end, "unknown %d len=%llu", rec->file_type,
		    (unsigned long long)rec->u.unknown.len);
		break;
	default:
		cat(p, end, "?? type %d", rec->type);
	}
}

/* Read a whole log from memory; returns what dglog_next returned last
 * (or -2 when open failed), with the message in err. */
static int read_all(const void *data, size_t len, char *err, size_t errlen,
		    int *truncated)
{
	struct dglog r;
	struct dglog_record rec;
	int n;

	if (dglog_open_mem(&r, data, len, "t.log", err, errlen) < 0) {
		*truncated = r.truncated;
		dglog_close(&r);
		return -2;
	}
	while ((n = dglog_next(&r, &rec)) > 0)
		;
	snprintf(err, errlen, "%s", r.err);
	*truncated = r.truncated;
	if (n == 0 && r.version >= 2 && dglog_check_complete(&r) < 0) {
		snprintf(err, errlen, "%s", r.err);
		n = -3;
	}
	dglog_close(&r);
	return n;
}

/* ------------------------------------------------------------ round trips */

static int compare_log(struct dglog *r, const char *const *want, char *why,
		       size_t whylen)
{
	struct dglog_record rec;
	char line[1024];
	int n, i = 0;

	while ((n = dglog_next(r, &rec)) > 0) {
		canon(&rec, line, sizeof line);
		if (!want[i] || strcmp(line, want[i]) != 0) {
			snprintf(why, whylen, "record %d: got '%s', want '%s'", i,
				 line, want[i] ? want[i] : "(end)");
			return -1;
		}
		i++;
	}
	if (n < 0) {
		snprintf(why, whylen, "%s", r->err);
		return -1;
	}
	if (want[i]) {
		snprintf(why, whylen, "ends before '%s'", want[i]);
		return -1;
	}
	return 0;
}

static void test_round_trip(int version, int endian, int word, int lng)
{
	struct dgwrite w;
	struct dglog r;
	char err[512] = "", why[1200] = "";
	int good;

	logs_full(&w, version, endian, word, lng, 1);
	good = dglog_open_mem(&r, w.buf, w.len, "full.log", err, sizeof err) == 0
	       && r.version == version && r.endian == endian && r.word_size == word;
	if (good)
		good = compare_log(&r, version < 2 ? logs_full_v1 : logs_full_v2,
				   why, sizeof why) == 0;
	if (good && version >= 2)
		good = dglog_check_complete(&r) == 0;
	if (good)
		good = r.n_unknown == 2 && r.n_runs == 3 && r.n_accesses == 10;
	tu_check(good, "round trip v%d %s-endian %d-byte words %s lengths %s%s",
		 version, endian ? "big" : "little", word, lng ? "long" : "short",
		 err, good ? "" : (why[0] ? why : r.err));
	dglog_close(&r);
	dgwrite_release(&w);
}

static void test_round_trips(void)
{
	for (int v = 1; v <= 2; v++)
		for (int e = 0; e <= 1; e++)
			for (int ws = 4; ws <= 8; ws += 4)
				for (int l = 0; l <= 1; l++)
					test_round_trip(v, e, ws, l);
}

/* ------------------------------------------------------------ prediction */

#define PRED_CTX   5
#define PRED_ACC   7
#define PRED_RUNS  4000

/* Address a of access i of run k: strided, constant, random or zero. */
static uint64_t pred_addr(int ctx, int i, int k, uint64_t mask)
{
	switch ((ctx + i) % 4) {
	case 0: return (0x7ff000000000ull + 8 * (uint64_t)k * (i + 1)) & mask;
	case 1: return (0x601040 + ctx) & mask;
	case 2: return tu_rand() & mask;
	default: return k % 3 ? 0 : (0x10000 - 16 * (uint64_t)k) & mask;
	}
}

/* The same random runs as BBRUNS or BBCHAINS (chains 1): contexts mostly
 * follow a cycle, so that chains form, and records end every 1000 runs. */
static size_t test_prediction(int endian, int word, int chains)
{
	static uint64_t want[PRED_RUNS][PRED_ACC];
	static int ctxs[PRED_RUNS], nadd[PRED_RUNS];
	uint64_t mask = word == 8 ? ~0ull : 0xffffffffull;
	struct dgwrite_instr in[PRED_ACC];
	struct dgwrite_access ac[PRED_ACC];
	struct dgwrite w;
	struct dglog r;
	struct dglog_record rec;
	char err[512] = "";
	int k = 0, bad = 0, n;
	size_t len;

	for (int i = 0; i < PRED_ACC; i++) {
		in[i] = (struct dgwrite_instr){ 0x1000 + 4 * i, 4 };
		ac[i] = (struct dgwrite_access){ i & 1, 8, i, 0 };
	}
	dgwrite_init(&w, 2, endian, word);
	w.chains = chains;
	dgwrite_thread(&w, 1);
	dgwrite_bbdef(&w, PRED_ACC, in, PRED_ACC, ac, 0);
	for (int c = 0; c < PRED_CTX; c++)
		dgwrite_context(&w, 0, 1, &(uint64_t){ 0x1000 });
	for (k = 0; k < PRED_RUNS; k++) {
		ctxs[k] = tu_rand() % 4 && k ? (ctxs[k - 1] + 1) % PRED_CTX : (int)(tu_rand() % PRED_CTX);
		nadd[k] = tu_rand() % 5 ? PRED_ACC : (int)(tu_rand() % PRED_ACC);
		for (int i = 0; i < nadd[k]; i++)
			want[k][i] = pred_addr(ctxs[k], i, k, mask);
		if (nadd[k] == PRED_ACC)
			dgwrite_run(&w, ctxs[k], 0, PRED_ACC, PRED_ACC, want[k]);
		else
			dgwrite_run(&w, ctxs[k], 1, nadd[k] ? nadd[k] : 1, nadd[k], want[k]);
		if (k % 1000 == 999)
			dgwrite_flush_runs(&w);
	}
	dgwrite_finish(&w);
	dglog_open_mem(&r, w.buf, w.len, "pred.log", err, sizeof err);
	k = 0;
	while ((n = dglog_next(&r, &rec)) > 0) {
		if (rec.type != DGLOG_RUN)
			continue;
		const struct dglog_run *u = &rec.u.run;
		if (k >= PRED_RUNS || (int)u->context != ctxs[k] || (int)u->n_addrs != nadd[k]
		    || memcmp(u->addrs, want[k], nadd[k] * sizeof(uint64_t)) != 0)
			bad++;
		k++;
	}
	tu_check(n == 0 && k == PRED_RUNS && !bad,
		 "prediction round trip, %s, %s-endian %d-byte words: %d runs, %d wrong, %zu bytes %s%s",
		 chains ? "bbchains" : "bbruns", endian ? "big" : "little", word, k, bad, w.len,
		 err, n < 0 ? r.err : "");
	len = w.len;
	dglog_close(&r);
	dgwrite_release(&w);
	return len;
}

/* The same runs take fewer bytes as BBCHAINS when contexts repeat their
 * successors (the random runs above: 3 in 4 follow a cycle). */
static void test_chains_smaller(void)
{
	uint64_t seed = tu_rng;
	size_t plain, chained;

	plain = test_prediction(0, 8, 0);
	tu_rng = seed;
	chained = test_prediction(0, 8, 1);
	tu_check(chained < plain, "bbchains %zu bytes, bbruns %zu bytes", chained, plain);
}

/* ------------------------------------------------------------ truncation */

/* Every cut of a valid log must end in a truncation error, or, at a
 * record boundary, in a clean end that is not complete (version 2). */
static void test_truncations(int version, int endian, int word, int lng)
{
	struct dgwrite w;
	char err[512];
	int bad = 0, trunc, cuts = 0, n;
	size_t first_bad = 0;

	logs_full(&w, version, endian, word, lng, 1);
	for (size_t cut = 0; cut < w.len; cut++) {
		n = read_all(w.buf, cut, err, sizeof err, &trunc);
		int good = (n == -1 || n == -2) ? trunc && strstr(err, "truncated") != NULL
			   : n == -3 ? version >= 2 : version < 2 && n == 0;
		if (!good && !bad++)
			first_bad = cut;
		cuts += n != 0 && n != -3;
	}
	n = read_all(w.buf, w.len, err, sizeof err, &trunc);
	tu_check(!bad && n == 0,
		 "truncation at each of %zu bytes, v%d %s %d %s: %d truncated, %d bad (first at %zu)",
		 w.len, version, endian ? "be" : "le", word, lng ? "long" : "short",
		 cuts, bad, first_bad);
	dgwrite_release(&w);
}

/* A log fed through a pipe a byte at a time: every read returns little. */
static void test_pipe(void)
{
	struct dgwrite w;
	struct dglog r;
	char err[512] = "", why[1200] = "";
	int fds[2], good = 0;
	pid_t pid;

	logs_full(&w, 2, 1, 8, 0, 1);
	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		tu_check(0, "pipe or fork failed");
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		for (size_t i = 0; i < w.len; i++)
			if (write(fds[1], w.buf + i, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (dglog_open_fd(&r, fds[0], "pipe", err, sizeof err) == 0)
		good = compare_log(&r, logs_full_v2, why, sizeof why) == 0
		       && dglog_check_complete(&r) == 0;
	tu_check(good, "log read from a pipe a byte at a time %s%s", err, why);
	dglog_close(&r);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	dgwrite_release(&w);
}

/* The same through a file descriptor, and a log bigger than the reader's
 * buffer with one record bigger still. */
static void test_fd_and_big(void)
{
	char path[] = "/tmp/dglog-unit-XXXXXX";
	struct dgwrite w;
	struct dglog r;
	struct dglog_record rec;
	struct dgwrite_instr in = { 0x1000, 4 };
	struct dgwrite_access ac = { 0, 8, 0, 0 };
	char err[512] = "";
	uint64_t runs = 0, sum = 0, want_sum = 0;
	int fd = mkstemp(path), n;

	dgwrite_init(&w, 2, 0, 8);
	dgwrite_bbdef(&w, 1, &in, 1, &ac, 0);
	dgwrite_context(&w, 0, 1, &(uint64_t){ 0x1000 });
	for (uint64_t k = 0; k < 3000000; k++) {
		uint64_t a = tu_rand() & 0xffffffffff;
		want_sum += a;
		dgwrite_run(&w, 0, 0, 1, 1, &a);
		if (k == 2000000)
			dgwrite_flush_runs(&w);    /* first BBRUNS > 1 MiB */
		else if (k > 2000000 && k % 1000 == 0)
			dgwrite_flush_runs(&w);    /* many small ones */
	}
	dgwrite_flush_runs(&w);
	dgwrite_fini(&w, 3000000, w.n_runs, w.n_accesses, w.n_records, 0);
	dgwrite_finish(&w);
	if (fd < 0 || write(fd, w.buf, w.len) != (ssize_t)w.len)
		tu_check(0, "cannot write %s", path);
	close(fd);
	if (dglog_open(&r, path, err, sizeof err) == 0)
		while ((n = dglog_next(&r, &rec)) > 0)
			if (rec.type == DGLOG_RUN) {
				runs++;
				sum += rec.u.run.addrs[0];
			}
	tu_check(runs == 3000000 && sum == want_sum && dglog_check_complete(&r) == 0,
		 "big log (%zu bytes) through a file: %llu runs, sums %s %s",
		 w.len, (unsigned long long)runs, sum == want_sum ? "match" : "differ", r.err);
	dglog_close(&r);
	/* truncated file: the last record cut in half */
	if (truncate(path, (off_t)(w.len - 20)) == 0 && dglog_open(&r, path, err, sizeof err) == 0) {
		while ((n = dglog_next(&r, &rec)) > 0)
			;
		tu_check(n < 0 && r.truncated, "cut file reports truncation: %s", r.err);
		dglog_close(&r);
	}
	unlink(path);
	dgwrite_release(&w);
}

/* ------------------------------------------------------------ corruption */

static void expect_error(const char *what, const struct dgwrite *w,
			 const char *want)
{
	char err[512] = "";
	int trunc;
	int n = read_all(w->buf, w->len, err, sizeof err, &trunc);

	tu_check(n < 0 && strstr(err, want) && strncmp(err, "t.log: byte ", 12) == 0,
		 "%s: %s", what, err[0] ? err : "(no error)");
}

static const struct dgwrite_instr c_in[3] = {
	{ 0x401000, 3 }, { 0x401003, 4 }, { 0x401007, 2 },
};
static const struct dgwrite_access c_ac[4] = {
	{ 0, 8, 0, 0 }, { 1, 4, 1, 0 }, { 0, 1, 1, 0 }, { 1, 8, 2, 0 },
};

/* A version 2 log with one bbdef (3 instructions, 4 accesses) and one
 * context, ready for a bad record. */
static void base(struct dgwrite *w, int version)
{
	dgwrite_init(w, version, 0, 8);
	if (version >= 2)
		dgwrite_thread(w, 1);
	dgwrite_bbdef(w, 3, c_in, 4, c_ac, 0);
	dgwrite_context(w, 0, 1, &(uint64_t){ 0x401000 });
}

static void test_header_errors(void)
{
	static const struct { int off, val; const char *what, *want; } cases[] = {
		{ 0, 1, "type byte not header", "bad signature" },
		{ 1, 13, "header length 13", "bad signature" },
		{ 1, 255, "header in long form", "bad signature" },
		{ 5, 'X', "signature letter", "bad signature" },
		{ 12, 1, "signature without NUL", "bad signature" },
		{ 13, 0, "version 0", "version 0" },
		{ 13, 3, "version 3", "version 3" },
		{ 14, 2, "endian 2", "endian byte 2" },
		{ 15, 2, "word size 2", "word size 2" },
		{ 15, 16, "word size 16", "word size 16" },
	};
	struct dgwrite w;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		base(&w, 2);
		dgwrite_finish(&w);
		w.buf[cases[i].off] = (uint8_t)cases[i].val;
		expect_error(cases[i].what, &w, cases[i].want);
		dgwrite_release(&w);
	}
	base(&w, 2);
	dgwrite_raw(&w, DG_R_HEADER, "DATAGRIND1\0\2\0\x08", 14);
	expect_error("a second header", &w, "second header");
	dgwrite_release(&w);
}

/* A partial BBRUNS run with these counts. */
static void bad_partial(const char *what, unsigned n_instrs, unsigned n_addrs,
			const char *want)
{
	struct dgwrite w;
	uint64_t a[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

	base(&w, 2);
	dgwrite_run(&w, 0, 1, n_instrs, n_addrs, a);
	dgwrite_finish(&w);
	expect_error(what, &w, want);
	dgwrite_release(&w);
}

static void test_reference_errors(void)
{
	struct dgwrite w;
	uint64_t a[5] = { 1, 2, 3, 4, 5 };

	base(&w, 2);
	dgwrite_run(&w, 0, 0, 3, 4, a);
	dgwrite_run(&w, 1, 0, 3, 4, a);
	dgwrite_finish(&w);
	expect_error("bbruns run refers to a missing context", &w,
		     "(bbruns): run 1: refers to context 1, only 1 defined");
	dgwrite_release(&w);

	base(&w, 2);
	dgwrite_context(&w, 3, 0, NULL);
	expect_error("context refers to a missing bbdef", &w,
		     "record #4 (context): refers to bbdef 3, only 1 defined");
	dgwrite_release(&w);

	base(&w, 1);
	dgwrite_bbrun(&w, 5, 3, 4, a);
	expect_error("v1 bbrun refers to a missing context", &w,
		     "(bbrun): refers to context 5, only 1 defined");
	dgwrite_release(&w);

	base(&w, 1);
	dgwrite_bbrun(&w, 0, 3, 5, a);
	expect_error("v1 bbrun with more addresses than accesses", &w,
		     "has 5 addresses, the block makes 4 accesses");
	dgwrite_release(&w);

	base(&w, 2);
	dgwrite_bbrun(&w, 0, 2, 4, a);
	expect_error("v2 bbrun whose accesses outrun its instructions", &w,
		     "access 3 is made by instruction 2, but only 2 ran");
	dgwrite_release(&w);

	bad_partial("partial run with too many addresses", 3, 9, "has 9 addresses");
	bad_partial("partial run with too many instructions", 7, 1, "runs 7 instructions");
	bad_partial("partial run of no instruction", 0, 0, "runs 0 instructions");
	bad_partial("partial run whose accesses outrun its instructions", 1, 2,
		    "access 1 is made by instruction 1, but only 1 ran");
}

static void bad_bbdef(const char *what, unsigned n_instrs, unsigned n_acc,
		      const struct dgwrite_access *ac, const char *want)
{
	struct dgwrite w;

	dgwrite_init(&w, 2, 1, 4);
	dgwrite_bbdef(&w, n_instrs, c_in, n_acc, ac, 0);
	expect_error(what, &w, want);
	dgwrite_release(&w);
}

static void test_bbdef_errors(void)
{
	static const struct dgwrite_access iseq3[1] = { { 0, 4, 3, 0 } };
	static const struct dgwrite_access dir2[1] = { { 2, 4, 0, 0 } };
	static const struct dgwrite_access back[2] = { { 0, 4, 2, 0 }, { 0, 4, 1, 0 } };
	struct dgwrite w;

	bad_bbdef("access iseq past the instructions", 3, 1, iseq3,
		  "access 0: iseq 3, the block has 3 instructions");
	bad_bbdef("access direction 2", 3, 1, dir2, "direction 2");
	bad_bbdef("accesses out of program order", 3, 2, back, "comes before");
	bad_bbdef("bbdef of no instruction", 0, 0, NULL, "a block of 0 instructions");

	dgwrite_init(&w, 2, 0, 8);
	dgwrite_begin(&w);
	dgwrite_u8(&w, 1);
	dgwrite_word(&w, 1ull << 40);
	dgwrite_word(&w, 0x1000);
	dgwrite_u8(&w, 4);
	dgwrite_end(&w, DG_R_BBDEF);
	expect_error("bbdef n_accesses past the payload", &w, "do not fit");
	dgwrite_release(&w);

	dgwrite_init(&w, 2, 0, 8);
	dgwrite_begin(&w);
	dgwrite_u8(&w, 3);
	dgwrite_word(&w, 0);
	dgwrite_word(&w, 0x1000);
	dgwrite_end(&w, DG_R_BBDEF);
	expect_error("bbdef instructions past the payload", &w, "do not fit");
	dgwrite_release(&w);

	dgwrite_init(&w, 2, 0, 8);
	dgwrite_begin(&w);
	dgwrite_u8(&w, 1);
	dgwrite_word(&w, 1);
	dgwrite_word(&w, 0x1000);
	dgwrite_u8(&w, 4);
	dgwrite_bytes(&w, "\0\x04\0", 3);       /* no flags, no exit kind */
	dgwrite_end(&w, DG_R_BBDEF);
	expect_error("v2 bbdef without its access flags", &w,
		     "1 instructions and 1 accesses do not fit in 12 bytes");
	dgwrite_release(&w);
}

/* A record of this type with this payload, after base(). */
static void bad_payload(const char *what, int type, const void *p, size_t n,
			const char *want)
{
	struct dgwrite w;

	base(&w, 2);
	dgwrite_raw(&w, type, p, n);
	expect_error(what, &w, want);
	dgwrite_release(&w);
}

static void test_payload_errors(void)
{
	static const uint8_t leb[12] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
	static const uint8_t leb_ovf[10] = { 0x80, 0x80, 0x80, 0x80, 0x80,
					     0x80, 0x80, 0x80, 0x80, 0x7f };
	struct dgwrite w;

	bad_payload("track_range label not terminated", DG_R_TRACK_RANGE,
		    "\0\0\0\0\0\0\0\0\x10\0\0\0\0\0\0\0int\0arr", 23, "string label not terminated");
	bad_payload("start_event label not terminated", DG_R_START_EVENT, "abc", 3,
		    "string label not terminated");
	bad_payload("end_event empty payload", DG_R_END_EVENT, "", 0,
		    "string label not terminated");
	bad_payload("text_avma path not terminated", DG_R_TEXT_AVMA,
		    "\0\0\0\0\0\0\0\0/x", 10, "string path not terminated");
	bad_payload("thread id cut short", DG_R_THREAD, "\1\0", 2, "payload ends inside tid");
	bad_payload("icount cut short", DG_R_ICOUNT, "\1\0\0\0", 4, "payload ends inside icount");
	bad_payload("trace_state cut short", DG_R_TRACE_STATE, "\1", 1, "inside reason");
	bad_payload("fini cut short", DG_R_FINI, "\0\0\0\0\0\0\0\0", 8, "inside runs");
	bad_payload("munmap cut short", DG_R_MUNMAP, "\0\0\0\0", 4, "inside start");
	bad_payload("malloc n_ips past the payload", DG_R_MALLOC_BLOCK,
		    "\0\0\1\0\0\0\0\0" "\x10\0\0\0\0\0\0\0" "\xff\xff\xff\xff\xff\xff\xff\x0f", 24,
		    "ips: 1152921504606846975 words do not fit");
	bad_payload("free n_ips past the payload", DG_R_FREE_BLOCK,
		    "\0\0\1\0\0\0\0\0" "\2\0\0\0\0\0\0\0" "\1\0\0\0\0\0\0\0", 24,
		    "ips: 2 words do not fit");
	bad_payload("context stack past the payload", DG_R_CONTEXT,
		    "\0\0\0\0\0\0\0\0\x05\0\0\0\0\0\0\0\0", 17, "stack: 5 words do not fit");
	bad_payload("bbruns head leb longer than 10 bytes", DG_R_BBRUNS, leb, sizeof leb,
		    "leb128 longer than 10 bytes");
	bad_payload("bbruns head leb over 64 bits", DG_R_BBRUNS, leb_ovf, sizeof leb_ovf,
		    "leb128 overflows 64 bits");
	bad_payload("bbruns addresses cut short", DG_R_BBRUNS, "\0\1\1", 3,
		    "payload ends inside addr_delta");
	bad_payload("bbruns partial counts cut short", DG_R_BBRUNS, "\1\3", 2,
		    "payload ends inside n_addrs");
	bad_payload("mmap build id past the payload", DG_R_MMAP,
		    "\0\0\0\0\0\0\0\0" "\0\0\0\0\0\0\0\0" "\0\0\0\0\0\0\0\0" "\0\0\0\0\0\0\0\0"
		    "\5\x40" "ab", 36, "build_id of 64 bytes runs past");
	bad_payload("mmap path not terminated", DG_R_MMAP,
		    "\0\0\0\0\0\0\0\0" "\0\0\0\0\0\0\0\0" "\0\0\0\0\0\0\0\0" "\0\0\0\0\0\0\0\0"
		    "\5\0" "/lib", 38, "string path not terminated");
	bad_payload("process argc past the payload", DG_R_PROCESS,
		    "\1\0\0\0\1\0\0\0t\0e\0\xff\xff\xff\x7f" "a\0", 18,
		    "argc 2147483647 exceeds the 2 bytes left");
	bad_payload("process argv not terminated", DG_R_PROCESS,
		    "\1\0\0\0\1\0\0\0t\0e\0\2\0\0\0" "a\0b", 19,
		    "string argv[1] not terminated");
	bad_payload("process tool not terminated", DG_R_PROCESS,
		    "\1\0\0\0\1\0\0\0tool", 12, "string tool not terminated");

	base(&w, 1);
	dgwrite_raw(&w, DG_R_BBRUN, "\0\0\0\0\0\0\0\0\3" "\1\0\0\0", 13);
	expect_error("v1 bbrun addresses not whole words", &w, "not a whole number of words");
	dgwrite_release(&w);
}

static void test_framing_errors(void)
{
	struct dgwrite w;
	uint8_t big[10] = { 42, 255, 0, 0, 0, 0, 1, 0, 0, 0 };   /* 4 GiB */
	uint8_t past[12] = { 42, 255, 9, 0, 0, 0, 0, 0, 0, 0, 'a', 'b' };
	char err[512];
	int trunc, n;

	base(&w, 2);
	dgwrite_finish(&w);
	dgwrite_append(&w, big, sizeof big);
	expect_error("long length over the limit", &w, "is over the limit");
	dgwrite_release(&w);

	base(&w, 2);
	dgwrite_finish(&w);
	dgwrite_append(&w, past, sizeof past);
	n = read_all(w.buf, w.len, err, sizeof err, &trunc);
	tu_check(n == -1 && trunc && strstr(err, "(type 42): truncated: the record needs 19 bytes, the file has 12 left"),
		 "long length past the end is a truncation: %s", err);
	dgwrite_release(&w);

	base(&w, 2);
	dgwrite_fini(&w, 0, 0, 0, 3, 0);
	dgwrite_thread(&w, 1);
	expect_error("a record after fini", &w, "record after fini");
	dgwrite_release(&w);
}

static void test_completeness(void)
{
	struct dgwrite w;
	char err[512];
	int trunc, n;
	uint64_t a[4] = { 1, 2, 3, 4 };

	base(&w, 2);
	dgwrite_run(&w, 0, 0, 3, 4, a);
	dgwrite_fini(&w, 3, 1, 4, w.n_records + 1, 0);  /* BBRUNS still pending */
	n = read_all(w.buf, w.len, err, sizeof err, &trunc);
	tu_check(n == 0, "fini with matching totals is complete %s", n ? err : "");
	dgwrite_release(&w);

	base(&w, 2);
	dgwrite_run(&w, 0, 0, 3, 4, a);
	dgwrite_fini(&w, 3, 1, 5, w.n_records + 1, 0);
	n = read_all(w.buf, w.len, err, sizeof err, &trunc);
	tu_check(n == -3 && strstr(err, "(fini): fini counts 5 accesses, the log has 4"),
		 "fini with wrong totals is not complete: %s", err);
	dgwrite_release(&w);

	base(&w, 2);
	n = read_all(w.buf, w.len, err, sizeof err, &trunc);
	tu_check(n == -3 && strstr(err, "without a fini record"),
		 "version 2 log without fini is not complete: %s", err);
	dgwrite_release(&w);
}

/* 2010 quirk: the addresses decide how many accesses ran, n_instrs is
 * only believed when it is possible. */
static void test_v1_quirks(void)
{
	struct dgwrite w;
	struct dglog r;
	struct dglog_record rec;
	char err[512];
	uint64_t a[4] = { 1, 2, 3, 4 };
	uint32_t got[4] = { 0 }, np[4] = { 0 };
	int k = 0;

	base(&w, 1);
	dgwrite_bbrun(&w, 0, 0, 4, a);          /* 0 instructions: the block */
	dgwrite_bbrun(&w, 0, 200, 1, a);        /* too many: the block */
	dgwrite_bbrun(&w, 0, 1, 3, a);          /* 1, but access 2 is instr 1 */
	dgwrite_bbrun(&w, 0, 2, 0, a);          /* believed */
	dgwrite_finish(&w);
	dglog_open_mem(&r, w.buf, w.len, "v1.log", err, sizeof err);
	while (dglog_next(&r, &rec) > 0)
		if (rec.type == DGLOG_RUN && k < 4) {
			got[k] = rec.u.run.n_instrs;
			np[k++] = rec.u.run.n_addrs;
		}
	tu_check(k == 4 && got[0] == 3 && got[1] == 3 && got[2] == 2 && got[3] == 2
		 && np[0] == 4 && np[1] == 1 && np[2] == 3 && np[3] == 0 && r.icount == 10,
		 "v1 run instruction counts repaired: %u %u %u %u, icount %llu",
		 got[0], got[1], got[2], got[3], (unsigned long long)r.icount);
	dglog_close(&r);
	dgwrite_release(&w);
}

/* Random damage to valid logs: anything may be reported, nothing may
 * crash (the sanitizers watch). */
static void test_mutations(void)
{
	struct dgwrite w;
	char err[512];
	int trunc, errors = 0, tries = 0;

	for (int v = 1; v <= 2; v++)
		for (int e = 0; e <= 1; e++) {
			logs_full(&w, v, e, 4 << e, e, 1);
			uint8_t *copy = malloc(w.len);
			for (int t = 0; t < 5000; t++, tries++) {
				memcpy(copy, w.buf, w.len);
				int flips = 1 + (int)(tu_rand() % 4);
				for (int f = 0; f < flips; f++)
					copy[tu_rand() % w.len] = (uint8_t)tu_rand();
				errors += read_all(copy, w.len, err, sizeof err, &trunc) < 0;
			}
			free(copy);
			dgwrite_release(&w);
		}
	tu_check(1, "%d random mutations read without a crash (%d errors)", tries, errors);
}

/* BBCHAINS records after base(): a bad payload, or a chain of n runs whose
 * successor was never defined. */
static void test_chain_errors(void)
{
	struct dgwrite w;

	bad_payload("bbchains addresses cut short", DG_R_BBCHAINS, "\0\1", 2,
		    "payload ends inside addr_delta");
	bad_payload("bbchains partial counts cut short", DG_R_BBCHAINS, "\2\3", 2,
		    "payload ends inside n_addrs");
	bad_payload("bbchains head leb cut short", DG_R_BBCHAINS, "\x80", 1,
		    "payload ends inside run head");
	bad_payload("bbchains chain to an undefined successor", DG_R_BBCHAINS, "\1", 1,
		    "refers to context 1, only 1 defined");
	bad_payload("bbchains chain of 65 runs", DG_R_BBCHAINS, "\x81\x01", 2,
		    "a chain of 65 runs, at most 64");
	/* a chain of runs without accesses is its head alone, also at the end */
	base(&w, 2);
	dgwrite_bbdef(&w, 3, c_in, 0, c_ac, 0);
	dgwrite_context(&w, 1, 1, &(uint64_t){ 0x401000 });
	w.chains = 1;
	for (int k = 0; k < 100; k++)
		dgwrite_run(&w, 1, 0, 3, 0, NULL);
	dgwrite_flush_runs(&w);
	dgwrite_fini(&w, 300, w.n_runs, w.n_accesses, w.n_records, 0);
	{
		char err[512] = "";
		int trunc, n = read_all(w.buf, w.len, err, sizeof err, &trunc);
		/* an explicit head, then chains of 64 and 35 runs: 3 bytes;
		   FINI's count of 100 runs is checked by read_all */
		tu_check(n == 0, "bbchains: 100 runs without accesses read back %s", err);
	}
	dgwrite_release(&w);
}

/* CTXREF: stacks rebuilt from a reference, as CONTEXT records; a
 * reference or a keep out of range is an error. */
static void test_ctxref(void)
{
	static const uint64_t full[4] = { 0x401000, 0x400500, 0x400400, 0x400300 };
	struct dgwrite w;
	struct dglog r;
	struct dglog_record rec;
	char err[512] = "", got[256] = "";
	const struct dglog_context *x;
	int n, k = 0;

	base(&w, 2);            /* context 0: stack 0x401000 */
	dgwrite_context(&w, 0, 4, full);
	/* 2: same stack as 1 but for the block 0x401003 (frame 0 +3) */
	dgwrite_ctxref(&w, 0, 1, 3, 0, (uint64_t[]){ 3 });
	/* 3: one new inner frame 0x400600 before 1's two innermost */
	dgwrite_ctxref(&w, 0, 2, 2, 1, (uint64_t[]){ 0, 0x400600 - 0x401000 });
	/* 4: no reference, stack[0] absolute */
	dgwrite_ctxref(&w, 0, 0, 0, 0, (uint64_t[]){ 0x401007 });
	dgwrite_finish(&w);
	dglog_open_mem(&r, w.buf, w.len, "ref.log", err, sizeof err);
	while ((n = dglog_next(&r, &rec)) > 0)
		if (rec.type == DG_R_CONTEXT)
			k++;
	for (uint64_t c = 2; n == 0 && c < 5; c++) {
		x = dglog_context(&r, c);
		char *p = got + strlen(got);
		p = cat(p, got + sizeof got, "%s", c > 2 ? " | " : "");
		cat_list(p, got + sizeof got, x->stack, x->depth);
	}
	tu_check(n == 0 && k == 5 && strcmp(got, "0x401003,0x400500,0x400400,0x400300 | "
					   "0x401000,0x400600,0x400500,0x400400 | 0x401007") == 0,
		 "ctxref: %d contexts, stacks %s %s", k, got, n < 0 ? r.err : err);
	dglog_close(&r);
	dgwrite_release(&w);

	base(&w, 2);
	dgwrite_ctxref(&w, 0, 2, 0, 0, (uint64_t[]){ 0 });
	expect_error("ctxref back past the first context", &w, "refers back 2 contexts, only 1");
	dgwrite_release(&w);
	base(&w, 2);
	dgwrite_ctxref(&w, 0, 1, 1, 0, (uint64_t[]){ 0 });
	expect_error("ctxref keeps more frames than the reference has", &w, "keeps 1 frames");
	dgwrite_release(&w);
	base(&w, 2);
	dgwrite_ctxref(&w, 3, 1, 0, 0, (uint64_t[]){ 0 });
	expect_error("ctxref of an undefined bbdef", &w, "refers to bbdef 3, only 1 defined");
	dgwrite_release(&w);
	bad_payload("ctxref frames cut short", DG_R_CTXREF, "\0\1\0\2\0", 5,
		    "payload ends inside frame");
}

/* The heap-related records of a log as canon() lines, joined by " | ". */
static int heap_lines(const struct dgwrite *w, char *got, size_t size,
		      char *err, size_t errlen)
{
	struct dglog r;
	struct dglog_record rec;
	char line[512];
	int n;

	got[0] = 0;
	dglog_open_mem(&r, w->buf, w->len, "t.log", err, errlen);
	while ((n = dglog_next(&r, &rec)) > 0) {
		if (rec.type != DG_R_ICOUNT && rec.type != DG_R_MALLOC_BLOCK
		    && rec.type != DG_R_FREE_BLOCK)
			continue;
		canon(&rec, line, sizeof line);
		if (rec.type != DG_R_ICOUNT)
			snprintf(line + strlen(line), sizeof line - strlen(line),
				 " icount=%llu", (unsigned long long)rec.icount);
		snprintf(got + strlen(got), size - strlen(got), "%s%s",
			 got[0] ? " | " : "", line);
	}
	if (n < 0)
		snprintf(err, errlen, "%s", r.err);
	dglog_close(&r);
	return n;
}

/* HEAP_MALLOC and HEAP_FREE read as the MALLOC_BLOCK and FREE_BLOCK they
 * stand for, after an ICOUNT when they carry instructions; stacks defined
 * frame by frame, referred to by index or predicted; addresses as deltas
 * in word-size arithmetic (MALLOC_BLOCK apart); bad references, empty and
 * too deep definitions are errors. */
static void test_heap(void)
{
	static const uint64_t f3[3] = { 0x401100, 0x100, 0x400300 - 0x401200 };
	static const uint64_t deep[1] = { 8 };
	static const struct {
		const char *what;
		int type;
		const char *p;
		size_t n;
		const char *want;
	} cut[] = {
		{ "heap_malloc cut short in its stack", DG_R_HEAP_MALLOC, "\0", 1,
		  "payload ends inside stack" },
		{ "heap_malloc cut short in its size", DG_R_HEAP_MALLOC, "\0\0\0", 3,
		  "payload ends inside size" },
		{ "heap_free definition cut short", DG_R_HEAP_FREE, "\0\1\0\2\4", 5,
		  "payload ends inside frame" },
		{ "heap_free address leb over 64 bits", DG_R_HEAP_FREE,
		  "\0\0\x80\x80\x80\x80\x80\x80\x80\x80\x80\x7f", 12,
		  "addr_delta: leb128 overflows 64 bits" },
	};
	struct dgwrite w;
	char err[512] = "", got[2048], want[2048];
	int n;

	for (int ws = 4; ws <= 8; ws += 4) {
		dgwrite_init(&w, 2, ws == 4, ws);
		dgwrite_thread(&w, 1);
		/* stacks 1 [0x400300], 2 [0x401200 1], 3 [0x401100 2] */
		dgwrite_heap(&w, DG_R_HEAP_MALLOC, 100, DG_HEAP_NEW, 0, 3, f3, 0x5000, 64);
		/* stack 4 [0x401180 2] */
		dgwrite_heap(&w, DG_R_HEAP_MALLOC, 0, DG_HEAP_NEW, 2, 1,
			     (uint64_t[]){ -(uint64_t)0x80 }, 0x40, 16);
		dgwrite_malloc(&w, 0x9000, 8, 1, (uint64_t[]){ 0x400000 });
		dgwrite_heap(&w, DG_R_HEAP_FREE, 5, DG_HEAP_INDEX + 3, 0, 0, NULL,
			     -(uint64_t)0x40, 0);
		/* 3 was followed by 4 last time */
		dgwrite_heap(&w, DG_R_HEAP_FREE, 0, DG_HEAP_PREDICTED, 0, 0, NULL, 0x40, 0);
		/* the empty stack; an address below 0 wraps at the word */
		dgwrite_heap(&w, DG_R_HEAP_MALLOC, 1, DG_HEAP_INDEX, 0, 0, NULL,
			     -(uint64_t)0x5041, 0);
		dgwrite_fini(&w, 106, 0, 0, w.n_records, 0);
		dgwrite_finish(&w);
		n = heap_lines(&w, got, sizeof got, err, sizeof err);
		snprintf(want, sizeof want,
			"icount 100 | malloc_block addr=0x5000 size=64 stack=0x401100,0x401200,0x400300 icount=100"
			" | malloc_block addr=0x5040 size=16 stack=0x401180,0x401200,0x400300 icount=100"
			" | malloc_block addr=0x9000 size=8 stack=0x400000 icount=100"
			" | icount 105 | free_block addr=0x5000 size=0 stack=0x401100,0x401200,0x400300 icount=105"
			" | free_block addr=0x5040 size=0 stack=0x401180,0x401200,0x400300 icount=105"
			" | icount 106 | malloc_block addr=%s size=0 stack= icount=106",
			ws == 4 ? "0xffffffff" : "0xffffffffffffffff");
		tu_check(n == 0 && strcmp(got, want) == 0,
			 "heap records, %d-byte words: %s %s", ws, got, n < 0 ? err : "");
		tu_check(n == 0 && read_all(w.buf, w.len, err, sizeof err, &n) == 0,
			 "heap records, %d-byte words: a complete log %s", ws, err);
		dgwrite_release(&w);
	}

	/* the first record's prediction is the empty stack's own */
	base(&w, 2);
	dgwrite_heap(&w, DG_R_HEAP_FREE, 0, DG_HEAP_PREDICTED, 0, 0, NULL, 0x10, 0);
	n = heap_lines(&w, got, sizeof got, err, sizeof err);
	tu_check(n == 0 && strcmp(got, "free_block addr=0x10 size=0 stack= icount=0") == 0,
		 "heap: a first predicted stack is the empty one: %s %s", got, err);
	dgwrite_release(&w);

	base(&w, 2);
	dgwrite_heap(&w, DG_R_HEAP_MALLOC, 0, DG_HEAP_INDEX + 1, 0, 0, NULL, 0, 1);
	expect_error("heap stack not defined", &w, "refers to heap stack 1, only 1 defined");
	dgwrite_release(&w);
	base(&w, 2);
	dgwrite_heap(&w, DG_R_HEAP_FREE, 0, DG_HEAP_NEW, 2, 1, deep, 0, 0);
	expect_error("heap stack on an undefined parent", &w,
		     "a new heap stack on heap stack 2, only 1 defined");
	dgwrite_release(&w);
	base(&w, 2);
	dgwrite_heap(&w, DG_R_HEAP_FREE, 0, DG_HEAP_NEW, 0, 0, NULL, 0, 0);
	expect_error("heap stack of no new frames", &w, "0 new frames on a heap stack of 0");
	dgwrite_release(&w);
	/* 500 frames in one definition, then one more on top */
	{
		static uint64_t d500[500];
		base(&w, 2);
		for (int i = 0; i < 500; i++)
			d500[i] = 4;
		dgwrite_heap(&w, DG_R_HEAP_MALLOC, 0, DG_HEAP_NEW, 0, 500, d500, 0, 1);
		dgwrite_fini(&w, 0, 0, 0, w.n_records, 0);
		tu_check(read_all(w.buf, w.len, err, sizeof err, &n) == 0,
			 "heap stack of 500 frames: %s", err);
		dgwrite_release(&w);
		base(&w, 2);
		dgwrite_heap(&w, DG_R_HEAP_MALLOC, 0, DG_HEAP_NEW, 0, 500, d500, 0, 1);
		dgwrite_heap(&w, DG_R_HEAP_MALLOC, 0, DG_HEAP_NEW, 500, 1, deep, 0, 1);
		expect_error("heap stack of 501 frames", &w, "1 new frames on a heap stack of 500");
		dgwrite_release(&w);
	}
	for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++)
		bad_payload(cut[i].what, cut[i].type, cut[i].p, cut[i].n, cut[i].want);
}

int main(void)
{
	test_round_trips();
	for (int e = 0; e <= 1; e++)
		for (int ws = 4; ws <= 8; ws += 4)
			for (int ch = 0; ch <= 1; ch++)
				test_prediction(e, ws, ch);
	test_chains_smaller();
	test_chain_errors();
	test_ctxref();
	test_heap();
	for (int v = 1; v <= 2; v++)
		for (int e = 0; e <= 1; e++)
			for (int ws = 4; ws <= 8; ws += 4)
				for (int l = 0; l <= 1; l++)
					test_truncations(v, e, ws, l);
	test_fd_and_big();
	test_pipe();
	test_header_errors();
	test_reference_errors();
	test_bbdef_errors();
	test_payload_errors();
	test_framing_errors();
	test_completeness();
	test_v1_quirks();
	test_mutations();
	return tu_failed;
}
