/* imp_sym.c: modules, symbols and stacks.
 *
 * Every distinct code address the database mentions (the pc of an access,
 * every frame of a stack) is symbolized once with lib/dgsym, filling `pcs`,
 * `pc_inlines` and `functions`.  A code address is a pc and the module
 * mapped there at the time (schema.sql: a library dlclose'd and another
 * mapped at its address have different code at one pc).  Functions are
 * interned by identity (name, linkage name, declaration, module); dgsym
 * interns its strings, so comparing pointers compares names.  Stacks are
 * paths in a call tree (`callsites`): a node per distinct (caller's node,
 * pc, module), written once; a stack is interned by its innermost node.
 * Code that no symbol names gets dgsym's entry-address name ("0x10ee88",
 * with its module), so no module lumps its unnamed code into one bucket.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "imp_sym.h"
#include "imp.h"
#include "imp_chunk.h"
#include "imp_db.h"
#include "imp_field.h"
#include "dgsym.h"
#include "dgmem.h"

#define MAX_INLINE 32

/* A debuginfod server that does not answer must not stall the import for
   the client's defaults (90 s, three tries, per module): these bound the
   first module's wait; dgsym asks no later module after a silence.  The
   user's own settings win. */
static void debuginfod_defaults(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (!urls || !urls[0])
		return;
	setenv("DEBUGINFOD_TIMEOUT", "10", 0);
	setenv("DEBUGINFOD_RETRY_LIMIT", "1", 0);
}

int imp_sym_init(struct importer *imp)
{
	char err[256];

	imp->sym = dgsym_new(err, sizeof err);
	if (!imp->sym)
		return imp_fail(imp, "symbolizer: %s", err);
	if ((imp->debug_dirs && dgsym_set_debug_dirs(imp->sym, imp->debug_dirs) < 0)
	    || (imp->no_system_debug && dgsym_set_system_debug(imp->sym, 0) < 0))
		return imp_fail(imp, "symbolizer: %s", dgsym_errmsg(imp->sym));
	debuginfod_defaults();
	if (dghash_init(&imp->pc_fn, 4096) < 0
	    || dghash_init(&imp->fn_ids, 1024) < 0)
		return imp_fail(imp, "out of memory");
	elf_version(EV_CURRENT);
	return 0;
}

void imp_sym_free(struct importer *imp)
{
	if (imp->sym)
		dgsym_free(imp->sym);
	imp->sym = NULL;
	dghash_free(&imp->pc_fn);
	dghash_free(&imp->fn_ids);
	free(imp->fns);
	free(imp->callsites);
	free(imp->callsite_heads);
	free(imp->stack_leaf);
	free(imp->path);
	free(imp->sym_info);
	free(imp->sym_warn);
	free(imp->mod_used);
	imp->mod_used = NULL;
	imp->cap_mod_used = 0;
	imp->fns = NULL;
	imp->callsites = NULL;
	imp->callsite_heads = imp->stack_leaf = NULL;
	imp->path = NULL;
	imp->sym_info = imp->sym_warn = NULL;
	imp->cap_fns = imp->cap_callsites = imp->n_callsite_heads = 0;
	imp->cap_stack_leaf = imp->cap_path = 0;
	imp->n_callsites = imp->n_path = 0;
}

/* ------------------------------------------------------------ mappings */

static int mapping_row(struct importer *imp, int module, uint64_t start,
                       uint64_t len, uint64_t offset, int prot, uint64_t icount)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_MAPPING,
		"INSERT INTO mappings VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL)");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)++imp->n_mappings);
	sqlite3_bind_int64(st, 2, module + 1);
	sqlite3_bind_int64(st, 3, (int64_t)start);
	sqlite3_bind_int64(st, 4, (int64_t)(start + len));
	sqlite3_bind_int64(st, 5, (int64_t)offset);
	sqlite3_bind_int(st, 6, prot);
	sqlite3_bind_int64(st, 7, (int64_t)icount);
	return imp_db_step(imp, st);
}

int imp_sym_mmap(struct importer *imp, const struct dglog_record *rec)
{
	const struct dglog_mmap *m = &rec->u.mmap;
	int module = dgsym_add_mapping(imp->sym, m->start, m->len, m->offset, m->bias,
	                               m->prot, m->build_id, m->build_id_len, m->path);

	if (module < 0)
		return imp_fail(imp, "symbolizer: %s", dgsym_errmsg(imp->sym));
	return mapping_row(imp, module, m->start, m->len, m->offset, m->prot, rec->icount);
}

