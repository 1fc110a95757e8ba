/* dgctxset.h: which chunks a call-stack filter takes whole.
 *
 * Promise: dgctxset_classify reads the contexts dgfilter installed for
 * --events' call-stack conditions (temp.dgf_ev_ctx(id, whole): whole 1
 * when every access of the context passes) and each context's chunks
 * (context_chunks, schema 11 on; lib/dgctxch.c decodes its blobs), and
 * says per chunk id whether every access in it passes (DGCTXSET_WHOLE:
 * every context it holds is whole), none can (DGCTXSET_NONE: it holds no
 * context of the set), or some may (DGCTXSET_PART).  A context the filter
 * takes in part whose every access is at one of its pcs (temp.dgf_ev_pcs)
 * counts as whole.  With it a question
 * about a broad filter reads the whole chunks' summaries and decodes only
 * the others: on a trace where the filter leaves out a few contexts,
 * a few chunks.  Returns 1 with *kinds (malloc'ed, n_ids entries, indexed
 * by chunk id; the caller frees it), 0 when the database cannot say (no
 * filter table, no context_chunks, no chunks), -1 with *err
 * (sqlite3_free) on an SQL error or a malformed context_chunks row.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCTXSET_H
#define DGCTXSET_H

#include <stdint.h>
#include <sqlite3.h>

enum { DGCTXSET_NONE, DGCTXSET_WHOLE, DGCTXSET_PART };

int dgctxset_classify(sqlite3 *db, uint8_t **kinds, int64_t *n_ids, char **err);

#endif
