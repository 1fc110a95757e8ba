/* dg-dump: print a Datagrind log as text, one line per record, per access
 * or per heap block, or as statistics; or only check it.
 *
 * A thin program over lib/dglog: the reader decodes and checks, this file
 * chooses a mode and formats.  Formatting is by hand into one large buffer
 * because --accesses prints a line for each of hundreds of millions of
 * accesses; printf per field would make the dump CPU-bound.
 *
 * Exit codes: 0 good, 1 bad or truncated log (or an output error),
 * 2 usage.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dg-dump.h"
#include "dgesc.h"

#define DG_DUMP_VERSION "0.1.0"

static const char usage_text[] =
"usage: dg-dump [MODE] FILE\n"
"\n"
"Print the Datagrind log FILE (\"-\" reads standard input) as text.\n"
"Logs of format version 1 (2010) and 2 are read, in either byte order and\n"
"word size.\n"
"\n"
"Modes (one at most; --records is the default):\n"
"  --records    one line per record; a BBRUNS record is printed as one\n"
"               'run' line per run, with thread, instruction count at the\n"
"               run's start, context, bbdef, instructions run and the\n"
"               addresses\n"
"  --accesses   one line per data access:\n"
"                   THREAD ICOUNT PC R|W SIZE ADDR\n"
"               ICOUNT is the instruction count of the accessing\n"
"               instruction, PC its address; guarded accesses that were\n"
"               not made (address 0) are left out\n"
"  --stats      'key value' lines: version word_size endian records bbdefs\n"
"               contexts runs accesses reads writes read_bytes write_bytes\n"
"               icount threads mallocs frees track_ranges untrack_ranges\n"
"               start_events end_events mmaps munmaps unknown_records\n"
"               complete.  'records' counts every record in the file (a\n"
"               BBRUNS once); 'accesses' the accesses made (reads +\n"
"               writes); 'icount' is FINI's count when there is one;\n"
"               'threads' the distinct thread ids seen in THREAD records\n"
"               and runs; 'complete' is 1 when a FINI record is present\n"
"               and its runs, accesses and records match the log (never\n"
"               for version 1); a log whose FINI totals disagree with it\n"
"               is corrupt (exit 1)\n"
"  --blocks     one line per heap block (MALLOC_BLOCK), in allocation\n"
"               order:\n"
"                   ADDR SIZE ALLOC_ICOUNT FREE_ICOUNT|- READS WRITES\n"
"                   READ_BYTES WRITE_BYTES FRAMES\n"
"               counting the accesses whose address lies in the block\n"
"               while it is live (from its MALLOC_BLOCK to the FREE_BLOCK\n"
"               of its address; FREE_ICOUNT is - if it was never freed);\n"
"               FRAMES is the allocation stack, innermost first,\n"
"               comma-separated, or - when empty\n"
"  --sizes      'TYPE RECORDS BYTES' lines: the records of each type in\n"
"               the file and the bytes they take (type byte, length and\n"
"               payload; a BBRUNS once), by type number, unknown types as\n"
"               type_N; then 'total RECORDS BYTES'\n"
"  --check      read and check the whole log and print nothing; a\n"
"               version 2 log must end with a FINI record whose totals\n"
"               match\n"
"\n"
"Other options:\n"
"  -h, --help     print this help and exit\n"
"  --version      print the version and exit\n"
"\n"
"Numbers are decimal; addresses are hexadecimal with 0x.\n"
"\n"
"Exit status: 0 the log is good; 1 the log is bad or truncated (the\n"
"message 'dg-dump: FILE: byte N: record #K (TYPE): ...' goes to standard\n"
"error, after whatever the mode decoded up to that point), or output\n"
"failed; 2 usage error.\n";

/* ------------------------------------------------------------ output */

#define OUT_CAP (1u << 20)
static char out_buf[OUT_CAP];
static size_t out_n;
static int out_err;