int imp_sym_munmap(struct importer *imp, const struct dglog_record *rec)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_MAPPING_UNMAP,
		"UPDATE mappings SET unmap_icount = ?3 WHERE unmap_icount IS NULL"
		" AND start < ?1 + ?2 AND end > ?1");

	if (dgsym_unmap(imp->sym, rec->u.mmap.start, rec->u.mmap.len) < 0)
		return imp_fail(imp, "symbolizer: %s", dgsym_errmsg(imp->sym));
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)rec->u.mmap.start);
	sqlite3_bind_int64(st, 2, (int64_t)rec->u.mmap.len);
	sqlite3_bind_int64(st, 3, (int64_t)rec->icount);
	return imp_db_step(imp, st);
}

/* The 2010 tool gave only the address of a file's .text: find .text in the
   ELF file to know the bias and the span.  A file we cannot read gives a
   module without symbols, as for version 2. */
static int text_section(const char *path, uint64_t *vaddr, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (fd < 0)
		return 0;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_getshdrstrndx(e, &shstrndx) == 0) {
		while (!found && (scn = elf_nextscn(e, scn)) != NULL) {
			GElf_Shdr sh;
			const char *name;
			if (!gelf_getshdr(scn, &sh))
				break;
			name = elf_strptr(e, shstrndx, sh.sh_name);
			if (name && strcmp(name, ".text") == 0) {
				*vaddr = sh.sh_addr;
				*size = sh.sh_size;
				found = 1;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

int imp_sym_text_avma(struct importer *imp, const struct dglog_record *rec)
{
	const struct dglog_text_avma *t = &rec->u.text_avma;
	uint64_t vaddr = 0, size = 4096;
	int module;

	if (!text_section(t->path, &vaddr, &size))
		vaddr = t->addr;      /* unknown: assume no bias */
	module = dgsym_add_mapping(imp->sym, t->addr, size, 0, t->addr - vaddr,
	                           4, NULL, 0, t->path);
	if (module < 0)
		return imp_fail(imp, "symbolizer: %s", dgsym_errmsg(imp->sym));
	return mapping_row(imp, module, t->addr, size, 0, 5, rec->icount);
}

/* ------------------------------------------------------------ functions */

static uint64_t fn_key(const struct imp_fn *f)
{
	return dghash_mix((uint64_t)(uintptr_t)f->name * 31 + (uintptr_t)f->linkage)
	     ^ dghash_mix((uint64_t)(uintptr_t)f->decl_file * 131 + (uint64_t)f->decl_line * 7
	                  + (uint64_t)(f->module + 1));
}

static int fn_same(const struct imp_fn *a, const struct imp_fn *b)
{
	return a->name == b->name && a->linkage == b->linkage && a->decl_file == b->decl_file
	    && a->decl_line == b->decl_line && a->module == b->module;
}

/* functions.origin by enum dgsym_origin. */
static const char *const origin_name[] = {
	[DGSYM_BY_DWARF] = "dwarf", [DGSYM_BY_SYMTAB] = "symtab",
	[DGSYM_BY_ENTRY] = "entry",
};

static int fn_row(struct importer *imp, uint32_t id, const struct imp_fn *f)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_FUNCTION,
		"INSERT INTO functions VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, f->name, -1, SQLITE_STATIC);
	if (f->linkage)
		sqlite3_bind_text(st, 3, f->linkage, -1, SQLITE_STATIC);
	if (f->module >= 0)
		sqlite3_bind_int64(st, 4, f->module + 1);
	if (f->decl_file)
		sqlite3_bind_text(st, 5, f->decl_file, -1, SQLITE_STATIC);
	if (f->decl_line)
		sqlite3_bind_int(st, 6, f->decl_line);
	if (f->origin >= DGSYM_BY_DWARF && f->origin <= DGSYM_BY_ENTRY)
		sqlite3_bind_text(st, 7, origin_name[f->origin], -1, SQLITE_STATIC);
	return imp_db_step(imp, st);
}

/* Function id of a frame (0 when it has no name). */
static int fn_intern(struct importer *imp, const struct dgsym_frame *fr, int module,
                     uint32_t *id)
{
	struct imp_fn f = { fr->function, fr->linkage_name, fr->decl_file, fr->decl_line, module,
	                    fr->origin };
	uint64_t key;
	int added;
	long s;

	*id = 0;
	if (!f.name)
		return 0;
	for (key = fn_key(&f);; key++) {   /* a clash moves to the next key */
		s = dghash_put(&imp->fn_ids, key, (uint32_t)imp->n_functions + 1, &added);
		if (s < 0)
			return imp_fail(imp, "out of memory");
		if (added || fn_same(&imp->fns[imp->fn_ids.vals[s] - 1], &f))
			break;
	}
	*id = imp->fn_ids.vals[s];
	if (!added)
		return 0;
	if (dg_grow((void **)&imp->fns, &imp->cap_fns, imp->n_functions + 1, sizeof *imp->fns) < 0)
		return imp_fail(imp, "out of memory");
	imp->fns[imp->n_functions++] = f;
	return fn_row(imp, *id, &f);
}

/* The rows of code address (pc, module id mid) in pcs and pc_inlines. */
static int pc_rows(struct importer *imp, uint64_t pc, uint32_t mid,
                   const struct dgsym_frame *fr, const uint32_t *ids, int n)
{
	sqlite3_stmt *p = imp_db_stmt(imp, ST_PC, "INSERT INTO pcs VALUES (?1, ?2, ?3, ?4, ?5)");
	sqlite3_stmt *in = imp_db_stmt(imp, ST_INLINE,
		"INSERT INTO pc_inlines VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
	int k;

	if (!p || !in)
		return -1;
	sqlite3_bind_int64(p, 1, (int64_t)pc);
	sqlite3_bind_int64(p, 2, mid);
	if (n > 0 && ids[0])
		sqlite3_bind_int64(p, 3, ids[0]);
	if (n > 0 && fr[0].file)
		sqlite3_bind_text(p, 4, fr[0].file, -1, SQLITE_STATIC);
	if (n > 0 && fr[0].line)
		sqlite3_bind_int(p, 5, fr[0].line);
	if (imp_db_step(imp, p) < 0)
		return -1;
	for (k = 0; k < n; k++) {
		if (!ids[k])
			continue;
		sqlite3_bind_int64(in, 1, (int64_t)pc);
		sqlite3_bind_int64(in, 2, mid);
		sqlite3_bind_int(in, 3, k);
		sqlite3_bind_int64(in, 4, ids[k]);
		if (fr[k].file)
			sqlite3_bind_text(in, 5, fr[k].file, -1, SQLITE_STATIC);
		if (fr[k].line)
			sqlite3_bind_int(in, 6, fr[k].line);
		if (imp_db_step(imp, in) < 0)
			return -1;
	}
	return 0;
}

/* Remember that module m has code in the trace (only such modules are
   opened at the end: a mapped data file needs no symbols). */
static int mark_used(struct importer *imp, int m)
{
	size_t old = imp->cap_mod_used;

	if ((size_t)m >= old) {
		if (dg_grow((void **)&imp->mod_used, &imp->cap_mod_used, (size_t)m + 1,
		            sizeof *imp->mod_used) < 0)
			return imp_fail(imp, "out of memory");
		memset(imp->mod_used + old, 0, imp->cap_mod_used - old);
	}
	if (imp->mod_used[m])
		return 0;
	imp->mod_used[m] = 1;
	return imp_field_module(imp, m);      /* its variables, from now on */
}

/* A code address as the module mapped there now: a library mapped where
   another was (dlclose, then dlopen) has other code at the same pc.  User
   addresses are below 2^48. */
static uint64_t pc_key(uint64_t pc, int module)
{
	return pc ^ (uint64_t)(module + 1) << 48;
}

int imp_sym_pc(struct importer *imp, uint64_t pc, uint32_t *function, uint32_t *mid)
{
	struct dgsym_frame fr[MAX_INLINE];
	uint32_t ids[MAX_INLINE];
	int module = dgsym_module_at(imp->sym, pc), same, n, k, added;
	uint64_t key = pc_key(pc, module);
	uint32_t v = dghash_get(&imp->pc_fn, key);

	*mid = (uint32_t)(module + 1);
	if (v != DGHASH_NONE) {
		*function = v;
		return 0;
	}
	n = dgsym_lookup(imp->sym, pc, &same, fr, MAX_INLINE);   /* same == module */
	if (module >= 0 && mark_used(imp, module) < 0)
		return -1;
	for (k = 0; k < n; k++)
		if (fn_intern(imp, &fr[k], module, &ids[k]) < 0)
			return -1;
	*function = n > 0 ? ids[0] : 0;
	if (dghash_put(&imp->pc_fn, key, *function, &added) < 0)
		return imp_fail(imp, "out of memory");
	return pc_rows(imp, pc, *mid, fr, ids, n);
}

/* ------------------------------------------------------------ stacks */

/* A stack is a path in the call tree (schema.sql's callsites), from the
   outermost frame (a root) to the innermost (its leaf).  A frame is its
   code address and the module mapped there now (as pcs), so the same pcs
   in a module mapped later at the same address make other nodes.  Nodes
   are found by a hash chained through them (at most a bucket a node: 8
   bytes a node with the chain, where dghash took 26-52 for the key, value
   and slot of 4.78 M nodes of a compiler's trace). */
static uint32_t *callsite_bucket(struct importer *imp, uint32_t parent,
                                 uint64_t pc, uint32_t module)
{
	uint64_t h = dghash_mix(pc ^ (uint64_t)module << 48 ^ (uint64_t)parent << 20);

	return &imp->callsite_heads[h & (imp->n_callsite_heads - 1)];
}

/* Twice the buckets, every node chained again. */
static int callsite_rehash(struct importer *imp)
{
	size_t n = imp->n_callsite_heads ? 2 * imp->n_callsite_heads : 1024, i;
	uint32_t *heads = calloc(n, sizeof *heads), *b;

	if (!heads)
		return imp_fail(imp, "out of memory");
	free(imp->callsite_heads);
	imp->callsite_heads = heads;
	imp->n_callsite_heads = n;
	for (i = 0; i < imp->n_callsites; i++) {
		struct imp_callsite *c = &imp->callsites[i];

		b = callsite_bucket(imp, c->parent, c->pc, c->module);
		c->next = *b;
		*b = (uint32_t)i + 1;
	}
	return 0;
}

/* Writes the node's row, and the pcs row of its pc the first time. */
static int callsite_row(struct importer *imp, uint32_t id, uint32_t depth)
{
	const struct imp_callsite *c = &imp->callsites[id - 1];
	uint32_t fn, mid;

	if (imp_sym_pc(imp, c->pc, &fn, &mid) < 0)
		return -1;
	return imp_chunk_row(imp, IMP_ROWS_CALLSITES, (const int64_t[]){ id,
	                     c->parent ? (int64_t)c->parent : IMP_ROW_NULL, (int64_t)c->pc,
	                     c->module, depth });
}

/* The node of frame (pc, module) called from node parent (0: a root),
   at depth frames from the root; made and written the first time. */
static int callsite(struct importer *imp, uint32_t parent, uint64_t pc,
                    uint32_t module, uint32_t depth, uint32_t *id)
{
	const struct imp_callsite *c;
	uint32_t *b, next = (uint32_t)imp->n_callsites + 1;

	for (*id = imp->n_callsite_heads ? *callsite_bucket(imp, parent, pc, module) : 0;
	     *id; *id = c->next) {
		c = &imp->callsites[*id - 1];
		if (c->pc == pc && c->parent == parent && c->module == module)
			return 0;
	}
	if (imp->n_callsites >= UINT32_MAX - 1)
		return imp_fail(imp, "more than 2^32 call-stack nodes");
	if (dg_grow((void **)&imp->callsites, &imp->cap_callsites, next,
	            sizeof *imp->callsites) < 0)
		return imp_fail(imp, "out of memory");
	if (next > imp->n_callsite_heads && callsite_rehash(imp) < 0)
		return -1;
	b = callsite_bucket(imp, parent, pc, module);
	imp->callsites[next - 1] = (struct imp_callsite){ pc, parent, module, *b, 0 };
	*b = *id = next;
	imp->n_callsites = next;
	return callsite_row(imp, next, depth);
}

/* A new stack of n frames ending at node leaf (0: none). */
static int stack_new(struct importer *imp, uint32_t leaf, uint64_t n, uint32_t *id)
{
	if (imp->n_stacks >= UINT32_MAX - 1)
		return imp_fail(imp, "more than 2^32 call stacks");
	if (dg_grow((void **)&imp->stack_leaf, &imp->cap_stack_leaf, imp->n_stacks + 1,
	            sizeof *imp->stack_leaf) < 0)
		return imp_fail(imp, "out of memory");
	imp->stack_leaf[imp->n_stacks] = leaf;
	*id = (uint32_t)++imp->n_stacks;
	return imp_chunk_row(imp, IMP_ROWS_STACKS, (const int64_t[]){ *id, (int64_t)n,
	                     leaf ? (int64_t)leaf : IMP_ROW_NULL });
}

int imp_sym_stack(struct importer *imp, const uint64_t *f, uint64_t n, int64_t *id)
{
	struct imp_path *p;
	uint32_t node = 0, sid;
	uint64_t k;

	if (n == 0) {
		if (!imp->empty_stack && stack_new(imp, 0, 0, &imp->empty_stack) < 0)
			return -1;
		*id = imp->empty_stack;
		return 0;
	}
	if (dg_grow((void **)&imp->path, &imp->cap_path, n, sizeof *imp->path) < 0)
		return imp_fail(imp, "out of memory");
	/* the callers it shares with the last stack are its nodes already */
	for (k = 0; k < n; k++) {
		uint64_t pc = f[n - 1 - k];
		uint32_t module = (uint32_t)(dgsym_module_at(imp->sym, pc) + 1);

		p = &imp->path[k];
		if (k < imp->n_path && p->pc == pc && p->module == module) {
			node = p->node;
			continue;
		}
		imp->n_path = k;        /* what follows is no longer the last's */
		if (callsite(imp, node, pc, module, (uint32_t)k, &node) < 0)
			return -1;
		*p = (struct imp_path){ pc, module, node };
	}
	imp->n_path = n;
	sid = imp->callsites[node - 1].stack;
	if (!sid) {
		if (stack_new(imp, node, n, &sid) < 0)
			return -1;
		imp->callsites[node - 1].stack = sid;
	}
	*id = sid;
	return 0;
}

/* ------------------------------------------------------------ finish */

/* What would give the module better names, for people; NULL if nothing. */
static const char *advice(const struct importer *imp, struct dgsym *sym, int m)
{
	switch (dgsym_module_state(sym, m)) {
	case DGSYM_DWARF:
		return NULL;
	case DGSYM_MISSING:
		return "import on the machine that made the trace, where the file "
		       "is at that path";
	case DGSYM_MISMATCH:
		return "import before the file is updated, or on the machine that "
		       "made the trace";
	default:
		if (imp->no_system_debug)   /* the package's file would not be read */
			return "give --debug-dir DIR, or set DEBUGINFOD_URLS";
		return "install its -dbgsym package, give --debug-dir DIR, or set "
		       "DEBUGINFOD_URLS";
	}
}

/* Append a formatted line to *buf (kept on failure: a shorter report). */
static void append(char **buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void append(char **buf, const char *fmt, ...)
{
	size_t old = *buf ? strlen(*buf) : 0;
	va_list ap;
	char *line = NULL, *grown;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grown = realloc(*buf, old + (size_t)n + 1);
	if (grown) {
		memcpy(grown + old, line, (size_t)n + 1);
		*buf = grown;
	}
	free(line);
}

static int used(const struct importer *imp, int m)
{
	return (size_t)m < imp->cap_mod_used && imp->mod_used[m];
}

/* The row of module m; a module without code in the trace is not opened. */
static int module_row(struct importer *imp, sqlite3_stmt *st, int m)
{
	struct dgsym *sym = imp->sym;
	int u = used(imp, m);
	const char *id = dgsym_module_build_id(sym, m);
	const char *dbg = u ? dgsym_module_debug_file(sym, m) : NULL;
	const char *from = u ? dgsym_module_symbols_from(sym, m) : "not opened: no code run";
	const char *problem = u ? dgsym_module_problem(sym, m) : NULL;
	const char *tip = u ? advice(imp, sym, m) : NULL;

	sqlite3_bind_int64(st, 1, m + 1);
	sqlite3_bind_text(st, 2, dgsym_module_path(sym, m), -1, SQLITE_STATIC);
	if (id)
		sqlite3_bind_text(st, 3, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)dgsym_module_bias(sym, m));
	sqlite3_bind_int64(st, 5, (int64_t)dgsym_module_lo(sym, m));
	sqlite3_bind_int64(st, 6, (int64_t)dgsym_module_hi(sym, m));
	if (dbg)
		sqlite3_bind_text(st, 7, dbg, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, from, -1, SQLITE_STATIC);
	if (problem)
		sqlite3_bind_text(st, 9, problem, -1, SQLITE_STATIC);
	if (tip)
		sqlite3_bind_text(st, 10, tip, -1, SQLITE_STATIC);
	return imp_db_step(imp, st);
}

/* The user's lines for module m: where its names came from, and why it
   has fewer than it could (a warning naming the module). */
static void module_report(struct importer *imp, int m)
{
	const char *path = dgsym_module_path(imp->sym, m);
	const char *problem = dgsym_module_problem(imp->sym, m);

	append(&imp->sym_info, "dg-import: symbols of %s: %s\n", path,
	       dgsym_module_symbols_from(imp->sym, m));
	if (problem)
		append(&imp->sym_warn, "dg-import: warning: %s: %s\n", path, problem);
}

int imp_sym_finish(struct importer *imp)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_MODULE,
		"INSERT INTO modules VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
	int m, n = dgsym_n_modules(imp->sym);

	if (!st)
		return -1;
	for (m = 0; m < n; m++) {
		if (module_row(imp, st, m) < 0)
			return -1;
		if (used(imp, m))
			module_report(imp, m);
	}
	return 0;
}
