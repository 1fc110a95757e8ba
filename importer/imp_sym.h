/* imp_sym.h: modules, symbols and stacks (imp_sym.c).
 *
 * Promise: every code address the database mentions (a pc, a frame) is
 * symbolized once with lib/dgsym, as the pair (pc, module mapped there at
 * the time), filling pcs, pc_inlines and functions; functions and stacks
 * are interned, so their ids are stable within an import.  Stacks are
 * paths in the call tree (schema.sql: callsites), each node written once,
 * when first met; a stack's row when it is.  The state hangs off struct
 * importer (imp->sym, fns, callsites, stack_leaf) and is freed by
 * imp_sym_free.  0 or -1 with the message in imp->err.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_SYM_H
#define IMP_SYM_H

#include "imp.h"

int  imp_sym_init(struct importer *imp);
int  imp_sym_mmap(struct importer *imp, const struct dglog_record *rec);
int  imp_sym_munmap(struct importer *imp, const struct dglog_record *rec);
int  imp_sym_text_avma(struct importer *imp, const struct dglog_record *rec);
/* Function id of pc and the id of the module mapped there now (0: none),
   symbolizing it and filling pcs the first time the pair is seen. */
int  imp_sym_pc(struct importer *imp, uint64_t pc, uint32_t *function, uint32_t *module);
/* Stack id of frames (n of them, innermost first; interned, symbolizing
   each frame's pc when its node is new). */
int  imp_sym_stack(struct importer *imp, const uint64_t *frames, uint64_t n,
                   int64_t *id);
/* Write `modules`; fill sym_info (where each module's symbols came from)
   and sym_warn (modules with a problem, and why), for main to print. */
int  imp_sym_finish(struct importer *imp);
void imp_sym_free(struct importer *imp);

#endif
