/* serve.h: dgsql --serve, the trace's picture in a browser (dg_view reborn).
 *
 * Promise: serve_run starts an HTTP server (libmicrohttpd) on 127.0.0.1
 * only, at the port asked for or one the kernel picks, prints the URL with
 * a random token (?token=HEX) on stdout, and answers until SIGINT or
 * SIGTERM, then stops cleanly.  Every request must carry the token, in the
 * query or in the cookie the first page sets (HttpOnly, SameSite=Strict):
 * 403 otherwise, so that another user of the machine cannot read the
 * trace.  Bad parameters get 400 with a message; only GET and HEAD are
 * answered.  Requests run one at a time on the shell's connection, in
 * the server's one thread, while the calling thread waits for the signal.
 *
 *   /            the page (viewer/index.html, compiled in with viewer.js
 *                and viewer.css: nothing is fetched from elsewhere)
 *   /grid?w=W&h=H[&addr=LO:HI][&icount=LO:HI]
 *                the picture's cells for a W x H canvas under the
 *                filter, binned by lib/dgplot.h's dgplot_grid, the same
 *                cells --plot-data writes for that view: JSON
 *                {"w","h","ylo","yhi","from","cols":[w+1 addresses],
 *                 "cells":[col,row,reads,writes,...]}
 *   /at?addr=LO:HI&icount=LO:HI
 *                the code that made a cell's accesses (at most 8 pcs:
 *                function, file:line, reads, writes, heap block and its
 *                allocating function, the instruction's struct field,
 *                one call stack), of its first 200 000 accesses
 *   /top[?addr=LO:HI&icount=LO:HI]
 *                the view's busiest functions and heap blocks (10 each):
 *                without a range and a filter exact from the summaries
 *                ("exact":true), else of the view's first 250 000
 *                accesses (the "scanned" row says how many)
 *   /events, /regions [?addr=..&icount=..]
 *                the user events, and the tracked ranges and busiest
 *                heap blocks, overlapping the view: the bands
 *   /names?list=events|ranges&text=T
 *                completion: the conditions that list takes starting
 *                with T, or the trace's names after fn:, file:, dso:,
 *                user:, field: (lib/dgfilter.h), at most 50
 *   /meta        JSON {"trace","filter","events","ranges","accesses"}
 *
 * /grid, /at and /top take the page's filter as events= and ranges=
 * (dgsql's --events and --ranges; absent: the command line's, empty:
 * none), installed for the request (400 with the compiler's message when
 * it is bad); a view is cached with its filter.  Text from the trace is
 * JSON-escaped (lib/dgesc.h); the page puts it in the document as text,
 * never as markup.
 *
 * Ownership: the shell stays the caller's; nothing outlives serve_run.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_SERVE_H
#define DGSQL_SERVE_H

#include "shellctx.h"

/* Serves until SIGINT or SIGTERM; 0, or -1 with *err (sqlite3_free).
   port 0: any free port. */
int serve_run(struct shell *sh, int port, char **err);

/* dgsql --snapshot DIR: the page as files for a CI job to keep, opened
   from the disk with no server: DIR/index.html, viewer.js, viewer.css and
   snapshot.js, the answers for the whole trace under the session's
   filter (the picture binned to w x h cells, the events, ranges and
   busiest blocks, the busiest functions and blocks).  The page then zooms
   and pans within those cells; hover and filters need the server.  Built
   aside and renamed into place (aside.h), files 0600.  0, or -1 with
   *err. */
int serve_snapshot(struct shell *sh, const char *dir, int w, int h, char **err);

#endif
