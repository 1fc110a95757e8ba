/* dgsym.c: the symbolizer (see dgsym.h for what it promises).
 *
 * Three tables: interned strings (an open-addressing hash over an arena),
 * modules (one per path + build-id + bias, each string of the path heading a
 * list of its modules), and the address map: sorted, disjoint [lo, hi)
 * ranges, each naming a module; a new mapping or an unmap replaces whatever
 * it overlaps, so a lookup is one binary search.
 *
 * Each module, when first needed, gets its own offline Dwfl session holding
 * that one file, reported at its ELF addresses (so that two libraries mapped
 * at the same place at different times never meet in one session).  A
 * run-time address a becomes the session address a - bias + dwfl_bias.
 *
 * What DWARF says at an address (the function, the inline chain, their
 * names) is dgscope.c's; its index of a module's units lives in the
 * module, and it interns its strings in the pool here.  Without DWARF, the
 * ELF symbol table, the PLT and the entry addresses name the code (the
 * end of this file).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgsym.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dgdebugf.h"
#include "dgentry.h"
#include "dgmem.h"
#include "dgplt.h"
#include "dgscope.h"

/* libstdc++'s demangler, the one c++filt's output matches. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
			    int *status);

#define MAX_ID      64          /* longest build-id kept (bytes) */
#define ARENA_CHUNK 65536

/* ---------------------------------------------------------------- strings */

struct istr {
	const char *s;
	size_t len;
	uint32_t hash;
	int first_mod;          /* first module with this path, or -1 */
	const char *demangled;  /* cached printable form, NULL until asked */
};

struct arena {
	struct arena *next;
	size_t used, cap;
	char data[];
};

struct pool {
	struct istr *v;
	size_t n, cap;
	int *slot;              /* index into v, or -1; nslot a power of 2 */
	size_t nslot;
	struct arena *arena;
};

/* ---------------------------------------------------------------- modules */

struct mod {
	int path;               /* istr index */
	const char *build_id;   /* hex, interned, or NULL */
	uint8_t id[MAX_ID];
	size_t id_len;
	uint64_t bias, lo, hi;
	int next_same_path;
	int loaded;
	enum dgsym_state state;
	const char *debug_file;
	Dwfl *dwfl;
	Dwfl_Module *dm;
	Dwarf_Addr dwfl_bias;   /* session address minus ELF address */
	struct dgdebugf_req *req;       /* how its debug file was sought */
	const char *sym_from, *problem; /* dgsym_module_symbols_from/problem */
	struct dgplt plt;       /* PLT stub names and */
	struct dgentry ent;     /* entry addresses, once tables_loaded */
	int tables_loaded;
	struct fsym *sym;       /* function symbols by address (libdwfl's own */
	size_t nsym;            /* search is linear in the table), once */
	int syms_loaded;
	struct dgscope_cus cus; /* its units' functions, at first need */
};

struct range {
	uint64_t lo, hi;
	int mod;
};

/* A function symbol of a module's symbol table (session addresses). */
struct fsym {
	uint64_t lo, size;
	const char *name;       /* libdw's string, valid while dwfl lives */
	int global;
};

struct dgsym {
	struct pool str;
	struct dgscope dw;      /* what DWARF says, with its name caches */
	struct mod *mod;
	int nmod, capmod;
	struct range *map;
	size_t nmap, capmap;
	Dwfl_Callbacks cb;
	struct dgdebugf *df;
	char err[256];
};

