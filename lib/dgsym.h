/* dgsym.h: the symbolizer: run-time code addresses of a traced process to
 * function, source file and line, module, and the chain of inlined calls.
 *
 * Promise: given the mappings of a log (MMAP and MUNMAP, docs/FORMAT.md
 * §2.12), dgsym_lookup names the code at a run-time address the way
 * `addr2line -f -i -C` does: innermost (possibly inlined) function first,
 * each level with its source position, C++ names demangled and qualified
 * (as c++filt prints them).  Debug information comes from libdw (elfutils):
 * the DWARF of the file itself, or a separate debug file found the way gdb
 * finds it (build-id under /usr/lib/debug/.build-id/, .gnu_debuglink beside
 * the file, in .debug/ and under /usr/lib/debug/<dir>), in the directories
 * of dgsym_set_debug_dirs, in the debuginfod cache, or downloaded by libdw's
 * debuginfod client when DEBUGINFOD_URLS is set (lib/dgdebugf.h).  Without
 * DWARF the ELF symbol table (.symtab, else .gnu_debugdata, else .dynsym;
 * PLT stubs as "name@plt", the PLT header as "PLT0@<file name>") still
 * gives a function name; code no symbol
 * names is named by the entry address of the function holding it, as
 * callgrind does: "0x10ee88", the ELF address (as nm prints it) of the
 * start of its unwind (.eh_frame) record, which is the function's entry.
 *
 * Bad input never crashes it: a missing file, a file that is not ELF, a
 * truncated or stripped one, a device or a FIFO named by the log, a mapping
 * of absurd size: such a module is still known by its path, with fewer or no
 * symbols.  A file whose GNU build-id differs from the one the log recorded
 * changed since the trace; its symbols are not used (DGSYM_MISMATCH).
 *
 * Cost: files are opened lazily, at the first lookup in a module (or the
 * first question about its debug file), once.  A module's functions are
 * indexed one compilation unit at a time, at the first lookup in that unit,
 * and a function's lexical blocks and inlined calls at the first lookup in
 * it; after that a lookup is two binary searches, a walk down that copy and
 * a line-table search: a fraction of a microsecond (bench/sym.sh).  Caching
 * per address is the caller's job.
 * Each opened module keeps a descriptor or two open until dgsym_free.  If
 * DEBUGINFOD_URLS is set, libdw may download missing debug files: each
 * module asks at most once, and a server that gives no answer within
 * DEBUGINFOD_TIMEOUT is not asked again by this symbolizer.
 *
 * Ownership: struct dgsym owns everything; every string it returns is
 * interned (equal strings are the same pointer, so a pointer compares as
 * the string) and stays valid until dgsym_free.  Not thread-safe.
 *
 * Link: programs using it add `-ldw -lelf -lstdc++` (libstdc++ for
 * __cxa_demangle, the demangler of c++filt).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSYM_H
#define DGSYM_H

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

#include "dgframe.h"            /* struct dgsym_frame, enum dgsym_origin */

struct dgsym;

/* What is known of a module's symbols (dgsym_module_state). */
enum dgsym_state {
	DGSYM_MISSING = 0,   /* no readable ELF file at that path */
	DGSYM_MISMATCH,      /* the file's build-id differs from the log's */
	DGSYM_SYMTAB,        /* ELF symbols only, no DWARF */
	DGSYM_DWARF          /* DWARF (debug_file says from where) */
};

/* A new, empty symbolizer; NULL with a message in err if out of memory. */
struct dgsym *dgsym_new(char *err, size_t errlen);
void dgsym_free(struct dgsym *s);

/* The message of the last failure (empty if none). */
const char *dgsym_errmsg(const struct dgsym *s);

/* Directories (colon-separated) that hold separate debug files, searched
 * before the standard places: DIR/.build-id/xx/yyyy.debug, the debuglink
 * name under DIR/<dir of the file>/, and DIR/<name> or DIR/<name>.debug
 * (name: the file's or its debuglink's), each checked by build-id.  Call
 * before any lookup.  0, or -1 (see dgsym_errmsg) when out of memory. */
int dgsym_set_debug_dirs(struct dgsym *s, const char *dirs);

/* on 0: no separate debug file from the standard places (the file's own
 * directory, /usr/lib/debug, the debuginfod cache): only from the
 * directories of dgsym_set_debug_dirs and from debuginfod servers (whose
 * client answers from its own cache what it has there).  Call
 * before any lookup.  0, or -1 (see dgsym_errmsg) when out of memory. */
