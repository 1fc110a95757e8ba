/* dglog_fuzz.c: libFuzzer target for the log reader.  The input bytes are
 * read as a log through dglog_open_mem, the same code path as files (only
 * the buffer filling differs), and every record is used the way dg-dump
 * uses it: each access of a run looks up its bbdef, instruction and size.
 * A bad log must end in an error, never in a crash or a sanitizer report.
 *
 * Build and run: make fuzz (tests/fuzz/fuzz.mk).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dglog r;
	struct dglog_record rec;
	char err[DGLOG_ERRLEN];
	int n;

	if (dglog_open_mem(&r, data, size, "fuzz", err, sizeof err) == 0) {
		while ((n = dglog_next(&r, &rec)) > 0)
			use_record(&r, &rec);
		if (n == 0)
			(void)dglog_check_complete(&r);
		else if (strncmp(r.err, "fuzz: ", 6) != 0)
			__builtin_trap();       /* every message names the file */
	}
	dglog_close(&r);
	return 0;
}