int out_flush(void)
{
	size_t done = 0;

	while (done < out_n && !out_err) {
		ssize_t w = write(1, out_buf + done, out_n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			out_err = errno ? errno : EIO;
		else
			done += (size_t)w;
	}
	out_n = 0;
	return out_err ? -1 : 0;
}

static inline void out_room(size_t n)
{
	if (OUT_CAP - out_n < n)
		out_flush();
}

void out_bytes(const char *s, size_t n)
{
	while (n > 0) {
		size_t k;
		out_room(1);
		k = OUT_CAP - out_n < n ? OUT_CAP - out_n : n;
		memcpy(out_buf + out_n, s, k);
		out_n += k;
		s += k;
		n -= k;
	}
}

void out_str(const char *s)
{
	out_bytes(s, strlen(s));
}

void out_char(char c)
{
	out_room(1);
	out_buf[out_n++] = c;
}

char *out_reserve(size_t n)
{
	out_room(n);
	return out_buf + out_n;
}

void out_commit(char *p)
{
	out_n = (size_t)(p - out_buf);
}

/* Two digits per division: the instruction counts of --accesses are long. */
char *fmt_dec(char *p, uint64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char tmp[20];
	int n = 20;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;
		v /= 100;
		tmp[--n] = pairs[d + 1];
		tmp[--n] = pairs[d];
	}
	if (v >= 10) {
		tmp[--n] = pairs[v * 2 + 1];
		tmp[--n] = pairs[v * 2];
	} else {
		tmp[--n] = (char)('0' + v);
	}
	memcpy(p, tmp + n, 20 - n);
	return p + 20 - n;
}

char *fmt_hex(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	int nd = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;

	*p++ = '0';
	*p++ = 'x';
	for (int i = nd - 1; i >= 0; i--) {
		p[i] = digits[v & 15];
		v >>= 4;
	}
	return p + nd;
}

void out_dec(uint64_t v)
{
	out_commit(fmt_dec(out_reserve(20), v));
}

void out_hex(uint64_t v)
{
	out_commit(fmt_hex(out_reserve(18), v));
}

/* A string in double quotes, escaped by dgesc (the one escaper of every
   reader, dgesc.h): " and \ with a backslash, controls and bytes outside
   valid UTF-8 as \xHH. */
static void out_quoted(const char *s)
{
	char *e = dgesc_text(s, strlen(s), DGESC_DQUOTE);

	out_char('"');
	out_str(e ? e : "(out of memory)");
	out_char('"');
	free(e);
}

static void out_key(const char *key, uint64_t v)
{
	out_char(' ');
	out_str(key);
	out_char('=');
	out_dec(v);
}

static void out_keyhex(const char *key, uint64_t v)
{
	out_char(' ');
	out_str(key);
	out_char('=');
	out_hex(v);
}

static void out_keystr(const char *key, const char *s)
{
	out_char(' ');
	out_str(key);
	out_char('=');
	out_quoted(s);
}

static void out_hexlist(const char *key, const uint64_t *v, uint64_t n)
{
	out_char(' ');
	out_str(key);
	out_char('=');
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			out_char(',');
		out_hex(v[i]);
	}
}

/* ------------------------------------------------------------ --records */

static void pr_header(const struct dglog_record *rec)
{
	out_key("version", rec->u.header.version);
	out_key("endian", rec->u.header.endian);
	out_key("word_size", rec->u.header.word_size);
}

static void pr_range(const struct dglog_record *rec)
{
	out_keyhex("addr", rec->u.range.addr);
	out_key("len", rec->u.range.len);
	if (rec->type == DG_R_TRACK_RANGE) {
		out_keystr("type", rec->u.range.type_name);
		out_keystr("label", rec->u.range.label);
	}
}

static void pr_event(const struct dglog_record *rec)
{
	out_keystr("label", rec->u.event.label);
}

static void pr_text_avma(const struct dglog_record *rec)
{
	out_keyhex("addr", rec->u.text_avma.addr);
	out_keystr("path", rec->u.text_avma.path);
}

static void pr_block(const struct dglog_record *rec)
{
	const struct dglog_block *b = &rec->u.block;

	out_keyhex("addr", b->addr);
	if (rec->type == DG_R_MALLOC_BLOCK)
		out_key("size", b->size);
	out_hexlist("stack", b->ips, b->n_ips);
}

static void pr_bbdef(const struct dglog_record *rec)
{
	const struct dglog_bbdef *d = rec->u.def.bbdef;

	out_key("index", rec->u.def.index);
	out_key("exit", d->exit_kind);
	out_str(" instrs=");
	for (uint32_t i = 0; i < d->n_instrs; i++) {
		if (i)
			out_char(',');
		out_hex(d->instrs[i].addr);
		out_char('/');
		out_dec(d->instrs[i].size);
	}
	out_str(" accesses=");
	for (uint32_t i = 0; i < d->n_accesses; i++) {
		const struct dglog_access *a = &d->accesses[i];
		if (i)
			out_char(',');
		out_char(a->dir == DG_ACC_WRITE ? 'W' : 'R');
		out_dec(a->size);
		out_char('@');
		out_dec(a->iseq);
		if (a->flags & DG_AF_GUARDED)
			out_char('g');
		if (a->flags & DG_AF_CLAMPED)
			out_char('c');
	}
}