static int fail(struct dgsym *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(struct dgsym *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* Grow *v (of *cap elements of size sz) to hold at least need; 0 or -1. */

/* ---------------------------------------------------------------- interning */

static uint32_t hash_bytes(const char *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (uint8_t)*p++) * 16777619u;
	return h;
}

static char *arena_copy(struct pool *p, const char *src, size_t len)
{
	struct arena *a = p->arena;
	char *dst;

	if (!a || a->cap - a->used < len + 1) {
		size_t cap = len + 1 > ARENA_CHUNK ? len + 1 : ARENA_CHUNK;

		a = malloc(sizeof *a + cap);
		if (!a)
			return NULL;
		a->used = 0;
		a->cap = cap;
		a->next = p->arena;
		p->arena = a;
	}
	dst = a->data + a->used;
	memcpy(dst, src, len);
	dst[len] = '\0';
	a->used += len + 1;
	return dst;
}

static int pool_rehash(struct pool *p)
{
	size_t nslot = p->nslot ? p->nslot * 2 : 1024, i;
	int *slot = malloc(nslot * sizeof *slot);

	if (!slot)
		return -1;
	for (i = 0; i < nslot; i++)
		slot[i] = -1;
	for (i = 0; i < p->n; i++) {
		size_t j = p->v[i].hash & (nslot - 1);

		while (slot[j] >= 0)
			j = (j + 1) & (nslot - 1);
		slot[j] = (int)i;
	}
	free(p->slot);
	p->slot = slot;
	p->nslot = nslot;
	return 0;
}

/* The index of the interned copy of src[0..len), or -1 if out of memory. */
static int pool_intern(struct pool *p, const char *src, size_t len)
{
	uint32_t h = hash_bytes(src, len);
	size_t j;
	struct istr *e;

	if ((p->n + 1) * 2 > p->nslot && pool_rehash(p) < 0)
		return -1;
	for (j = h & (p->nslot - 1); p->slot[j] >= 0; j = (j + 1) & (p->nslot - 1)) {
		e = &p->v[p->slot[j]];
		if (e->hash == h && e->len == len && !memcmp(e->s, src, len))
			return p->slot[j];
	}
	if (p->n >= INT32_MAX || dg_grow(&p->v, &p->cap, p->n + 1, sizeof *p->v) < 0)
		return -1;
	e = &p->v[p->n];
	e->s = arena_copy(p, src, len);
	if (!e->s)
		return -1;
	e->len = len;
	e->hash = h;
	e->first_mod = -1;
	e->demangled = NULL;
	p->slot[j] = (int)p->n;
	return (int)p->n++;
}

/* The interned string, or NULL for NULL or when out of memory (a lookup
 * then just knows less). */
static const char *intern(struct dgsym *s, const char *str)
{
	int i;

	if (!str)
		return NULL;
	i = pool_intern(&s->str, str, strlen(str));
	return i < 0 ? NULL : s->str.v[i].s;
}

/* Printable form of a symbol name: demangled if it is a C++ one, else the
 * name itself.  Cached per interned name. */
static const char *printable(struct dgsym *s, const char *name)
{
	int i, status = -1;
	struct istr *e;
	char *dem = NULL;

	if (!name)
		return NULL;
	i = pool_intern(&s->str, name, strlen(name));
	if (i < 0)
		return NULL;
	e = &s->str.v[i];
	if (e->demangled)
		return e->demangled;
	if (name[0] == '_' && name[1] == 'Z')
		dem = __cxa_demangle(name, NULL, NULL, &status);
	if (dem && status == 0) {
		const char *d = intern(s, dem);

		e = &s->str.v[i];       /* intern may have moved the table */
		e->demangled = d ? d : e->s;
	} else {
		e->demangled = e->s;
	}
	free(dem);
	return e->demangled;
}

/* The string pool as dgscope.c reaches it (struct dgscope). */
static const char *dw_intern(void *s, const char *str)
{
	return intern(s, str);
}

static const char *dw_printable(void *s, const char *name)
{
	return printable(s, name);
}

/* ---------------------------------------------------------------- life */

struct dgsym *dgsym_new(char *err, size_t errlen)
{
	struct dgsym *s = calloc(1, sizeof *s);

	if (!s) {
		snprintf(err, errlen, "dgsym: out of memory");
		return NULL;
	}
	s->df = dgdebugf_new();
	if (!s->df) {
		free(s);
		snprintf(err, errlen, "dgsym: out of memory");
		return NULL;
	}
	s->cb.find_elf = dwfl_build_id_find_elf;
	s->cb.find_debuginfo = dgdebugf_find;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = dgdebugf_path(s->df);    /* NULL: the default */
	s->dw.intern = dw_intern;
	s->dw.printable = dw_printable;
	s->dw.arg = s;
	return s;
}

int dgsym_set_debug_dirs(struct dgsym *s, const char *dirs)
{
	if (dgdebugf_set_dirs(s->df, dirs) < 0)
		return fail(s, "dgsym: out of memory");
	return 0;
}

int dgsym_set_system_debug(struct dgsym *s, int on)
{
	if (dgdebugf_set_system(s->df, on) < 0)
		return fail(s, "dgsym: out of memory");
	return 0;
}

static void mod_release(struct mod *m)
{
	dgscope_cus_free(&m->cus);
	if (m->dwfl)
		dwfl_end(m->dwfl);
	free(m->req);
	free(m->sym);
	dgplt_free(&m->plt);
	dgentry_free(&m->ent);
}

void dgsym_free(struct dgsym *s)
{
	struct arena *a, *next;
	int i;

	if (!s)
		return;
	for (i = 0; i < s->nmod; i++)
		mod_release(&s->mod[i]);
	free(s->mod);
	free(s->map);
	dgscope_free(&s->dw);
	for (a = s->str.arena; a; a = next) {
		next = a->next;
		free(a);
	}
	free(s->str.v);
	free(s->str.slot);
	dgdebugf_free(s->df);
	free(s);
}

const char *dgsym_errmsg(const struct dgsym *s)
{
	return s->err;
}

/* ---------------------------------------------------------------- the map */

/* First range with hi > a (ranges are sorted and disjoint). */
static size_t map_first_after(const struct dgsym *s, uint64_t a)
{
	size_t lo = 0, hi = s->nmap;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->map[mid].hi > a)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Make [lo, hi) belong to module mod (mod < 0: to nothing), cutting what it
 * overlaps.  0, or -1 when out of memory. */
static int map_set(struct dgsym *s, uint64_t lo, uint64_t hi, int mod)
{
	size_t i = map_first_after(s, lo), j = i, k = 0, cap = s->capmap;
	struct range put[3];

	while (j < s->nmap && s->map[j].lo < hi)
		j++;
	if (j > i && s->map[i].lo < lo)
		put[k++] = (struct range){ s->map[i].lo, lo, s->map[i].mod };
	if (mod >= 0)
		put[k++] = (struct range){ lo, hi, mod };
	if (j > i && s->map[j - 1].hi > hi)
		put[k++] = (struct range){ hi, s->map[j - 1].hi, s->map[j - 1].mod };
	if (dg_grow(&s->map, &cap, s->nmap - (j - i) + k, sizeof *s->map) < 0)
		return fail(s, "dgsym: out of memory");
	s->capmap = cap;
	if (s->nmap > j)        /* no calls with a NULL map and size 0 */
		memmove(s->map + i + k, s->map + j, (s->nmap - j) * sizeof *s->map);
	if (k)
		memcpy(s->map + i, put, k * sizeof *put);
	s->nmap = s->nmap - (j - i) + k;
	return 0;
}

static int map_find(const struct dgsym *s, uint64_t a)
{
	size_t i = map_first_after(s, a);

	return i < s->nmap && s->map[i].lo <= a ? s->map[i].mod : -1;
}

/* The end of [start, start+len), clamped to the address space. */
static uint64_t range_end(uint64_t start, uint64_t len)
{
	return len > UINT64_MAX - start ? UINT64_MAX : start + len;
}

int dgsym_unmap(struct dgsym *s, uint64_t start, uint64_t len)
{
	uint64_t end = range_end(start, len);

	return end > start ? map_set(s, start, end, -1) : 0;
}

/* ---------------------------------------------------------------- modules */

static int mod_same(const struct mod *m, uint64_t bias, const uint8_t *id,
		    size_t id_len)
{
	return m->bias == bias && m->id_len == id_len &&
	       (id_len == 0 || !memcmp(m->id, id, id_len));
}

static const char *hex_id(struct dgsym *s, const uint8_t *id, size_t n)
{
	char buf[2 * MAX_ID + 1];
	size_t i;

	if (n == 0)
		return NULL;
	for (i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", id[i]);
	return intern(s, buf);
}

/* The module of (path, bias, build-id), made if new; -1 if out of memory. */
static int mod_get(struct dgsym *s, const char *path, uint64_t bias,
		   const uint8_t *id, size_t id_len)
{
	int p = pool_intern(&s->str, path, strlen(path)), m;
	size_t cap = (size_t)s->capmod;
	struct mod *md;

	if (p < 0)
		return fail(s, "dgsym: out of memory");
	for (m = s->str.v[p].first_mod; m >= 0; m = s->mod[m].next_same_path)
		if (mod_same(&s->mod[m], bias, id, id_len))
			return m;
	if (s->nmod >= INT32_MAX - 1 ||
	    dg_grow(&s->mod, &cap, (size_t)s->nmod + 1, sizeof *s->mod) < 0)
		return fail(s, "dgsym: out of memory");
	s->capmod = (int)(cap > INT32_MAX ? INT32_MAX : cap);
	md = &s->mod[s->nmod];
	memset(md, 0, sizeof *md);
	md->path = p;
	md->bias = bias;
	md->id_len = id_len;
	if (id_len)
		memcpy(md->id, id, id_len);
	md->build_id = hex_id(s, id, id_len);
	if (id_len && !md->build_id)
		return fail(s, "dgsym: out of memory");
	md->lo = UINT64_MAX;
	md->next_same_path = s->str.v[p].first_mod;
	s->str.v[p].first_mod = s->nmod;
	return s->nmod++;
}

int dgsym_add_mapping(struct dgsym *s, uint64_t start, uint64_t len,
		      uint64_t offset, uint64_t bias, int prot,
		      const uint8_t *build_id, size_t id_len, const char *path)
{
	uint64_t end = range_end(start, len);
	int m;

	(void)offset;
	(void)prot;
	if (!build_id || id_len > MAX_ID)
		id_len = 0;     /* no real build-id is that long: don't check */
	m = mod_get(s, path ? path : "", bias, build_id, id_len);
	if (m < 0)
		return -1;
	if (end > start) {
		if (map_set(s, start, end, m) < 0)
			return -1;
		if (start < s->mod[m].lo)
			s->mod[m].lo = start;
		if (end > s->mod[m].hi)
			s->mod[m].hi = end;
	}
	return m;
}

/* ---------------------------------------------------------------- loading */

/* A descriptor of path if it is a regular file; never blocks on a FIFO. */
static int open_regular(const char *path)
{
	struct stat st;
	int fd;

	if (!path[0])
		return -1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Does the build-id of the file in the session match the log's? */
static int id_matches(const struct mod *m)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n;

	if (m->id_len == 0)
		return 1;
	n = dwfl_module_build_id(m->dm, &bits, &vaddr);
	return n > 0 && (size_t)n == m->id_len && !memcmp(bits, m->id, m->id_len);
}

/* Report the file alone in a new session; sets m->dwfl and m->dm, or
 * m->problem. */
static void mod_report(struct dgsym *s, struct mod *m, const char *path)
{
	int fd = open_regular(path);

	if (fd < 0) {
		m->problem = intern(s, path[0] ? strerror(errno ? errno : EINVAL)
					       : "no file name in the trace");
		return;
	}
	m->req = calloc(1, sizeof *m->req);
	m->dwfl = m->req ? dwfl_begin(&s->cb) : NULL;
	if (!m->dwfl) {
		close(fd);
		m->problem = intern(s, "out of memory");
		return;
	}
	m->req->f = s->df;
	dwfl_report_begin(m->dwfl);
	m->dm = dwfl_report_elf(m->dwfl, path, path, fd, 0, 1);
	if (!m->dm) {
		close(fd);      /* on failure libdwfl leaves our descriptor */
		m->problem = intern(s, dwfl_errmsg(-1));
	} else {
		dgdebugf_attach(m->dm, m->req);
	}
	if (dwfl_report_end(m->dwfl, NULL, NULL) != 0)
		m->dm = NULL;
}

/* The file the DWARF was read from; NULL for a download of libdw's
 * debuginfod client (libdw does not say where it put it). */
static const char *mod_debug_name(struct dgsym *s, struct mod *m)
{
	const char *mainfile = NULL, *debugfile = NULL;

	dwfl_module_info(m->dm, NULL, NULL, NULL, NULL, NULL, &mainfile,
			 &debugfile);
	if (!debugfile && m->req->route == DGDF_DEBUGINFOD)
		return m->req->file[0] ? intern(s, m->req->file) : NULL;
	return intern(s, debugfile ? debugfile : mainfile);
}

/* Does the module's main ELF file have a section of that name? */
static int has_section(struct mod *m, const char *name)
{
	Dwarf_Addr bias;
	Elf *e = dwfl_module_getelf(m->dm, &bias);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *n;

	if (!e || elf_getshdrstrndx(e, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(e, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && (n = elf_strptr(e, shstrndx,
			sh.sh_name)) && !strcmp(n, name) && sh.sh_type != SHT_NOBITS)
			return 1;
	return 0;
}

/* Which symbol table libdw uses for the module, in its order of
 * preference (libdwfl's find_symtab and find_aux_sym). */
static const char *symtab_source(struct mod *m)
{
	if (has_section(m, ".symtab"))
		return ".symtab";
	if (m->req->route != DGDF_NONE && m->state == DGSYM_DWARF)
		return "the debug file's .symtab";
	if (has_section(m, ".gnu_debugdata") && dwfl_module_getsymtab(m->dm) > 0)
		return ".gnu_debugdata";
	if (has_section(m, ".dynsym"))
		return ".dynsym";
	return NULL;
}

/* Set m->sym_from (and m->problem for an unusable debug file). */
static void mod_describe(struct dgsym *s, struct mod *m)
{
	static const char *const route[] = {
		[DGDF_DIR] = "a debug directory", [DGDF_CACHE] = "the debuginfod cache",
		[DGDF_LOCAL] = "a local debug file", [DGDF_DEBUGINFOD] = "debuginfod",
	};
	char buf[1024];
	const char *tab = symtab_source(m);

	if (m->state == DGSYM_DWARF) {
		snprintf(buf, sizeof buf, "DWARF: %s%s%s%s", m->debug_file ?
			 m->debug_file : "?", route[m->req->route] ? " (from " : "",
			 route[m->req->route] ? route[m->req->route] : "",
			 route[m->req->route] ? ")" : "");
		m->sym_from = intern(s, buf);
		return;
	}
	if (m->req->route != DGDF_NONE && !m->problem) {
		snprintf(buf, sizeof buf, "debug file from %s (%s): %s",
			 route[m->req->route], m->req->file[0] ? m->req->file
			 : "no name", dwfl_errmsg(-1));
		m->problem = intern(s, buf);
	}
	snprintf(buf, sizeof buf, "%s%sentry addresses", tab ? tab : "",
		 tab ? ", " : "");
	m->sym_from = intern(s, buf);
}

/* "truncated: ..." if the file ends before the segments its program
 * headers describe (libelf reads such a file without complaint), or NULL. */
static const char *truncation(struct dgsym *s, struct mod *m)
{
	Dwarf_Addr bias;
	Elf *e = dwfl_module_getelf(m->dm, &bias);
	uint64_t need = 0;
	size_t nph, i;
	GElf_Phdr ph;
	struct stat st;
	char buf[128];

	if (!e || elf_getphdrnum(e, &nph) != 0 ||
	    stat(s->str.v[m->path].s, &st) != 0)
		return NULL;
	for (i = 0; i < nph; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_offset + ph.p_filesz > need)
			need = ph.p_offset + ph.p_filesz;
	if ((uint64_t)st.st_size >= need)
		return NULL;
	snprintf(buf, sizeof buf, "truncated: %lld bytes, its segments need %llu",
		 (long long)st.st_size, (unsigned long long)need);
	return intern(s, buf);
}

/* Open the module's file, once; sets state, debug_file, dm. */
static void mod_load(struct dgsym *s, struct mod *m)
{
	Dwarf_Addr dwbias;

	if (m->loaded)
		return;
	m->loaded = 1;
	m->state = DGSYM_MISSING;
	m->sym_from = intern(s, "none");
	mod_report(s, m, s->str.v[m->path].s);
	if (m->dm && !id_matches(m)) {
		m->state = DGSYM_MISMATCH;
		m->problem = intern(s, "its build-id differs from the trace's: "
				    "the file changed since");
		m->dm = NULL;
	}
	if (!m->dm || !dwfl_module_getelf(m->dm, &m->dwfl_bias)) {
		if (m->dm && !m->problem)
			m->problem = intern(s, dwfl_errmsg(-1));
		if (m->dwfl)
			dwfl_end(m->dwfl);
		m->dwfl = NULL;
		m->dm = NULL;
		return;
	}
	m->state = DGSYM_SYMTAB;
	m->problem = truncation(s, m);
	if (dwfl_module_getdwarf(m->dm, &dwbias)) {
		m->state = DGSYM_DWARF;
		m->debug_file = mod_debug_name(s, m);
	}
	if (m->req->problem[0] && !m->problem)
		m->problem = intern(s, m->req->problem);
	mod_describe(s, m);
}

/* The ELF-side tables of a module (PLT stubs, entries), at first need. */
static void mod_tables(struct mod *m)
{
	Dwarf_Addr bias;
	Elf *e;

	if (m->tables_loaded)
		return;
	m->tables_loaded = 1;
	e = dwfl_module_getelf(m->dm, &bias);
	if (dgplt_load(&m->plt, e) < 0)
		dgplt_free(&m->plt);    /* out of memory: fewer names */
	if (dgentry_load(&m->ent, e) < 0)
		dgentry_free(&m->ent);
}

/* The nearest entry at or before ELF address a that is after the symbol
 * at ELF address symval, or 0. */
static uint64_t entry_after(struct mod *m, uint64_t a, uint64_t symval)
{
	uint64_t entry;

	mod_tables(m);
	return dgentry_find(&m->ent, a, &entry) == 0 && entry > symval ? entry : 0;
}

static int fsym_cmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return y->global - x->global;   /* at one address, globals first */
}

/* The module's function symbols (libdw's choice of table: .symtab, the
 * debug file's, .gnu_debugdata, .dynsym), sorted once. */
static void mod_syms(struct mod *m)
{
	int n, i;
	GElf_Sym sym;
	GElf_Addr addr;
	GElf_Word shndx;
	const char *name;

	if (m->syms_loaded)
		return;
	m->syms_loaded = 1;
	n = dwfl_module_getsymtab(m->dm);
	if (n <= 0 || !(m->sym = malloc((size_t)n * sizeof *m->sym)))
		return;
	for (i = 1; i < n; i++) {
		name = dwfl_module_getsym_info(m->dm, i, &sym, &addr, &shndx,
					       NULL, NULL);
		if (!name || !name[0] || sym.st_shndx == SHN_UNDEF ||
		    (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		     GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC))
			continue;
		m->sym[m->nsym++] = (struct fsym){ addr, sym.st_size, name,
			GELF_ST_BIND(sym.st_info) == STB_GLOBAL };
	}
	dg_sort(m->sym, m->nsym, sizeof *m->sym, fsym_cmp);
}

/* The function symbol holding session address a: the nearest one before
 * it that contains it (a few back, for nested symbols), else the nearest
 * sizeless one; NULL if none. */
static const struct fsym *sym_find(struct mod *m, uint64_t a)
{
	size_t lo = 0, hi, k, at;

	mod_syms(m);
	hi = m->nsym;
	while (lo < hi) {               /* first symbol starting after a */
		size_t mid = lo + (hi - lo) / 2;

		if (m->sym[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; k < 8 && k < lo; k++) {
		at = lo - 1 - k;
		while (at > 0 && m->sym[at - 1].lo == m->sym[at].lo)
			at--;           /* the first (global) at that address */
		if (a - m->sym[at].lo < m->sym[at].size)
			return &m->sym[at];
	}
	return lo > 0 && m->sym[lo - 1].size == 0 ? &m->sym[lo - 1] : NULL;
}

/* One frame from the ELF symbol table (and the line table, if any).  A
 * symbol without a size does not reach past the next entry address. */
static int symtab_frame(struct dgsym *s, struct mod *m, Dwarf_Addr addr,
			struct dgsym_frame *f)
{
	const struct fsym *sym = sym_find(m, addr);
	Dwarf_Addr cubias;
	Dwarf_Die *cudie;
	const char *name = sym ? sym->name : NULL;
	uint64_t a = addr - m->dwfl_bias;

	if (!name || (sym->size == 0 &&
		      entry_after(m, a, sym->lo - m->dwfl_bias)))
		return 0;
	memset(f, 0, sizeof *f);
	f->linkage_name = intern(s, name);
	f->function = printable(s, name);
	f->origin = DGSYM_BY_SYMTAB;
	cudie = dwfl_module_addrdie(m->dm, addr, &cubias);
	if (cudie)
		dgscope_position(&s->dw, cudie, addr - cubias, f);
	return 1;
}

/* The PLT header's name, after its module (every module has one, and
 * lazy binding runs through it): "PLT0@libc.so.6". */
static const char *plt0_name(struct dgsym *s, const struct mod *m)
{
	const char *path = s->str.v[m->path].s, *base = strrchr(path, '/');
	char buf[1024];

	snprintf(buf, sizeof buf, "PLT0@%s", base ? base + 1 : path);
	return intern(s, buf);
}

/* A PLT stub's frame ("memcpy@plt", demangled as c++filt does; the PLT
 * header "PLT0@libc.so.6"), or 0. */
static int plt_frame(struct dgsym *s, struct mod *m, uint64_t a,
		     struct dgsym_frame *f)
{
	const struct dgplt_stub *stub;
	const char *sym, *nice;
	char buf[1024];

	mod_tables(m);
	stub = dgplt_find(&m->plt, a);
	if (!stub)
		return 0;
	memset(f, 0, sizeof *f);
	f->origin = DGSYM_BY_SYMTAB;
	if (!stub->name) {
		f->function = f->linkage_name = plt0_name(s, m);
		return f->function != NULL;
	}
	sym = stub->name;
	nice = printable(s, sym);
	snprintf(buf, sizeof buf, "%s@plt", nice ? nice : sym);
	f->function = intern(s, buf);
	snprintf(buf, sizeof buf, "%s@plt", sym);
	f->linkage_name = intern(s, buf);
	return f->function != NULL;
}

/* The frame of code no symbol names: its function's entry address, as
 * callgrind names it ("0x10ee88", the ELF address); 0 if none is known. */
static int entry_frame(struct dgsym *s, struct mod *m, uint64_t a,
		       struct dgsym_frame *f)
{
	uint64_t entry;
	char buf[32];

	mod_tables(m);
	if (dgentry_find(&m->ent, a, &entry) < 0)
		return 0;
	snprintf(buf, sizeof buf, "0x%" PRIx64, entry);
	memset(f, 0, sizeof *f);
	f->function = intern(s, buf);
	f->origin = DGSYM_BY_ENTRY;
	return f->function != NULL;
}

int dgsym_module_at(const struct dgsym *s, uint64_t pc)
{
	return map_find(s, pc);
}

int dgsym_lookup(struct dgsym *s, uint64_t pc, int *module,
		 struct dgsym_frame *frames, int max)
{
	int mi = map_find(s, pc), n;
	struct mod *m;
	Dwarf_Addr addr;

	if (module)
		*module = mi;
	if (mi < 0 || max <= 0)
		return 0;
	m = &s->mod[mi];
	mod_load(s, m);
	if (!m->dm)
		return 0;
	addr = pc - m->bias + m->dwfl_bias;
	n = m->state == DGSYM_DWARF ? dgscope_frames(&s->dw, &m->cus, m->dm, addr, frames, max) : 0;
	if (n == 0)
		n = plt_frame(s, m, addr - m->dwfl_bias, frames);
	if (n == 0)
		n = symtab_frame(s, m, addr, frames);
	if (n == 0)
		n = entry_frame(s, m, addr - m->dwfl_bias, frames);
	return n;
}

int dgsym_function_at(struct dgsym *s, uint64_t pc, Dwfl_Module **dm,
		      uint64_t *addr, Dwarf_Die *fn)
{
	int mi = map_find(s, pc);
	struct mod *m;
	Dwarf_Addr a, cubias;
	Dwarf_Die *cudie;

	if (mi < 0)
		return 0;
	m = &s->mod[mi];
	mod_load(s, m);
	if (!m->dm || m->state != DGSYM_DWARF)
		return 0;
	a = pc - m->bias + m->dwfl_bias;
	cudie = dwfl_module_addrdie(m->dm, a, &cubias);
	if (!cudie || !dgscope_function(&m->cus, cudie, a - cubias, fn))
		return 0;
	*dm = m->dm;
	*addr = a;
	return 1;
}

/* ---------------------------------------------------------------- facts */

int dgsym_n_modules(const struct dgsym *s)
{
	return s->nmod;
}

static const struct mod *mod_at(const struct dgsym *s, int m)
{
	return m >= 0 && m < s->nmod ? &s->mod[m] : NULL;
}

const char *dgsym_module_path(const struct dgsym *s, int m)
{
	const struct mod *md = mod_at(s, m);

	return md ? s->str.v[md->path].s : NULL;
}

const char *dgsym_module_build_id(const struct dgsym *s, int m)
{
	const struct mod *md = mod_at(s, m);

	return md ? md->build_id : NULL;
}

uint64_t dgsym_module_bias(const struct dgsym *s, int m)
{
	const struct mod *md = mod_at(s, m);

	return md ? md->bias : 0;
}

uint64_t dgsym_module_lo(const struct dgsym *s, int m)
{
	const struct mod *md = mod_at(s, m);

	return md && md->hi ? md->lo : 0;
}

uint64_t dgsym_module_hi(const struct dgsym *s, int m)
{
	const struct mod *md = mod_at(s, m);

	return md ? md->hi : 0;
}

const char *dgsym_module_debug_file(struct dgsym *s, int m)
{
	if (!mod_at(s, m))
		return NULL;
	mod_load(s, &s->mod[m]);
	return s->mod[m].debug_file;
}

enum dgsym_state dgsym_module_state(struct dgsym *s, int m)
{
	if (!mod_at(s, m))
		return DGSYM_MISSING;
	mod_load(s, &s->mod[m]);
	return s->mod[m].state;
}

const char *dgsym_module_symbols_from(struct dgsym *s, int m)
{
	if (!mod_at(s, m))
		return NULL;
	mod_load(s, &s->mod[m]);
	return s->mod[m].sym_from;
}

const char *dgsym_module_problem(struct dgsym *s, int m)
{
	if (!mod_at(s, m))
		return NULL;
	mod_load(s, &s->mod[m]);
	return s->mod[m].problem;
}

void *dgsym_module_dwarf(struct dgsym *s, int m, uint64_t *bias)
{
	struct mod *md;
	Dwarf_Addr dwbias;
	Dwarf *dw;

	if (!mod_at(s, m))
		return NULL;
	md = &s->mod[m];
	mod_load(s, md);
	if (md->state != DGSYM_DWARF || !md->dm || !(dw = dwfl_module_getdwarf(md->dm, &dwbias)))
		return NULL;
	/* DWARF address + dwbias = session address = ELF + dwfl_bias */
	*bias = md->bias + dwbias - md->dwfl_bias;
	return dw;
}
