/* imp_sym.c: modules, symbols and stacks.
 *
 * Every distinct code address the database mentions (the pc of an access,
 * every frame of a stack) is symbolized once with lib/dgsym, filling `pcs`,
 * `pc_inlines` and `functions`.  Functions are interned by identity (name,
 * linkage name, declaration, module); dgsym interns its strings, so
 * comparing pointers compares names.  Stacks are interned by content.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "imp.h"
#include "dgsym.h"
#include "dgmem.h"

#define MAX_INLINE 32

struct fn_rec { const char *name, *linkage, *decl_file; int decl_line, module; };

static struct fn_rec *fns;            /* by function id - 1 */
static size_t cap_fns;
static uint64_t *stack_words;         /* frames of every stack, back to back */
static size_t n_stack_words, cap_stack_words;
static struct { size_t off; uint32_t n; } *stack_at;   /* by stack id - 1 */
static size_t cap_stack_at;


int imp_sym_init(struct importer *imp)
{
	char err[256];

	imp->sym = dgsym_new(err, sizeof err);
	if (!imp->sym)
		return imp_fail(imp, "symbolizer: %s", err);
	if (dghash_init(&imp->pc_fn, 4096) < 0 || dghash_init(&imp->stacks, 1024) < 0
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
	dghash_free(&imp->stacks);
	dghash_free(&imp->fn_ids);
	free(fns);
	free(stack_words);
	free(stack_at);
	fns = NULL;
	stack_words = NULL;
	stack_at = NULL;
	cap_fns = cap_stack_words = cap_stack_at = n_stack_words = 0;
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

static uint64_t fn_key(const struct fn_rec *f)
{
	return dghash_mix((uint64_t)(uintptr_t)f->name * 31 + (uintptr_t)f->linkage)
	     ^ dghash_mix((uint64_t)(uintptr_t)f->decl_file * 131 + (uint64_t)f->decl_line * 7
	                  + (uint64_t)(f->module + 1));
}

static int fn_same(const struct fn_rec *a, const struct fn_rec *b)
{
	return a->name == b->name && a->linkage == b->linkage && a->decl_file == b->decl_file
	    && a->decl_line == b->decl_line && a->module == b->module;
}

static int fn_row(struct importer *imp, uint32_t id, const struct fn_rec *f)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_FUNCTION,
		"INSERT INTO functions VALUES (?1, ?2, ?3, ?4, ?5, ?6)");

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
	return imp_db_step(imp, st);
}

/* Function id of a frame (0 when it has no name). */
static int fn_intern(struct importer *imp, const struct dgsym_frame *fr, int module,
                     uint32_t *id)
{
	struct fn_rec f = { fr->function, fr->linkage_name, fr->decl_file, fr->decl_line, module };
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
		if (added || fn_same(&fns[imp->fn_ids.vals[s] - 1], &f))
			break;
	}
	*id = imp->fn_ids.vals[s];
	if (!added)
		return 0;
	if (dg_grow((void **)&fns, &cap_fns, imp->n_functions + 1, sizeof *fns) < 0)
		return imp_fail(imp, "out of memory");
	fns[imp->n_functions++] = f;
	return fn_row(imp, *id, &f);
}

static int pc_rows(struct importer *imp, uint64_t pc, int module,
                   const struct dgsym_frame *fr, const uint32_t *ids, int n)
{
	sqlite3_stmt *p = imp_db_stmt(imp, ST_PC, "INSERT INTO pcs VALUES (?1, ?2, ?3, ?4, ?5)");
	sqlite3_stmt *in = imp_db_stmt(imp, ST_INLINE,
		"INSERT INTO pc_inlines VALUES (?1, ?2, ?3, ?4, ?5)");
	int k;

	if (!p || !in)
		return -1;
	sqlite3_bind_int64(p, 1, (int64_t)pc);
	if (module >= 0)
		sqlite3_bind_int64(p, 2, module + 1);
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
		sqlite3_bind_int(in, 2, k);
		sqlite3_bind_int64(in, 3, ids[k]);
		if (fr[k].file)
			sqlite3_bind_text(in, 4, fr[k].file, -1, SQLITE_STATIC);
		if (fr[k].line)
			sqlite3_bind_int(in, 5, fr[k].line);
		if (imp_db_step(imp, in) < 0)
			return -1;
	}
	return 0;
}

