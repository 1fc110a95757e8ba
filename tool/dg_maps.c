/* dg_maps.c: the module map.  See dg_maps.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "dg_format.h"
#include "dg_maps.h"
#include "dg_stream.h"
#include "dg_out.h"

#define MAX_BUILD_ID  64
#define MAX_PHDRS     64
#define MAX_NOTES     4096
#define MAX_PRELOAD   16

static struct { Addr start, end; } preload[MAX_PRELOAD];
static UInt n_preload;

Bool dg_maps_in_preload(Addr a)
{
	UInt i;

	for (i = 0; i < n_preload; i++)
		if (a >= preload[i].start && a < preload[i].end)
			return True;
	return False;
}

static void preload_note(Addr a, SizeT len, const HChar *path)
{
	const HChar *base = VG_(strrchr)(path, '/');

	base = base ? base + 1 : path;
	if (VG_(strncmp)(base, "vgpreload_", 10) == 0 && n_preload < MAX_PRELOAD) {
		preload[n_preload].start = a;
		preload[n_preload].end = a + len;
		n_preload++;
		dg_stream_ctl(DG_CTL_PRELOAD, a, a + len, 0);
	}
}

/* What the ELF file says about a mapping. */
struct elf_facts {
	Addr  bias;
	UInt  id_len;
	UChar id[MAX_BUILD_ID];
};

static ULong get_u(const UChar *p, UInt n)
{
	ULong v = 0;

	while (n--)
		v = v << 8 | p[n];      /* little-endian: the only ELF we map */
	return v;
}

static Bool read_at(Int fd, void *buf, SizeT n, Off64T off)
{
	return VG_(lseek)(fd, off, VKI_SEEK_SET) == off
	    && VG_(read)(fd, buf, n) == (Int)n;
}

/* Find the GNU build-id in a PT_NOTE segment. */
static void notes_scan(Int fd, ULong off, ULong size, struct elf_facts *f)
{
	UChar buf[MAX_NOTES];
	ULong pos = 0;

	if (size > sizeof buf)
		size = sizeof buf;
	if (!read_at(fd, buf, size, off))
		return;
	while (pos + 12 <= size) {
		ULong namesz = get_u(buf + pos, 4), descsz = get_u(buf + pos + 4, 4);
		ULong type = get_u(buf + pos + 8, 4);
		ULong name_at = pos + 12, desc_at = name_at + ((namesz + 3) & ~3ULL);
		ULong next = desc_at + ((descsz + 3) & ~3ULL);
		if (next > size || next <= pos)
			return;
		if (type == 3 && namesz == 4 && VG_(memcmp)(buf + name_at, "GNU", 4) == 0
		    && descsz <= MAX_BUILD_ID) {
			VG_(memcpy)(f->id, buf + desc_at, descsz);
			f->id_len = descsz;
			return;
		}
		pos = next;
	}
}

/* Read bias and build-id of a 64-bit little-endian ELF file mapped at
   `start` from file offset `off` with permissions `prot`.  Anything
   unexpected leaves zeros. */
static void elf_facts_read(const HChar *path, Addr start, ULong off, UChar prot,
                           struct elf_facts *f)
{
	UChar eh[64], ph[56 * MAX_PHDRS];
	ULong phoff, phnum, phentsize, i, best_off = 0;
	Int best = 0;
	SysRes sr;
	Int fd;

