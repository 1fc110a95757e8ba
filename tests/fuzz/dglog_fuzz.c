/* dglog_fuzz.c: libFuzzer target for the log reader.  The input bytes are
 * read as a log through dglog_open_mem, the same code path as files (only
 * the buffer filling differs), and every record is used the way dg-dump
 * uses it: each access of a run looks up its bbdef, instruction and size.
 * A bad log must end in an error, never in a crash or a sanitizer report.
 *
 * Each input is read twice, from memory and through a descriptor with a
 * tiny read buffer (built with -DDGLOG_BUF_INITIAL=64), and both readings
 * must agree.
 *
 * Build and run: make fuzz FUZZ=dglog (tests/fuzz/fuzz.mk); make test
 * replays its corpus tests/fuzz/dglog/ (tests/t0190-fuzz-corpus.sh).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dglog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t sink;

static void use_run(const struct dglog *r, const struct dglog_run *u)
{
	const struct dglog_context *x = dglog_context(r, u->context);
	const struct dglog_bbdef *d = dglog_bbdef(r, u->bbdef);

	if (!x || !d || x->bbdef != u->bbdef || u->n_addrs > d->n_accesses
	    || u->n_instrs > d->n_instrs)
		__builtin_trap();       /* the reader promised otherwise */
	for (uint32_t i = 0; i < u->n_addrs; i++) {
		const struct dglog_access *a = &d->accesses[i];
		if (a->iseq >= u->n_instrs)
			__builtin_trap();
		sink += u->addrs[i] + d->instrs[a->iseq].addr + a->size + a->dir;
	}
}

static void use_record(const struct dglog *r, const struct dglog_record *rec)
{
	switch (rec->type) {
	case DGLOG_RUN:
		use_run(r, &rec->u.run);
		break;
	case DG_R_MALLOC_BLOCK:
	case DG_R_FREE_BLOCK:
		for (uint64_t i = 0; i < rec->u.block.n_ips; i++)
			sink += rec->u.block.ips[i];
		break;
	case DG_R_PROCESS:
		for (uint32_t i = 0; i < rec->u.process.argc; i++)
			sink += strlen(rec->u.process.argv[i]);
		sink += strlen(rec->u.process.tool) + strlen(rec->u.process.exe);
		break;
	case DG_R_MMAP:
		sink += strlen(rec->u.mmap.path) + rec->u.mmap.build_id_len;
		break;
	case DG_R_TRACK_RANGE:
		sink += strlen(rec->u.range.type_name) + strlen(rec->u.range.label);
		break;
	case DG_R_CONTEXT:
		for (uint32_t i = 0; i < rec->u.def.context->depth; i++)
			sink += rec->u.def.context->stack[i];
		break;
	default:
		break;
	}
}

/* Read a whole log; returns the last dglog_next result and fills a
 * summary of what was read. */
struct summary {
	int n;
	uint64_t records, runs, accesses;
	char err[DGLOG_ERRLEN];
};

static void read_log(struct dglog *r, int open_rc, struct summary *s)
{
	struct dglog_record rec;

	memset(s, 0, sizeof s[0]);
	s->n = -2;
	if (open_rc == 0) {
		while ((s->n = dglog_next(r, &rec)) > 0)
			use_record(r, &rec);
		if (s->n == 0)
			(void)dglog_check_complete(r);
		else if (strncmp(r->err, "fuzz: ", 6) != 0)
			__builtin_trap();       /* every message names the file */
	}
	s->records = r->n_records;
	s->runs = r->n_runs;
	s->accesses = r->n_accesses;
	memcpy(s->err, r->err, sizeof s->err);
	dglog_close(r);
}

/* The same bytes through a descriptor (a memfd): the buffer-filling path,
 * which must see exactly what the memory path sees. */
static int open_memfd(struct dglog *r, const uint8_t *data, size_t size,
		      int *fd)
{
	char err[DGLOG_ERRLEN];

	*fd = memfd_create("fuzz", 0);
	if (*fd < 0 || write(*fd, data, size) != (ssize_t)size
	    || lseek(*fd, 0, SEEK_SET) != 0)
		return -2;
	return dglog_open_fd(r, *fd, "fuzz", err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct summary a, b;
	struct dglog r;
	char err[DGLOG_ERRLEN];
	int fd, rc;

	rc = dglog_open_mem(&r, data, size, "fuzz", err, sizeof err);
	read_log(&r, rc, &a);
	rc = open_memfd(&r, data, size, &fd);
	if (rc == -2) {
		if (fd >= 0)
			close(fd);
		return 0;               /* no memfd here: nothing to compare */
	}
	read_log(&r, rc, &b);
	close(fd);
	if (a.n != b.n || a.records != b.records || a.runs != b.runs
	    || a.accesses != b.accesses || strcmp(a.err, b.err) != 0)
		__builtin_trap();
	return 0;
}
