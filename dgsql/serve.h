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
 *                the picture's cells for a W x H canvas under the shell's
 *                filter, binned by lib/dgplot.h's dgplot_grid, the same
 *                cells --plot-data writes for that view: JSON
 *                {"w","h","ylo","yhi","from","cols":[w+1 addresses],
 *                 "cells":[col,row,reads,writes,...]}
 *   /meta        JSON {"trace","filter","accesses"}: text from the trace
 *                JSON-escaped (lib/dgesc.h); the page puts it in the
 *                document as text, never as markup.
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
