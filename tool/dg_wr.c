/* dg_wr.c: the log writer.  See dg_wr.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "dg_format.h"
#include "dg_wr.h"
#include "dg_proc.h"

#define WR_BUF_SIZE   DG_WR_BUF_SIZE
#define WR_WRITE_AT   (1u << 20)    /* write(2) calls of about this size */
#define WR_DIRECT     (64u << 10)   /* records this long are not copied */
#define REC_ROOM      (64u << 10)   /* room made for a record framed here */
#define RUN_ROOM      (48u << 10)   /* more than any one run encodes to */
#define NO_REC        ((SizeT)-1)

static Int     wr_fd = -1;
static Int     wr_tee = -1;         /* the kept log beside a pipe, or -1 */
static const HChar *wr_path;
static struct dg_wr_state *st;
static UChar  *obuf;
static SizeT   oused;
static UChar  *shared_buf;          /* two halves for write-behind, or NULL */
#define slots  dg_wr_slots_         /* (last, stride) per access slot */
static SizeT   cap_slots;           /* in pairs */

/* What the BBDEF and CONTEXT records passing by say: the accesses of each
   bbdef (by log index), and each context's slots. */
static UInt   *bb_nacc;
static UInt    n_bb, cap_bb;
#define wctxs  dg_wr_ctxs_
static UInt    n_wctx, cap_wctx;
static SizeT   n_slots;
static SizeT   rec_at = NO_REC;      /* the open record's offset in obuf */
static SizeT   rec_hdr;
static SizeT   runs_at = NO_REC;     /* the open BBRUNS's payload offset */
UChar *dg_wr_o_, *dg_wr_o_end_;     /* see dg_wr.h */
uint64_t *dg_wr_slots_;
struct dg_wr_ctx *dg_wr_ctxs_;
UInt   dg_wr_prev_;
Bool   dg_wr_chains_ = True;
struct dgc_chain dg_wr_chain_;

#define ERR_NAMETOOLONG 36
#define ERR_DQUOT       122
#define ERR_NO_PROGRESS 0xFFFF   /* write(2) returned 0: never a real errno */

/* Valgrind has no strerror for tools: the errors a log file can meet,
   worded as the C library words them. */
static const struct { UWord err; const HChar *text; } err_text[] = {
	{ VKI_EPERM,       "Operation not permitted" },
	{ VKI_ENOENT,      "No such file or directory" },
	{ VKI_EIO,         "Input/output error" },
	{ VKI_ENXIO,       "No such device or address" },
	{ VKI_EBADF,       "Bad file descriptor" },
	{ VKI_EACCES,      "Permission denied" },
	{ VKI_EEXIST,      "File exists" },
	{ VKI_ENODEV,      "No such device" },
	{ VKI_ENOTDIR,     "Not a directory" },
	{ VKI_EISDIR,      "Is a directory" },
	{ VKI_EINVAL,      "Invalid argument" },
	{ VKI_ENFILE,      "Too many open files in system" },
	{ VKI_EMFILE,      "Too many open files" },
	{ VKI_ETXTBSY,     "Text file busy" },
	{ VKI_EFBIG,       "File too large" },
	{ VKI_ENOSPC,      "No space left on device" },
	{ VKI_ESPIPE,      "Illegal seek" },
	{ VKI_EROFS,       "Read-only file system" },
	{ VKI_EPIPE,       "Broken pipe" },
	{ ERR_NAMETOOLONG, "File name too long" },
	{ VKI_ELOOP,       "Too many levels of symbolic links" },
	{ ERR_DQUOT,       "Disk quota exceeded" },
	{ ERR_NO_PROGRESS, "the write made no progress" },
};

const HChar *dg_wr_strerror(UWord err)
{
	static HChar other[32];
	UInt i;

	for (i = 0; i < sizeof err_text / sizeof err_text[0]; i++)
		if (err_text[i].err == err)
			return err_text[i].text;
	VG_(sprintf)(other, "error %lu", err);
	return other;
}