	VG_(memset)(f, 0, sizeof *f);
	sr = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(sr))
		return;
	fd = sr_Res(sr);
	if (!read_at(fd, eh, sizeof eh, 0) || VG_(memcmp)(eh, "\177ELF\2\1", 6) != 0)
		goto out;
	phoff = get_u(eh + 32, 8);
	phentsize = get_u(eh + 54, 2);
	phnum = get_u(eh + 56, 2);
	if (phentsize != 56 || phnum == 0 || phnum > MAX_PHDRS
	    || !read_at(fd, ph, phnum * 56, phoff))
		goto out;
	/* The mapping at file offset `off` comes from a PT_LOAD whose
	   page-rounded file range holds `off`.  Segments may share a file page
	   (the end of .rodata and the start of .data, say), so several may;
	   the one whose permissions are the mapping's is it (the loader maps
	   each segment with its own flags), else the later one. */
	for (i = 0; i < phnum; i++) {
		const UChar *p = ph + 56 * i;
		ULong type = get_u(p, 4), p_flags = get_u(p + 4, 4), p_off = get_u(p + 8, 8);
		ULong vaddr = get_u(p + 16, 8), filesz = get_u(p + 32, 8);
		UChar seg_prot = ((p_flags & 4) ? DG_PROT_READ : 0)
		               | ((p_flags & 2) ? DG_PROT_WRITE : 0)
		               | ((p_flags & 1) ? DG_PROT_EXEC : 0);
		Int score;
		if (type == 4 /* PT_NOTE */ && f->id_len == 0)
			notes_scan(fd, p_off, filesz, f);
		if (type != 1 /* PT_LOAD */ || (p_off & ~0xFFFULL) > off || off >= p_off + filesz)
			continue;
		score = (seg_prot == prot ? 2 : 0) + 1;
		if (score > best || (score == best && p_off > best_off)) {
			f->bias = start - vaddr + p_off - off;
			best_off = p_off;
			best = score;
		}
	}
out:
	VG_(close)(fd);
}

static void mmap_write(Addr a, SizeT len, ULong off, UChar prot,
                       const HChar *path)
{
	struct elf_facts f;

	elf_facts_read(path, a, off, prot, &f);
	dg_out_begin_long(DG_R_MMAP);
	dg_out_word(a);
	dg_out_word(len);
	dg_out_word(off);
	dg_out_word(f.bias);
	dg_out_u8(prot);
	dg_out_u8((UChar)f.id_len);
	dg_out_bytes_raw(f.id, f.id_len);
	dg_out_string(path, 4096);
	dg_out_end();
}

static void mapping_seen(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                         ULong di_handle)
{
	NSegment const *seg = VG_(am_find_nsegment)(a);
	const HChar *path;

	if (!seg || seg->kind != SkFileC)
		return;
	path = VG_(am_get_filename)(seg);
	if (!path)
		return;
	preload_note(a, len, path);
	mmap_write(a, len, seg->offset + (a - seg->start),
	           (rr ? DG_PROT_READ : 0) | (ww ? DG_PROT_WRITE : 0)
	           | (xx ? DG_PROT_EXEC : 0), path);
}

static void unmapping_seen(Addr a, SizeT len)
{
	dg_out_begin_short(DG_R_MUNMAP);
	dg_out_word(a);
	dg_out_word(len);
	dg_out_end();
}

void dg_maps_init(void)
{
	VG_(track_new_mem_startup)(mapping_seen);
	VG_(track_new_mem_mmap)(mapping_seen);
	VG_(track_die_mem_munmap)(unmapping_seen);
}

void dg_maps_replay(void)
{
	static Addr starts[16384];
	Int i, n = VG_(am_get_segment_starts)(SkFileC, starts, 16384);

	if (n < 0) {
		VG_(umsg)("datagrind: more than 16384 file mappings; the child's "
		          "log lists the first 16384\n");
		n = 16384;
	}
	for (i = 0; i < n; i++) {
		NSegment const *s = VG_(am_find_nsegment)(starts[i]);
		const HChar *path = s ? VG_(am_get_filename)(s) : NULL;
		if (path)
			mmap_write(s->start, s->end + 1 - s->start, s->offset,
			           (s->hasR ? DG_PROT_READ : 0) | (s->hasW ? DG_PROT_WRITE : 0)
			           | (s->hasX ? DG_PROT_EXEC : 0), path);
	}
}