int imp_sym_pc(struct importer *imp, uint64_t pc, uint32_t *function)
{
	struct dgsym_frame fr[MAX_INLINE];
	uint32_t ids[MAX_INLINE];
	uint32_t v = dghash_get(&imp->pc_fn, pc);
	int module, n, k, added;

	if (v != DGHASH_NONE) {
		*function = v;
		return 0;
	}
	n = dgsym_lookup(imp->sym, pc, &module, fr, MAX_INLINE);
	for (k = 0; k < n; k++)
		if (fn_intern(imp, &fr[k], module, &ids[k]) < 0)
			return -1;
	*function = n > 0 ? ids[0] : 0;
	if (dghash_put(&imp->pc_fn, pc, *function, &added) < 0)
		return imp_fail(imp, "out of memory");
	return pc_rows(imp, pc, module, fr, ids, n);
}

/* ------------------------------------------------------------ stacks */

static uint64_t stack_key(const uint64_t *f, uint64_t n)
{
	uint64_t h = n * 0x9E3779B97F4A7C15ULL, i;

	for (i = 0; i < n; i++)
		h = dghash_mix(h ^ f[i]);
	return h;
}

static int stack_same(uint32_t id, const uint64_t *f, uint64_t n)
{
	return stack_at[id - 1].n == n
	    && memcmp(stack_words + stack_at[id - 1].off, f, n * sizeof *f) == 0;
}

static int stack_rows(struct importer *imp, int64_t id, const uint64_t *f, uint64_t n)
{
	sqlite3_stmt *s = imp_db_stmt(imp, ST_STACK, "INSERT INTO stacks VALUES (?1, ?2)");
	sqlite3_stmt *fr = imp_db_stmt(imp, ST_FRAME, "INSERT INTO stack_frames VALUES (?1, ?2, ?3)");
	uint64_t i;
	uint32_t fn;

	if (!s || !fr)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, (int64_t)n);
	if (imp_db_step(imp, s) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(fr, 1, id);
		sqlite3_bind_int64(fr, 2, (int64_t)i);
		sqlite3_bind_int64(fr, 3, (int64_t)f[i]);
		if (imp_db_step(imp, fr) < 0 || imp_sym_pc(imp, f[i], &fn) < 0)
			return -1;
	}
	return 0;
}

int imp_sym_stack(struct importer *imp, const uint64_t *f, uint64_t n, int64_t *id)
{
	uint64_t key;
	int added;
	long s;

	for (key = stack_key(f, n);; key++) {
		s = dghash_put(&imp->stacks, key, (uint32_t)imp->n_stacks + 1, &added);
		if (s < 0)
			return imp_fail(imp, "out of memory");
		if (added || stack_same(imp->stacks.vals[s], f, n))
			break;
	}
	*id = imp->stacks.vals[s];
	if (!added)
		return 0;
	if (dg_grow((void **)&stack_at, &cap_stack_at, imp->n_stacks + 1, sizeof *stack_at) < 0
	    || dg_grow((void **)&stack_words, &cap_stack_words, n_stack_words + n + 1,
	            sizeof *stack_words) < 0)
		return imp_fail(imp, "out of memory");
	stack_at[imp->n_stacks].off = n_stack_words;
	stack_at[imp->n_stacks].n = (uint32_t)n;
	if (n)
		memcpy(stack_words + n_stack_words, f, n * sizeof *f);
	n_stack_words += n;
	imp->n_stacks++;
	return stack_rows(imp, *id, f, n);
}

/* ------------------------------------------------------------ finish */

int imp_sym_finish(struct importer *imp)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_MODULE,
		"INSERT INTO modules VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	int m, n = dgsym_n_modules(imp->sym);

	if (!st)
		return -1;
	for (m = 0; m < n; m++) {
		const char *id = dgsym_module_build_id(imp->sym, m);
		const char *dbg = dgsym_module_debug_file(imp->sym, m);
		sqlite3_bind_int64(st, 1, m + 1);
		sqlite3_bind_text(st, 2, dgsym_module_path(imp->sym, m), -1, SQLITE_STATIC);
		if (id)
			sqlite3_bind_text(st, 3, id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, (int64_t)dgsym_module_bias(imp->sym, m));
		sqlite3_bind_int64(st, 5, (int64_t)dgsym_module_lo(imp->sym, m));
		sqlite3_bind_int64(st, 6, (int64_t)dgsym_module_hi(imp->sym, m));
		if (dbg)
			sqlite3_bind_text(st, 7, dbg, -1, SQLITE_STATIC);
		if (imp_db_step(imp, st) < 0)
			return -1;
	}
	return 0;
}