void dg_wr_behind_attach(Int fd, Int tee, const HChar *path,
                         struct dg_wr_state *state)
{
	wr_fd = fd;
	wr_tee = tee;
	wr_path = path;
	st = state;
}

void dg_wr_init(Int fd, Int tee, const HChar *path, struct dg_wr_state *state,
                UChar *shared)
{
	static UChar *own;

	dg_wr_behind_attach(fd, tee, path, state);
	if (!shared && !own)
		own = VG_(malloc)("dg.wr.buf", WR_BUF_SIZE);
	shared_buf = shared;
	obuf = shared ? shared : own;
	oused = 0;
	rec_at = runs_at = NO_REC;
}

struct dg_wr_state *dg_wr_state(void) { return st; }

void dg_wr_reset(void)
{
	if (slots)
		VG_(memset)(slots, 0, cap_slots * 2 * sizeof *slots);
	n_bb = n_wctx = 0;
	n_slots = 0;
	dg_wr_chain_.prev = 0;
}

void dg_wr_chains(Bool on) { dg_wr_chains_ = on; }

static void slots_grow(SizeT need)
{
	SizeT old = cap_slots;

	while (cap_slots < need)
		cap_slots = cap_slots ? 2 * cap_slots : 65536;
	slots = VG_(realloc)("dg.wr.slots", slots, cap_slots * 2 * sizeof *slots);
	VG_(memset)(slots + 2 * old, 0, (cap_slots - old) * 2 * sizeof *slots);
}

static void learn_bbdef(const UChar *pl)
{
	ULong n_acc;

	if (n_bb == cap_bb) {
		cap_bb = cap_bb ? 2 * cap_bb : 4096;
		bb_nacc = VG_(realloc)("dg.wr.bb", bb_nacc, cap_bb * sizeof *bb_nacc);
	}
	VG_(memcpy)(&n_acc, pl + 1, 8);
	bb_nacc[n_bb++] = (UInt)n_acc;
}

/* A CONTEXT's bbdef is its first word, a CTXREF's its first uleb. */
static void learn_context(const UChar *pl, SizeT len, Bool ref)
{
	uint64_t bb;

	if (n_wctx == cap_wctx) {
		cap_wctx = cap_wctx ? 2 * cap_wctx : 4096;
		wctxs = VG_(realloc)("dg.wr.ctx", wctxs, cap_wctx * sizeof *wctxs);
	}
	if (!ref)
		VG_(memcpy)(&bb, pl, 8);
	else if (dgc_get_uleb(&pl, pl + len, &bb) < 0)
		tl_assert(0);           /* the encoder framed it just now */
	tl_assert(bb < n_bb);       /* the tool writes a bbdef before its use */
	wctxs[n_wctx].slot = (UInt)n_slots;
	wctxs[n_wctx].n_acc = bb_nacc[bb];
	wctxs[n_wctx].next = dgc_next_init(n_wctx);
	n_slots += bb_nacc[bb];
	n_wctx++;
	if (n_slots > cap_slots)
		slots_grow(n_slots);
}

/* ------------------------------------------------------------ the file */

/* Hand n bytes to write(2) until done or failed; disk counts the main
   fd's bytes. */
static void write_fd(Int fd, const UChar *p, SizeT n, Bool count)
{
	SizeT done = 0;

	while (done < n && !st->err) {
		Int w = VG_(write)(fd, p + done, n - done);
		if (w == -VKI_EINTR)
			continue;
		if (w <= 0) {
			st->err = w < 0 ? (UWord)-w : ERR_NO_PROGRESS;
			VG_(umsg)("datagrind: writing the log '%s' failed after %llu "
			          "bytes: %s; tracing stopped, the program goes on\n",
			          wr_path, st->disk, dg_wr_strerror(st->err));
			return;
		}
		done += w;
		if (count)
			st->disk += w;
	}
}

/* The kept log first: the pipe's reader may be slower, and the file then
   has the bytes whatever happens to the importer. */
static void write_all(const UChar *p, SizeT n)
{
	if (wr_tee >= 0)
		write_fd(wr_tee, p, n, False);
	write_fd(wr_fd, p, n, True);
}