int dgsym_set_system_debug(struct dgsym *s, int on);

/* A mapping of the log: [start, start+len) maps path from file offset
 * `offset`; bias is the run-time address minus the ELF address; prot has bit
 * 2 for execute; build_id is the GNU build-id the log recorded (id_len 0 if
 * none: then the file is not checked).  The mapping hides whatever older
 * mapping it overlaps.  Returns the module index (>= 0): the same path with
 * the same build-id and bias is one module, however many mappings it has.
 * -1 (see dgsym_errmsg) only when out of memory: a missing or bad file is
 * not an error, its module simply has no symbols. */
int dgsym_add_mapping(struct dgsym *s, uint64_t start, uint64_t len,
		      uint64_t offset, uint64_t bias, int prot,
		      const uint8_t *build_id, size_t id_len, const char *path);

/* Later lookups in [start, start+len) find no module (or a later mapping).
 * 0, or -1 when out of memory (an unmap that splits a mapping in two). */
int dgsym_unmap(struct dgsym *s, uint64_t start, uint64_t len);

/* The module of the mapping holding pc now, or -1 (no file is opened). */
int dgsym_module_at(const struct dgsym *s, uint64_t pc);

/* Symbolize the run-time address pc, as is (an address inside a call
 * instruction is fine: do not subtract one).  Sets *module to the module of
 * the mapping holding pc, or -1.  Fills up to max frames, innermost first:
 * frames[0] is the innermost function (perhaps inlined), the last one the
 * out-of-line function that holds the code.  Returns the number of frames
 * filled: 0 if pc is in no mapping or nothing is known there.  Without
 * DWARF the one frame comes from the ELF symbol table (file NULL). */
int dgsym_lookup(struct dgsym *s, uint64_t pc, int *module,
		 struct dgsym_frame *frames, int max);

/* The DWARF behind pc, for questions beyond names (lib/dgpctype): the
 * libdwfl module holding it (owned by s), pc as an address of that
 * module's session (*addr), and the DIE of the out-of-line function whose
 * code holds it (*fn).  1 if found; 0 if pc has no module with DWARF or no
 * function there. */
int dgsym_function_at(struct dgsym *s, uint64_t pc, Dwfl_Module **dm,
		      uint64_t *addr, Dwarf_Die *fn);

/* Module facts (the `modules` table); m in [0, dgsym_n_modules).  lo and hi
 * span all the module's mappings (hi exclusive).  build_id is lowercase hex,
 * or NULL.  debug_file is the file the DWARF came from (the binary itself
 * or a separate debug file), NULL if none; it and state open the module's
 * file if no lookup did yet. */
int dgsym_n_modules(const struct dgsym *s);
const char *dgsym_module_path(const struct dgsym *s, int m);
const char *dgsym_module_build_id(const struct dgsym *s, int m);
uint64_t dgsym_module_bias(const struct dgsym *s, int m);
uint64_t dgsym_module_lo(const struct dgsym *s, int m);
uint64_t dgsym_module_hi(const struct dgsym *s, int m);
const char *dgsym_module_debug_file(struct dgsym *s, int m);
enum dgsym_state dgsym_module_state(struct dgsym *s, int m);
/* Where the module's names come from, for people: "DWARF: /usr/lib/debug/
 * .build-id/ab/cdef.debug", "DWARF: debuginfod", ".symtab", ".dynsym",
 * ".gnu_debugdata", "entry addresses" (with ", entry addresses" after a
 * symbol table when .eh_frame names the rest), "none". */
const char *dgsym_module_symbols_from(struct dgsym *s, int m);
/* Why the module has less than it could, naming the cause ("no such file",
 * "build-id differs from the trace's", "debuginfod at URL: no answer
 * within 10 s", "debug file ...: not an ELF file"), or NULL. */
const char *dgsym_module_problem(struct dgsym *s, int m);

/* The module's DWARF (a libdw `Dwarf *`, owned by the symbolizer, valid
 * until dgsym_free), opening the file if no lookup did yet, and in *bias
 * the run-time address minus the DWARF address; NULL if it has none. */
void *dgsym_module_dwarf(struct dgsym *s, int m, uint64_t *bias);

#endif /* DGSYM_H */
