/* dg_heaplog.h: the log's heap records.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 *
 * Writes each malloc and free the encoder replays (dg_enc.c) as a record
 * of the log: MALLOC_BLOCK and FREE_BLOCK (docs/FORMAT.md 2.5, 2.6), each
 * with its whole stack in words, or by default their compact forms
 * HEAP_MALLOC and HEAP_FREE (2.19): the instructions run since the
 * reader's count as a uleb (so no ICOUNT record is needed before them),
 * the stack by reference, the address as a delta from the last heap
 * record's, the size as a uleb.  A stack is the call stack of a dg_stack
 * node; each node's is written once, as new frames on top of the nearest
 * node outside it whose stack the log has (one heap stack a frame, the
 * way the nodes nest), and referred to by index afterwards, or by nothing
 * at all when it is the one that followed the last record's stack the
 * time before (a program allocating per row repeats its sequence of
 * sites).
 *
 * Owns which node's stack the log has and under which index, each heap
 * stack's predicted successor, and the last stack and address written:
 * the state of one log, which dg_heaplog_reset starts again (a forked
 * child's log); nothing of it travels to a forked child's encoder.  The
 * caller chooses the node (Valgrind's malloc wrappers already taken off)
 * and keeps the instruction counts; records go through dg_wr.
 */
#ifndef DG_HEAPLOG_H
#define DG_HEAPLOG_H

#include "pub_tool_basics.h"

/* compact False: MALLOC_BLOCK and FREE_BLOCK, for readers that predate
   the compact records (--log-compact=no). */
void dg_heaplog_init(Bool compact);
void dg_heaplog_reset(void);
/* A block of size bytes at a was allocated (is_malloc) or freed with the
   call stack of node; icount_delta instructions ran since the count a
   reader of the log has (0 unless compact: the caller wrote an ICOUNT). */
void dg_heaplog_write(Bool is_malloc, ULong icount_delta, Addr a, SizeT size,
                      UInt node);

#endif
