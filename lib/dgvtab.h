/* dgvtab.h: the `accesses` virtual table — every access of a trace
 * database as a row, decoded on the fly from `chunks`.
 *
 * Promise: after dgvtab_register(db), `SELECT ... FROM accesses` works on a
 * database made by dg-import (schema/schema.sql) with no CREATE VIRTUAL
 * TABLE in the file (an eponymous table of the "main" schema); `CREATE
 * VIRTUAL TABLE x USING accesses` works too, and reads the tables of the
 * schema it is created in.  Columns, in this order:
 *
 *   icount      instruction count of the accessing instruction
 *   addr        address (as a signed 64-bit INTEGER, like the schema)
 *   size        bytes
 *   is_write    0 read, 1 write
 *   pc          address of the accessing instruction
 *   thread      Valgrind thread id
 *   context_id  contexts.id of the run
 *   block_id    blocks.id of the heap block holding addr at icount
 *               (addr in [addr, addr+size), alloc_icount <= icount <
 *               free_icount or free_icount NULL), NULL if none.  When
 *               blocks nest (VALGRIND_MALLOCLIKE_BLOCK inside a malloc'd
 *               pool) the innermost one: highest start address, then the
 *               latest allocated
 *   aseq        index of the access in its bbdef (access_descs.aseq)
 *   chunk_id    chunks.id holding it
 *   module_id   the module mapped at pc when the access was made
 *               (access_descs.module_id; 0: none): join pcs and sum_pc on
 *               (pc, module_id), as a library dlclose'd and another mapped
 *               at its address share pcs
 *   stack_filter  HIDDEN (not in SELECT *), always NULL; only for the
 *               constraint stack_filter = 'P': the rows whose context is
 *               in the TEMP table P_ctx(id, whole) and, for contexts
 *               whose whole is 0, whose (pc, module_id) is in the TEMP
 *               table P_pcs(pc, module_id).  Evaluated in C per access (dgfilter.c's
 *               call-stack filters use it, with P = dgf_ev), and only the
 *               chunks holding those contexts are decoded
 *
 * Rows come in execution order (chunk id, then run, then aseq), which is
 * icount order; ORDER BY icount [, aseq] or chunk_id [, icount [, aseq]]
 * ascending costs nothing.  Guarded accesses that did not happen (address
 * 0, access_descs.flags bit 0) are not rows.  rowid is chunk_id << 32 | the
 * access's index in its chunk: stable across queries.
 *
 * Constraints pushed down, each applied exactly (so SQLite does not check
 * them again): icount =, <, <=, >, >= (chunks chosen through chunks_icount);
 * addr the same (chunks through chunk_regions when the range spans at most
 * 4096 regions and starts at or above 0, else by chunks.addr_lo/addr_hi);
 * thread =; context_id = and IN (through context_chunks); block_id =
 * (turned into the block's address and lifetime ranges, and for a block
 * with sum_block_chunks rows, its chunks alone; a plan that reads no
 * other column, as SELECT count(*), then gives that table's counts as
 * rows without decoding, and decodes from where it stands only if SQLite
 * asks for a rowid); chunk_id =, <,
 * <=, >, >=; is_write =; stack_filter =.  When several ways to choose chunks apply, the
 * one with the fewest chunks (counted in the indexes) is taken.
 *
 * Memory and lifetime: on first use, each table object (one per connection
 * for the eponymous table) loads contexts, bbdefs and access_descs into
 * memory, and blocks too when block_id is read or constrained; that copy is
 * kept until the connection closes: a connection that rewrites those
 * tables after querying `accesses` must reopen to see the change.  Each
 * cursor owns its own decoder state, so self-joins work.
 *
 * Errors are SQL errors with a message starting "accesses: ": missing
 * tables, inconsistent definitions, and malformed chunk blobs (naming the
 * chunk id and run), never a crash.
 *
 * The rows without SQLite's row engine (dgvtab_scan, dgvtab_count, under
 * the same constraints, stack_filter's too) are declared in dgvt_scan.h,
 * which this header includes.  lib/dgvtab.c
 * says which lib/dgvt_*.c does what.
 *
 * Two builds of these files (lib/ext.mk's DGVTAB_SRCS).  Linked into
 * programs (libdg.a, dgsql), they call the sqlite3_* functions of the
 * libsqlite3 the program links.  Compiled with -DDGVTAB_EXTENSION
 * (lib/ext.mk, for build/lib/dgaccess.so) they include sqlite3ext.h and
 * call SQLite through the host's API table `sqlite3_api`, which
 * lib/ext/dgaccess_ext.c defines and fills; the extension never links
 * libsqlite3.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVTAB_H
#define DGVTAB_H

#include <stdint.h>
#include <sqlite3.h>

#include "dgvt_model.h"
#include "dgvt_scan.h"

/* Register the module `accesses` on db.  Returns SQLITE_OK, or an SQLite
   error code with *errmsg (if errmsg is not NULL) set to a message that the
   caller frees with sqlite3_free. */
int dgvtab_register(sqlite3 *db, char **errmsg);

/* How much of the trace a statement's plan reads, with the values it
   binds: while `on`, every cursor of the table (of a registration with
   this probe) chooses its chunks as it would, adds their number to
   `chunks` (an upper bound: a thread constraint is not counted in) and
   gives no row, decoding nothing.  dgsql steps a statement once so to
   choose its engine.  The probe (struct dgvtab_probe: on, chunks; in
   dgvt_model.h, beside the table object that points to it) is the
   caller's, and must outlive the connection. */

/* dgvtab_register, the table's cursors reporting to probe. */
int dgvtab_register_probe(sqlite3 *db, struct dgvtab_probe *probe, char **errmsg);

#endif
