/* dgfilter.h: dg_view's --events / --ranges filters, compiled to SQL.
 *
 * Promise: dgfilter_install (re)defines the TEMP VIEW filtered_accesses
 * (the columns of `accesses`) holding the accesses that match at least one
 * --events condition and at least one --ranges condition (an absent list
 * matches everything).  Conditions, comma-separated:
 *
 *   fn:NAME    --events: a function of the call stack (the access's pc
 *              with its inline chain, and the context's caller frames);
 *              --ranges: of the heap block's allocation stack.  NAME is a
 *              plain or qualified name, matched with or without its
 *              argument list, or a glob (fn:qsort*)
 *   file:PATH  the same, by source file (suffix on a / boundary, or glob)
 *   dso:PATH   the same, by module file (suffix or glob)
 *   user:LABEL --events: icount inside a START/END_EVENT(LABEL) interval;
 *              --ranges: addr inside a range tracked with LABEL, at the
 *              access's icount
 *   range      --ranges only: inside any tracked range, while tracked
 *   malloc     --ranges only: inside a live heap block
 *   field:TYPE.PATH  --ranges only: inside field PATH (a glob too) of
 *              TYPE ("struct item" or "item") where the trace placed it:
 *              a tracked range typed TYPE (offsets modulo its size), a
 *              variable of TYPE (schema 6 tables types, fields, variables);
 *              with it, the TEMP VIEW filtered_fields is filtered_accesses
 *              with the field_id of each (in overlapping fields, a
 *              union's or bit-fields', the first declared, as sum_field)
 *
 * The stack conditions are evaluated once per install into TEMP tables
 * (dgf_ev_pcs, dgf_ev_ctx, dgf_rg_blk ...); when --events holds only
 * such conditions they reach `accesses` as stack_filter = 'dgf_ev', which
 * the virtual table evaluates in C (dgvtab.h), else as SQL; user: and
 * range conditions add icount and addr bounds, so the
 * virtual table decodes only the chunks that can match.  A malformed list
 * is an error naming the condition; nothing is changed then.
 *
 * It also defines the SQL function dg_filtered(): 1 while a filter is
 * installed, 0 when filtered_accesses is every access (queries may then
 * read the summary tables instead).
 *
 * And dg_summed(): 1 when the TEMP VIEW filtered_sum(thread, pc,
 * module_id, is_write, accesses, bytes) holds the counts of
 * filtered_accesses by thread, code address (pc, module_id: join pcs on
 * both) and direction, computed from the summaries (schema.sql) without
 * decoding: from sum_ctx with no filter, or with only fn:/file:/dso: in
 * --events, on a database that has sum_ctx; from sum_heap with only
 * `malloc` in --ranges, on one that has it.  Else filtered_sum is empty.
 * The TEMP VIEW filtered_sum_rows(thread, is_write, accesses) holds the
 * rows filtered_sum adds up, before grouping: its sum is filtered_accesses'
 * count at the cost of the join alone (dgsql's count path).
 * dg_user_filtered(): 1 when the filter is user: conditions alone in
 * --events, so that filtered_accesses is the accesses inside the merged
 * intervals of temp.dgf_ev_iv (lib/dgiv.h reads them in C).
 * dg_ctx_summed(): 1 when the TEMP VIEW filtered_ctx(context_id,
 * accesses, bytes) holds the same counts by context: from sum_ctx, as
 * above (not from sum_heap, which has no contexts); else it is empty.
 * With it, the TEMP VIEW filtered_span(thread, first_icount, last_icount)
 * gives each thread's first and last matching access: from `threads` or
 * sum_heap_threads, else (call-stack filters) decoding only the first and
 * last chunks that can hold them.  dg_windowed(): 1 when the
 * TEMP VIEW filtered_windows(window_start, accesses, lines, pages) holds
 * the working set per 100 000 instructions of filtered_accesses: no filter
 * (sum_windows, on a database that has it), or only dso: conditions in
 * --events, or only malloc in --ranges (sum_window_class, schema 8: the
 * rows whose access class matches), or other call-stack conditions
 * alone (fn:, file:, dso: in --events), or user: alone in --events, on
 * a database with sum_windows (lib/dgfsum.h's dgf_stack_windows,
 * dgf_user_windows, which the connection must have registered); else
 * the view is empty.  dg_paged(): 1 when the TEMP
 * VIEWs filtered_lines(line, reads, writes) and filtered_pages(page,
 * reads, writes, lines) hold filtered_accesses by 64-byte line and 4 KiB
 * page (lines: how many distinct lines of the page it touched): no
 * filter (sum_lines, sum_pages), or the same filters (sum_line_class;
 * dgf_stack_lines, dgf_user_lines); else they are empty.  A dso: filter is not answered
 * by class on a trace with code of no module (pcs.module_id 0), which
 * dso: matches by address: dgfsum answers it.
 *
 * Ownership: a struct dgfilter is the caller's (dgfilter_free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGFILTER_H
#define DGFILTER_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

struct dgfilter;

/* Parses the two lists (NULL or "" when absent).  0, or -1 with *err
   (sqlite3_free). */
int dgfilter_parse(const char *events, const char *ranges,
		   struct dgfilter **out, char **err);
void dgfilter_free(struct dgfilter *f);

/* Narrows f to the accesses with icount (is_addr 0) or addr (is_addr 1)
   in [lo, hi), dgsql's --icount-range / --addr-range for queries; f may
   hold no condition (dgfilter_parse(NULL, NULL)).  A zoomed filter is a
   filter: dg_filtered() is 1 and no summary answers for it (dg_summed(),
   dg_windowed() and dg_paged() 0); the bounds reach the virtual table,
   which decodes only the chunks in them. */
void dgfilter_zoom(struct dgfilter *f, int is_addr, int64_t lo, int64_t hi);

/* The name of --events' call-stack set: the view's condition
   stack_filter = 'dgf_ev' (dgsql's terms.h reads it back). */
#define DGFILTER_STACK_SET "dgf_ev"

/* The condition filtered_accesses puts on an access for --events user:
   (its icount inside one of the merged intervals of temp.dgf_ev_iv(lo,
   hi), [lo, hi)): dgsql's count path recognizes it by this text. */
#define DGFILTER_USER_COND "coalesce((SELECT hi FROM temp.dgf_ev_iv WHERE " \
	"lo <= icount ORDER BY lo DESC LIMIT 1) > icount, 0)"

/* Completing a condition (dgsql's TAB, the viewer's filter boxes).
   dgfilter_word(i, events): the i-th word a list takes ("fn:", "file:",
   ... "range", "malloc", "field:"; with events, those --events takes),
   NULL past the last.  dgfilter_names_sql(text, ...): when text starts
   with a word that takes a value, the SQL whose first column lists the
   values the open trace has for it (functions without argument lists,
   source files, modules, labels, TYPE.PATH fields), with *word_len the
   word's length and *base 1 when a path's base name matches too; else
   NULL. */
const char *dgfilter_word(size_t i, int events);
const char *dgfilter_names_sql(const char *text, size_t *word_len, int *base);

/* Defines filtered_accesses for f (NULL: every access).  0, or -1 with
   *err. */
int dgfilter_install(sqlite3 *db, const struct dgfilter *f, char **err);

#endif
