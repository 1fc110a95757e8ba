/* terms.h: WHERE clauses that lib/dgvtab evaluates in C, read from SQL
 * text — a user's statement (count.h) and the condition of the
 * filtered_accesses view that dgfilter installs (count.h, cache.h,
 * export.h), so that what the view holds can be scanned or counted
 * without SQLite's row loop.
 *
 * Promise: terms_read reads `TERM [AND TERM]...`, each TERM
 * `COLUMN OP INTEGER` or `INTEGER OP COLUMN` (OP one of = == < <= > >=,
 * INTEGER decimal or 0x hex as SQLite reads it, the column one the table
 * takes: dgvtab_term_taken) or `stack_filter = 'dgf_ev'` (dgfilter's
 * call-stack set; no other name).  terms_of_filter reads the installed
 * view's condition the same way.  Nothing here owns memory: a stack term's
 * text is a string constant.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_TERMS_H
#define DGSQL_TERMS_H

#include <sqlite3.h>

#include "dgvtab.h"

/* TERM [AND TERM]... appended to terms[*n..] (room for
   DGVTAB_COUNT_TERMS in all): the text after them, or NULL when one is
   not a term the table takes or there are too many. */
const char *terms_read(const char *s, struct dgvtab_term *terms, int *n);

/* The SQL of an operator of a term (terms_read reads it back), or NULL. */
const char *terms_op_text(unsigned char op);

/* What the installed filter is, read from filtered_accesses' condition. */
enum terms_filter {
	TERMS_NOT_OURS,         /* no dgfilter view, or one hidden by the user's */
	TERMS_ALL,              /* its condition is terms, appended */
	TERMS_USER,             /* --events user: alone, then terms, appended:
	                           the intervals of temp.dgf_ev_iv */
	TERMS_OTHER             /* anything else (SQL the table does not take) */
};

/* The view's condition appended to terms[*n..] as terms_read reads it. */
enum terms_filter terms_of_filter(sqlite3 *db, struct dgvtab_term *terms, int *n);

/* Whether one of the n terms is on stack_filter. */
int terms_have_stack(const struct dgvtab_term *terms, int n);

#endif