/* ------------------------------------------------------------ write-behind */

/* Write up to max of the waiting bytes unless the other process is
   writing them (*n: how many were written, 0 if none wait); False only
   while the other process writes them.  Whatever is left stays waiting. */
static Bool behind_take(SizeT *n, SizeT max)
{
	*n = 0;
	if (st->behind == DG_WR_BEHIND_NONE)
		return True;
	/* the taker's pid in the same word: a waiter can tell if it died */
	if (!__sync_bool_compare_and_swap(&st->behind, DG_WR_BEHIND_READY,
	                                  DG_WR_BEHIND_BUSY + VG_(getpid)()))
		return False;
	*n = st->behind_n < max ? st->behind_n : max;
	write_all(st->behind_p, *n);
	st->behind_p += *n;
	st->behind_n -= *n;
	__sync_synchronize();
	st->behind = st->behind_n ? DG_WR_BEHIND_READY : DG_WR_BEHIND_NONE;
	return True;
}

/* The other process writes a piece at a time: it takes the writes only
   while the writer is behind (it would otherwise sleep waiting for it, or
   the ring is more than half full), and between pieces it looks whether
   the writer has caught up (dg_hand.c).  A whole
   half (1 MB or more; 1-3 ms of write(2), more when the page cache must
   find new pages) kept it from the program long after the helper had
   encoded the half ring it was waiting for (4 buffers, ~0.35 ms on
   sort), and the helper then sat idle.  A piece stays under that even
   at ~400 MB/s. */
#define WR_BEHIND_PIECE  (128u << 10)

Bool dg_wr_behind(void)
{
	SizeT n;

	if (!st || st->behind != DG_WR_BEHIND_READY
	    || !behind_take(&n, WR_BEHIND_PIECE) || !n)
		return False;
	st->behind_other += n;
	return True;
}

/* The process writing behind was killed (SIGKILL: nothing else stops
   it) in the middle of a write: the log ends somewhere in those bytes. */
static Bool behind_writer_died(void)
{
	UInt b = st->behind;
	SysRes r;

	if (b < DG_WR_BEHIND_BUSY)
		return False;
	r = DG_SYS2(__NR_kill, b - DG_WR_BEHIND_BUSY, 0);
	if (!sr_isError(r) || sr_Err(r) != VKI_ESRCH)
		return False;
	if (!st->err) {
		st->err = VKI_EPIPE;
		VG_(umsg)("datagrind: the process writing the log '%s' was killed "
		          "during a write; the log is cut short\n", wr_path);
	}
	st->behind = DG_WR_BEHIND_NONE;
	return True;
}

/* The writer, before its bytes may overtake the waiting ones or it reuses
   their half.  The other process holds them for one piece at a time;
   the writer meets this rarely (the next half takes ~1 MB of encoding) and
   then writes what the other left. */
static void behind_done(void)
{
	UInt polls = 0;
	SizeT n;

	while (!behind_take(&n, (SizeT)-1)) {
		DG_SYS1(__NR_sched_yield, 0);
		if (++polls % 1024 == 0 && behind_writer_died())
			return;
	}
}

/* Leave the filled half for write-behind and go on in the other. */
static void behind_pass(void)
{
	behind_done();
	st->behind_p = obuf;
	st->behind_n = oused;
	__sync_synchronize();
	st->behind = DG_WR_BEHIND_READY;
	obuf = obuf == shared_buf ? shared_buf + WR_BUF_SIZE : shared_buf;
	oused = 0;
}

static void obuf_flush(void)
{
	if (shared_buf)
		behind_done();
	write_all(obuf, oused);
	oused = 0;
}

/* ------------------------------------------------------------ records */

/* Records are framed only between runs: a flush writes whole records. */
static void room(SizeT n)
{
	tl_assert(rec_at == NO_REC && runs_at == NO_REC);
	if (oused + n > WR_BUF_SIZE)
		obuf_flush();
}

