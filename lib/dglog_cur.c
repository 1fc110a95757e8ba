/* dglog_cur.c: the log reader's messages; see dglog_cur.h.  The cursor
 * itself is static inline there.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dglog_cur.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const type_names[DG_R_MAX_KNOWN + 1] = {
	[DG_R_HEADER] = "header",
	[DG_R_TRACK_RANGE] = "track_range",
	[DG_R_UNTRACK_RANGE] = "untrack_range",
	[DG_R_START_EVENT] = "start_event",
	[DG_R_END_EVENT] = "end_event",
	[DG_R_TEXT_AVMA] = "text_avma",
	[DG_R_MALLOC_BLOCK] = "malloc_block",
	[DG_R_FREE_BLOCK] = "free_block",
	[DG_R_BBDEF] = "bbdef",
	[DG_R_BBRUN] = "bbrun",
	[DG_R_CONTEXT] = "context",
	[DG_R_BBRUNS] = "bbruns",
	[DG_R_BBCHAINS] = "bbchains",
	[DG_R_CTXREF] = "ctxref",
	[DG_R_HEAP_MALLOC] = "heap_malloc",
	[DG_R_HEAP_FREE] = "heap_free",
	[DG_R_THREAD] = "thread",
	[DG_R_MMAP] = "mmap",
	[DG_R_MUNMAP] = "munmap",
	[DG_R_PROCESS] = "process",
	[DG_R_ICOUNT] = "icount",
	[DG_R_TRACE_STATE] = "trace_state",
	[DG_R_FINI] = "fini",
};

const char *dglog_known_type_name(int file_type)
{
	if (file_type < 0 || file_type > DG_R_MAX_KNOWN)
		return NULL;
	return type_names[file_type];
}

/* Where the reader is: the record being read, or the run in it. */
static struct dglog_where where_now(const struct dglog *r)
{
	struct dglog_where w;

	w.off = r->rec_off;
	w.number = r->rec_number;
	w.type = r->rec_type;
	w.in_run = r->runs != NULL;
	w.run = r->runs_n;
	if (w.in_run)
		w.off = r->run_off;
	return w;
}

static int vfail(struct dglog *r, const struct dglog_where *w,
		 const char *fmt, va_list ap)
{
	const char *name = dglog_known_type_name(w->type);
	char tname[32];
	int n;

	if (name)
		snprintf(tname, sizeof tname, "%s", name);
	else
		snprintf(tname, sizeof tname, "type %d", w->type);
	n = snprintf(r->err, sizeof r->err, "%s: byte %llu: record #%llu (%s): ",
		     r->name, (unsigned long long)w->off,
		     (unsigned long long)w->number, tname);
	if (w->in_run && n >= 0 && (size_t)n < sizeof r->err)
		n += snprintf(r->err + n, sizeof r->err - n, "run %llu: ",
			      (unsigned long long)w->run);
	if (n >= 0 && (size_t)n < sizeof r->err)
		vsnprintf(r->err + n, sizeof r->err - n, fmt, ap);
	return -1;
}

int dglog_fail(struct dglog *r, const char *fmt, ...)
{
	struct dglog_where w = where_now(r);
	va_list ap;

	va_start(ap, fmt);
	vfail(r, &w, fmt, ap);
	va_end(ap);
	return -1;
}

int dglog_fail_at(struct dglog *r, const struct dglog_where *w,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, w, fmt, ap);
	va_end(ap);
	return -1;
}

int dglog_fail_file(struct dglog *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof r->err, "%s: ", r->name);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof r->err)
		vsnprintf(r->err + n, sizeof r->err - n, fmt, ap);
	va_end(ap);
	return -1;
}

int dglog_fail_codec(struct dglog *r, int e, const char *what)
{
	static const char *const text[] = {
		[-DGC_E_END] = "payload ends inside %s",
		[-DGC_E_OVERFLOW] = "%s: leb128 overflows 64 bits",
		[-DGC_E_LONG] = "%s: leb128 longer than 10 bytes",
	};

	return dglog_fail(r, text[-e], what);
}