static void pr_context(const struct dglog_record *rec)
{
	const struct dglog_context *x = rec->u.def.context;

	out_key("index", rec->u.def.index);
	out_key("bbdef", x->bbdef);
	out_hexlist("stack", x->stack, x->depth);
}

static void pr_run(const struct dglog_record *rec)
{
	const struct dglog_run *u = &rec->u.run;

	out_key("thread", u->thread);
	out_key("icount", u->icount_start);
	out_key("context", u->context);
	out_key("bbdef", u->bbdef);
	out_key("n_instrs", u->n_instrs);
	if (u->partial)
		out_str(" partial");
	out_hexlist("addrs", u->addrs, u->n_addrs);
}

static void pr_thread(const struct dglog_record *rec)
{
	out_key("tid", rec->u.thread.tid);
}

static void pr_mmap(const struct dglog_record *rec)
{
	const struct dglog_mmap *m = &rec->u.mmap;
	static const char digits[] = "0123456789abcdef";

	out_keyhex("start", m->start);
	out_key("len", m->len);
	if (rec->type == DG_R_MUNMAP)
		return;
	out_keyhex("offset", m->offset);
	out_keyhex("bias", m->bias);
	out_key("prot", m->prot);
	out_str(" build_id=");
	for (unsigned i = 0; i < m->build_id_len; i++) {
		out_char(digits[m->build_id[i] >> 4]);
		out_char(digits[m->build_id[i] & 15]);
	}
	out_keystr("path", m->path);
}

static void pr_process(const struct dglog_record *rec)
{
	const struct dglog_process *p = &rec->u.process;

	out_key("pid", p->pid);
	out_key("ppid", p->ppid);
	out_keystr("tool", p->tool);
	out_keystr("exe", p->exe);
	out_key("argc", p->argc);
	for (uint32_t i = 0; i < p->argc; i++) {
		out_char(' ');
		out_quoted(p->argv[i]);
	}
}

static void pr_icount(const struct dglog_record *rec)
{
	out_key("icount", rec->u.icount.icount);
}

static void pr_trace_state(const struct dglog_record *rec)
{
	out_key("on", rec->u.trace_state.on);
	out_key("reason", rec->u.trace_state.reason);
}

static void pr_fini(const struct dglog_record *rec)
{
	const struct dglog_fini *f = &rec->u.fini;

	out_key("icount", f->icount);
	out_key("runs", f->runs);
	out_key("accesses", f->accesses);
	out_key("records", f->records);
	out_key("dropped_runs", f->dropped_runs);
	out_key("end", f->end);
	out_key("status", f->status);
}

static void pr_unknown(const struct dglog_record *rec)
{
	out_key("type", (uint64_t)rec->file_type);
	out_key("len", rec->u.unknown.len);
}

typedef void (*printer_fn)(const struct dglog_record *);

static const printer_fn printers[DG_R_MAX_KNOWN + 1] = {
	[DG_R_HEADER] = pr_header,
	[DG_R_TRACK_RANGE] = pr_range,
	[DG_R_UNTRACK_RANGE] = pr_range,
	[DG_R_START_EVENT] = pr_event,
	[DG_R_END_EVENT] = pr_event,
	[DG_R_TEXT_AVMA] = pr_text_avma,
	[DG_R_MALLOC_BLOCK] = pr_block,
	[DG_R_FREE_BLOCK] = pr_block,
	[DG_R_BBDEF] = pr_bbdef,
	[DG_R_CONTEXT] = pr_context,
	[DG_R_THREAD] = pr_thread,
	[DG_R_MMAP] = pr_mmap,
	[DG_R_MUNMAP] = pr_mmap,
	[DG_R_PROCESS] = pr_process,
	[DG_R_ICOUNT] = pr_icount,
	[DG_R_TRACE_STATE] = pr_trace_state,
	[DG_R_FINI] = pr_fini,
};

static int dump_records(struct dglog *r)
{
	struct dglog_record rec;
	int n;

	while ((n = dglog_next(r, &rec)) > 0) {
		if (rec.type == DGLOG_RUN) {
			out_str("run");
			pr_run(&rec);
		} else if (rec.type == DGLOG_UNKNOWN) {
			out_str("unknown");
			pr_unknown(&rec);
		} else {
			out_str(dglog_type_name(rec.type));
			printers[rec.type](&rec);
		}
		out_char('\n');
	}
	return n;
}

/* ------------------------------------------------------------ --accesses */

/* thread, icount, pc, dir, size, addr, five blanks and a newline */
#define ACCESS_LINE_MAX (10 + 20 + 18 + 1 + 3 + 18 + 6)