static void begin(UChar type, SizeT hdr)
{
	room(REC_ROOM);
	rec_at = oused;
	rec_hdr = hdr;
	obuf[oused] = type;
	obuf[oused + 1] = hdr == 2 ? 0 : DG_LONG_LENGTH;
	oused += hdr;
}

void dg_wr_begin_short(UChar type) { begin(type, 2); }
void dg_wr_begin_long(UChar type)  { begin(type, 10); }

/* The fields of a record, written in place: through VG_(memcpy), a call a
   field, they took 7 % of the helper's CPU where new contexts come often
   (cc1 failing on its first header: 1.06 M contexts for 5.5 M accesses).
   A copy of constant size is a move, no call (the compiler's builtin, not
   libc). */
#define PUT_FIXED(v) do { \
		tl_assert(oused + sizeof (v) - rec_at <= REC_ROOM); \
		__builtin_memcpy(obuf + oused, &(v), sizeof (v)); \
		oused += sizeof (v); \
	} while (0)

void dg_wr_u8(UChar v)  { PUT_FIXED(v); }
void dg_wr_u32(UInt v)  { PUT_FIXED(v); }
void dg_wr_u64(ULong v) { PUT_FIXED(v); }

void dg_wr_uleb(ULong v)
{
	tl_assert(oused + DGC_LEB_MAX - rec_at <= REC_ROOM);
	oused = dgc_put_uleb(obuf + oused, v) - obuf;
}

void dg_wr_end(void)
{
	const UChar *pl = obuf + rec_at + rec_hdr;
	ULong len = oused - rec_at - rec_hdr;

	if (rec_hdr == 2) {
		tl_assert(len < 255);
		obuf[rec_at + 1] = (UChar)len;
	} else {
		VG_(memcpy)(obuf + rec_at + 2, &len, 8);   /* host = file order */
	}
	if (obuf[rec_at] == DG_R_BBDEF)
		learn_bbdef(pl);
	else if (obuf[rec_at] == DG_R_CONTEXT || obuf[rec_at] == DG_R_CTXREF)
		learn_context(pl, len, obuf[rec_at] == DG_R_CTXREF);
	rec_at = NO_REC;
	st->records++;
}

void dg_wr_copy(const UChar *p, SizeT n)
{
	tl_assert(rec_at == NO_REC && runs_at == NO_REC);
	st->records++;
	if (n >= WR_DIRECT) {
		obuf_flush();
		write_all(p, n);
		return;
	}
	room(n);
	VG_(memcpy)(obuf + oused, p, n);
	oused += n;
}

/* ------------------------------------------------------------ runs */

void dg_wr_runs_begin(void)
{
	room(10 + RUN_ROOM);
	obuf[oused] = dg_wr_chains_ ? DG_R_BBCHAINS : DG_R_BBRUNS;
	obuf[oused + 1] = DG_LONG_LENGTH;
	oused += 10;
	runs_at = oused;
	dg_wr_o_ = obuf + oused;
	dg_wr_o_end_ = obuf + WR_BUF_SIZE;
	dg_wr_prev_ = 0;
	dg_wr_chain_.head = NULL;       /* (its prev carries over) */
}

SizeT dg_wr_runs_len(void) { return dg_wr_o_ - (obuf + runs_at); }

void dg_wr_runs_end(void)
{
	ULong len = dg_wr_runs_len();

	oused = dg_wr_o_ - obuf;
	if (len == 0) {
		oused = runs_at - 10;
	} else {
		VG_(memcpy)(obuf + runs_at - 8, &len, 8);
		st->records++;
	}
	runs_at = NO_REC;
}

void dg_wr_run_room_(void)
{
	dg_wr_runs_end();       /* (one run never needs RUN_ROOM) */
	dg_wr_runs_begin();
}

void dg_wr_flush_maybe(void)
{
	if (oused < WR_WRITE_AT)
		return;
	if (shared_buf)
		behind_pass();
	else
		obuf_flush();
}

void dg_wr_flush(void)
{
	tl_assert(rec_at == NO_REC && runs_at == NO_REC);
	obuf_flush();
}