static void print_run_accesses(struct dglog *r, const struct dglog_run *u)
{
	const struct dglog_bbdef *d = dglog_bbdef(r, u->bbdef);

	for (uint32_t i = 0; i < u->n_addrs; i++) {
		const struct dglog_access *a = &d->accesses[i];
		if (u->addrs[i] == 0 && (a->flags & DG_AF_GUARDED))
			continue;
		char *p = out_reserve(ACCESS_LINE_MAX);
		p = fmt_dec(p, u->thread);
		*p++ = ' ';
		p = fmt_dec(p, u->icount_start + a->iseq);
		*p++ = ' ';
		p = fmt_hex(p, d->instrs[a->iseq].addr);
		*p++ = ' ';
		*p++ = a->dir == DG_ACC_WRITE ? 'W' : 'R';
		*p++ = ' ';
		p = fmt_dec(p, a->size);
		*p++ = ' ';
		p = fmt_hex(p, u->addrs[i]);
		*p++ = '\n';
		out_commit(p);
	}
}

static int dump_accesses(struct dglog *r)
{
	struct dglog_record rec;
	int n;

	while ((n = dglog_next(r, &rec)) > 0)
		if (rec.type == DGLOG_RUN)
			print_run_accesses(r, &rec.u.run);
	return n;
}

/* ------------------------------------------------------------ --stats */

struct stats {
	uint64_t reads, writes, read_bytes, write_bytes;
	uint64_t by_type[DG_R_MAX_KNOWN + 1];
	uint32_t *tids;
	size_t n_tids, tids_cap;
	uint32_t last_tid;
	int have_tid;
};

static void note_tid(struct stats *s, uint32_t tid)
{
	if (s->have_tid && tid == s->last_tid)
		return;
	s->have_tid = 1;
	s->last_tid = tid;
	for (size_t i = 0; i < s->n_tids; i++)
		if (s->tids[i] == tid)
			return;
	if (s->n_tids == s->tids_cap) {
		size_t cap = s->tids_cap ? 2 * s->tids_cap : 16;
		uint32_t *t = realloc(s->tids, cap * sizeof *t);
		if (!t)
			return;         /* a short count beats dying */
		s->tids = t;
		s->tids_cap = cap;
	}
	s->tids[s->n_tids++] = tid;
}

static void count_run(struct dglog *r, struct stats *s, const struct dglog_run *u)
{
	const struct dglog_bbdef *d = dglog_bbdef(r, u->bbdef);

	note_tid(s, u->thread);
	for (uint32_t i = 0; i < u->n_addrs; i++) {
		const struct dglog_access *a = &d->accesses[i];
		if (u->addrs[i] == 0 && (a->flags & DG_AF_GUARDED))
			continue;
		if (a->dir == DG_ACC_WRITE) {
			s->writes++;
			s->write_bytes += a->size;
		} else {
			s->reads++;
			s->read_bytes += a->size;
		}
	}
}

static void stat_line(const char *key, uint64_t v)
{
	out_str(key);
	out_char(' ');
	out_dec(v);
	out_char('\n');
}

static void print_stats(struct dglog *r, const struct stats *s, int complete)
{
	stat_line("version", r->version);
	stat_line("word_size", r->word_size);
	stat_line("endian", r->endian);
	stat_line("records", r->n_records);
	stat_line("bbdefs", r->n_bbdefs);
	stat_line("contexts", r->n_contexts);
	stat_line("runs", r->n_runs);
	stat_line("accesses", s->reads + s->writes);
	stat_line("reads", s->reads);
	stat_line("writes", s->writes);
	stat_line("read_bytes", s->read_bytes);
	stat_line("write_bytes", s->write_bytes);
	stat_line("icount", r->saw_fini ? r->fini.icount : r->icount);
	stat_line("threads", s->n_tids);
	stat_line("mallocs", s->by_type[DG_R_MALLOC_BLOCK]);
	stat_line("frees", s->by_type[DG_R_FREE_BLOCK]);
	stat_line("track_ranges", s->by_type[DG_R_TRACK_RANGE]);
	stat_line("untrack_ranges", s->by_type[DG_R_UNTRACK_RANGE]);
	stat_line("start_events", s->by_type[DG_R_START_EVENT]);
	stat_line("end_events", s->by_type[DG_R_END_EVENT]);
	stat_line("mmaps", s->by_type[DG_R_MMAP]);
	stat_line("munmaps", s->by_type[DG_R_MUNMAP]);
	stat_line("unknown_records", r->n_unknown);
	stat_line("complete", complete);
}

static int dump_stats(struct dglog *r)
{
	struct dglog_record rec;
	struct stats s;
	int n, complete = 0;

	memset(&s, 0, sizeof s);
	while ((n = dglog_next(r, &rec)) > 0) {
		if (rec.type == DGLOG_RUN)
			count_run(r, &s, &rec.u.run);
		else if (rec.type <= DG_R_MAX_KNOWN)
			s.by_type[rec.type]++;
		if (rec.type == DG_R_THREAD)
			note_tid(&s, rec.u.thread.tid);
	}
	/* a log that merely ends early is complete 0; one whose FINI
	   disagrees with it (or that hides its FINI) is corrupt: an error */
	if (n == 0 && r->version >= 2) {
		complete = dglog_check_complete(r) == 0;
		if (!complete && !r->truncated)
			n = -1;
	}
	print_stats(r, &s, complete);
	free(s.tids);
	return n;
}

/* ------------------------------------------------------------ --sizes */

/* Records and file bytes by the type byte in the file: what a log spends
   on what.  A BBRUNS or BBCHAINS counts once, with its first run. */
static int dump_sizes(struct dglog *r)
{
	static uint64_t n[256], bytes[256];
	struct dglog_record rec;
	uint64_t seen = 0, tn = 0, tb = 0;
	int k;

	while ((k = dglog_next(r, &rec)) > 0) {
		if (r->n_records == seen)
			continue;       /* another run of the same record */
		seen = r->n_records;
		n[rec.file_type & 255]++;
		bytes[rec.file_type & 255] += r->rec_bytes;
	}
	for (int t = 0; t < 256; t++) {
		if (!n[t])
			continue;
		if (t <= DG_R_MAX_KNOWN && strcmp(dglog_type_name(t), "unknown")) {
			out_str(dglog_type_name(t));
		} else {
			out_str("type_");
			out_dec((uint64_t)t);
		}
		out_char(' ');
		out_dec(n[t]);
		out_char(' ');
		out_dec(bytes[t]);
		out_char('\n');
		tn += n[t];
		tb += bytes[t];
	}
	out_str("total ");
	out_dec(tn);
	out_char(' ');
	out_dec(tb);
	out_char('\n');
	return k;
}

/* ------------------------------------------------------------ --check */

static int dump_check(struct dglog *r)
{
	struct dglog_record rec;
	int n;

	while ((n = dglog_next(r, &rec)) > 0)
		;
	if (n == 0 && r->version >= 2)
		n = dglog_check_complete(r);
	return n;
}

/* ------------------------------------------------------------ main */

typedef int (*mode_fn)(struct dglog *);

static const struct mode {
	const char *opt;
	mode_fn fn;
} modes[] = {
	{ "--records", dump_records },
	{ "--accesses", dump_accesses },
	{ "--stats", dump_stats },
	{ "--blocks", dump_blocks },
	{ "--sizes", dump_sizes },
	{ "--check", dump_check },
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "dg-dump: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'dg-dump --help' for more information.\n");
	return 2;
}

static const struct mode *find_mode(const char *opt)
{
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(opt, modes[i].opt) == 0)
			return &modes[i];
	return NULL;
}

static int run(const struct mode *m, const char *path)
{
	struct dglog r;
	char err[DGLOG_ERRLEN];
	int n;

	if (dglog_open(&r, path, err, sizeof err) < 0) {
		fprintf(stderr, "dg-dump: %s\n", err);
		dglog_close(&r);
		return 1;
	}
	n = m->fn(&r);
	if (out_flush() < 0) {
		fprintf(stderr, "dg-dump: write error: %s\n", strerror(out_err));
		dglog_close(&r);
		return 1;
	}
	if (n < 0)
		fprintf(stderr, "dg-dump: %s\n", r.err);
	dglog_close(&r);
	return n < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct mode *m = NULL;
	const char *path = NULL;
	int opts_done = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!opts_done && strcmp(a, "--") == 0) {
			opts_done = 1;
		} else if (!opts_done && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!opts_done && strcmp(a, "--version") == 0) {
			puts("dg-dump " DG_DUMP_VERSION);
			return 0;
		} else if (!opts_done && a[0] == '-' && a[1] == '-') {
			if (m)
				return usage_error("only one mode at a time (%s)", a);
			if (!(m = find_mode(a)))
				return usage_error("unknown option '%s'", a);
		} else if (!opts_done && a[0] == '-' && a[1] != '\0') {
			return usage_error("unknown option '%s'", a);
		} else if (path) {
			return usage_error("one file only ('%s' is one too many)", a);
		} else {
			path = a;
		}
	}
	if (!path)
		return usage_error("%s", "no log file given");
	return run(m ? m : &modes[0], path);
}
