/* dg_out.c: the log file and its record framing.  See dg_out.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_vki.h"
#include "dg_out.h"
#include "dg_wr.h"
#include "dg_hand.h"
#include "dg_recs.h"
#include "dg_imp.h"

extern Int VG_(safe_fd)(Int);   /* core; no pub_tool header declares it */

#define OUT_BUF_SIZE  DG_HAND_BUF_SIZE
#define out_buf       dg_out_buf_
#define out_used      dg_out_used_

static UChar *dg_out_buf_;
static SizeT  dg_out_used_;
Addr    dg_raw_ptr;
Addr    dg_raw_limit;
struct dg_lean_counts dg_lean_counts;
static struct dg_lean_counts lean_told;   /* as of the last COUNTS */
static Bool lean_on;             /* they move: travel with the RAW words */

void dg_out_lean(Bool on) { lean_on = on; }
static Bool    raw_open;         /* the RAW record is the open one */
static ThreadId raw_tid;         /* in generated code: the globals are stale */
static SizeT   raw_from;         /* where its PAD (if any) starts */

static void flush_closed(void);
static UChar  *priv_buf;         /* the buffer while there is no helper */
static Int     out_fd = -1;     /* the log, or the pipe to the importer */
static Int     tee_fd = -1;     /* the log kept beside that pipe */
static HChar  *out_path;        /* the log; NULL if only a database */
static HChar  *out_db;          /* the database (--db), or NULL */
static Bool    use_helper = True;
static dg_hand_consume_fn *consume;   /* what the buffers go to */
static SizeT   rec_start = (SizeT)-1;   /* offset of the open record */
static SizeT   rec_hdr;                  /* 2 (short) or 10 (long) */
static UWord   out_err;          /* errno of a failed create; 0 if none */
static Bool    out_failed;       /* the create failed: nothing goes to a file */
static Bool    failed_db;        /* it was the importer that failed to start */

/* Not in every vki header Valgrind ships; the values are Linux's. */
#ifndef VKI_O_NOFOLLOW
#define VKI_O_NOFOLLOW  0400000
#endif
#ifndef VKI_O_CLOEXEC
#define VKI_O_CLOEXEC   02000000
#endif
const HChar *dg_out_strerror(UWord err) { return dg_wr_strerror(err); }

static SysRes open_new(void)
{
	return VG_(open)(out_path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_EXCL
	                 | VKI_O_NOFOLLOW | VKI_O_CLOEXEC, VKI_S_IRUSR | VKI_S_IWUSR);
}

/* Create the log mode 0600 whatever the umask, never through a symlink.
   An existing regular file is replaced (O_TRUNC would keep its old mode,
   perhaps world-readable); a device or fifo (/dev/null, a pipe) is used
   as it is.  O_EXCL makes the final create fail on anything that appeared
   at the path meanwhile.  The replaced file stays open in *old: the
   kernel frees its pages at its last close, 25-120 ms for a log of a few
   hundred MB still in the page cache, which the helper pays (dg_hand.h)
   rather than the program's start-up. */
static UWord open_log(Int *fd_out, Int *old)
{
	struct vg_stat st;
	SysRes sr = open_new();
	Int fd;

	if (!sr_isError(sr) || sr_Err(sr) != VKI_EEXIST)
		goto done;
	sr = VG_(open)(out_path, VKI_O_WRONLY | VKI_O_NOFOLLOW | VKI_O_CLOEXEC, 0);
	if (sr_isError(sr))
		goto done;
	fd = sr_Res(sr);
	if (VG_(fstat)(fd, &st) != 0 || !VKI_S_ISREG(st.mode))
		goto done;
	if (VG_(unlink)(out_path) != 0) {
		VG_(close)(fd);
		return VKI_EACCES;    /* VG_(unlink) gives no errno; the usual one */
	}
	*old = VG_(safe_fd)(fd);    /* above the program's fds, as the log's */
	sr = open_new();
done:
	if (sr_isError(sr))
		return sr_Err(sr);
	*fd_out = VG_(safe_fd)(sr_Res(sr));   /* out of the program's reach */
	return 0;
}

/* The log, or the importer's pipe with or without a kept log. */
static UWord open_outputs(Int *old)
{
	Int log = -1, pipe;
	UWord err = out_path ? open_log(&log, old) : 0;

	if (err || !out_db) {
		out_fd = log;
		return err;
	}
	if (*old >= 0) {      /* the importer's watcher would keep it open */
		VG_(close)(*old);
		*old = -1;
	}
	pipe = dg_imp_start(out_db);
	failed_db = pipe < 0;
	if (pipe < 0) {
		if (log >= 0)
			VG_(close)(log);
		return -pipe;
	}
	out_fd = pipe;
	tee_fd = log;
	return 0;
}

static void out_open(void)
{
	Int old = -1;
	UWord err = open_outputs(&old);
	UChar *next;

	if (err) {
		if (old >= 0)
			VG_(close)(old);
		out_err = err;
		out_failed = True;
		return;
	}
	next = dg_hand_start(out_fd, tee_fd, out_db ? out_db : out_path,
	                     consume, use_helper, priv_buf, old);
	if (next != out_buf)            /* a forked child's first records */
		VG_(memcpy)(next, out_buf, out_used);
	out_buf = next;
}

/* ------------------------------------------------------------ raw runs */

/* While raw_tid runs generated code, the RAW record's end and limit are
   its shadow guest state's (dg_out.h), and tool code that runs meanwhile
   (dg_out_raw_full; a signal delivered for a fault, from within generated
   code) takes them from there and gives them back. */
static void raw_words_get(void)
{
	if (raw_tid == 0)
		return;
	VG_(get_shadow_regs_area)(raw_tid, (UChar *)&dg_raw_ptr, 1,
	                          DG_RAW_GS_OFF, sizeof dg_raw_ptr);
	if (lean_on)
		VG_(get_shadow_regs_area)(raw_tid, (UChar *)&dg_lean_counts, 1,
		                          DG_LEAN_GS_OFF, sizeof dg_lean_counts);
}

static void raw_words_put(void)
{
	ULong w[4] = { dg_raw_ptr, dg_raw_limit - DG_RAW_SLACK,
	               dg_lean_counts.instrs, dg_lean_counts.runs };

	STATIC_ASSERT(DG_LEAN_GS_OFF == DG_RAW_GS_OFF + 16);
	if (raw_tid != 0)
		VG_(set_shadow_regs_area)(raw_tid, 1, DG_RAW_GS_OFF,
		                          lean_on ? sizeof w : 2 * sizeof w[0],
		                          (const UChar *)w);
}

/* The RAW payload starts 8-aligned (the entries hold u64s): a PAD record
   of 0 to 7 bytes goes first if need be. */
static void raw_begin(void)
{
	SizeT pad;

	tl_assert(rec_start == (SizeT)-1 && !raw_open);
	if (out_used + 2 + 8 + 10 + DG_RAW_ENTRY_MAX > OUT_BUF_SIZE)
		flush_closed();
	raw_from = out_used;
	if ((out_used + 10) % 8) {
		pad = (8 - (out_used + 12) % 8) % 8;
		out_buf[out_used] = DG_S_PAD;
		out_buf[out_used + 1] = (UChar)pad;
		VG_(memset)(out_buf + out_used + 2, 0, pad);
		out_used += 2 + pad;
	}
	rec_start = out_used;
	rec_hdr = 10;
	out_buf[out_used] = DG_S_RAW;
	out_buf[out_used + 1] = 0xFF;
	out_used += 10;
	raw_open = True;
	dg_raw_ptr = (Addr)(out_buf + out_used);
	dg_raw_limit = (Addr)(out_buf + OUT_BUF_SIZE);
	raw_words_put();
}

static void raw_end(void)
{
	if (!raw_open)
		return;
	raw_words_get();
	raw_open = False;
	out_used = dg_raw_ptr - (Addr)out_buf;
	if (dg_out_end_or_drop_empty())
		out_used = raw_from;
}

void dg_out_raw_enter(ThreadId tid)
{
	tl_assert(raw_tid == 0);
	raw_tid = tid;
	raw_words_put();
}

void dg_out_raw_leave(ThreadId tid)
{
	tl_assert(raw_tid == tid);
	raw_words_get();
	raw_tid = 0;
}

/* Called by generated code, with no argument: passing the guest state
   would cost two instructions a run. */
VG_REGPARM(0) void dg_out_raw_full(void)
{
	raw_end();
	dg_out_flush();
	raw_begin();
}

static void out_reset(const HChar *path, const HChar *db)
{
	out_path = path ? VG_(strdup)("dg.out.path", path) : NULL;
	out_db = db ? VG_(strdup)("dg.out.db", db) : NULL;
	if (!priv_buf)
		priv_buf = VG_(malloc)("dg.out.buf", OUT_BUF_SIZE);
	out_buf = priv_buf;
	out_used = 0;
	out_err = 0;
	out_failed = False;
	rec_start = (SizeT)-1;
	raw_open = False;
}

UWord dg_out_init(const HChar *path, const HChar *db,
                  dg_hand_consume_fn *consume_fn, Bool helper)
{
	consume = consume_fn;
	use_helper = helper;
	out_reset(path, db);
	out_open();   /* the parent opens at once, so errors show at start-up */
	raw_begin();
	return out_err;
}

static void close_outputs(void)
{
	if (out_fd >= 0)
		VG_(close)(out_fd);
	if (tee_fd >= 0)
		VG_(close)(tee_fd);
	out_fd = tee_fd = -1;
}

void dg_out_reopen(const HChar *path, const HChar *db)
{
	dg_hand_forget();     /* the parent's helper is the parent's */
	dg_imp_forget();      /* and so is its importer */
	dg_wr_reset();        /* (for a writer in this process) */
	close_outputs();
	if (out_path)
		VG_(free)(out_path);
	if (out_db)
		VG_(free)(out_db);
	out_reset(path, db);
	raw_begin();
	/* opened on first flush */
}

void dg_out_sync(void)
{
	dg_out_flush();
	dg_hand_sync();
}

ULong dg_out_offset(void)
{
	dg_out_sync();
	return dg_hand_state()->disk;
}

void dg_out_drop_last(ULong off)
{
	struct dg_wr_state *w = (struct dg_wr_state *)dg_hand_state();

	tl_assert(w->records > 0 && off <= w->disk);
	w->records--;          /* synced: the writer is idle */
	if (dg_out_error())
		return;
	if (VG_(lseek)(out_fd, off, VKI_SEEK_SET) != (Off64T)off) {
		out_err = VKI_ESPIPE;
		out_failed = True;
		VG_(umsg)("datagrind: the log '%s' cannot take back the record "
		          "written for a failed exec; it ends there\n", out_path);
		return;
	}
	dg_hand_set_disk(off);
}

const HChar *dg_out_path(void) { return out_path; }
const HChar *dg_out_db(void) { return out_db; }
Bool dg_out_failed_db(void) { return failed_db; }
ULong dg_out_disk_bytes(void) { return dg_hand_state()->disk; }
UWord dg_out_error(void)
{
	return out_err ? out_err : dg_hand_state()->err;
}

/* Hand [0, upto) of the buffer to the writer and keep the rest (an
   open record) at the start of the next buffer. */
static void out_write_prefix(SizeT upto)
{
	UChar *next = out_buf;

	tl_assert(!raw_open);
	if (upto == 0)
		return;
	if (out_fd < 0 && !out_failed) {
		out_open();
		if (out_failed)
			VG_(umsg)("datagrind: cannot create the %s '%s' (pid %d): "
			          "%s; this process is not traced\n",
			          out_db ? "database" : "log",
			          out_db ? out_db : out_path,
			          VG_(getpid)(), dg_out_strerror(out_err));
	}
	if (!out_failed)       /* (after a failed write the encoder still
	                          answers a fork: dg_enc.c) */
		next = dg_hand_put(out_buf, upto);
	VG_(memmove)(next, out_buf + upto, out_used - upto);
	out_buf = next;
	out_used -= upto;
	if (rec_start != (SizeT)-1)
		rec_start -= upto;
}

static void flush_closed(void)
{
	out_write_prefix(rec_start == (SizeT)-1 ? out_used : rec_start);
}

void dg_out_flush(void)
{
	Bool was_raw = raw_open;

	raw_end();
	flush_closed();
	if (was_raw)
		raw_begin();
}

void dg_out_reserve(SizeT n)
{
	tl_assert(n < OUT_BUF_SIZE / 2);
	if (out_used + n <= OUT_BUF_SIZE)
		return;
	flush_closed();
	/* an open record may not take more than half the buffer */
	tl_assert(out_used + n <= OUT_BUF_SIZE);
}

void dg_out_close(void)
{
	raw_end();
	tl_assert(rec_start == (SizeT)-1);
	flush_closed();
	dg_hand_finish();
	close_outputs();
}

void dg_out_stop(void)
{
	out_err = VKI_EPIPE;
	out_failed = True;
	raw_begin();          /* generated code goes on filling the buffer */
}

/* What lean code counted since the last COUNTS record, in one now. */
static void lean_tell(void)
{
	ULong d[2] = { dg_lean_counts.instrs - lean_told.instrs,
	               dg_lean_counts.runs - lean_told.runs };

	dg_out_reserve(2 + 25);
	out_buf[out_used] = DG_S_CTL;
	out_buf[out_used + 1] = 25;
	out_buf[out_used + 2] = DG_CTL_COUNTS;
	VG_(memcpy)(out_buf + out_used + 3, d, sizeof d);
	VG_(memset)(out_buf + out_used + 19, 0, 8);
	out_used += 2 + 25;
	lean_told = dg_lean_counts;
}

static void begin(UChar type, SizeT hdr, SizeT room)
{
	raw_end();
	tl_assert(rec_start == (SizeT)-1);
	if (dg_lean_counts.runs != lean_told.runs)
		lean_tell();
	dg_out_reserve(room);
	rec_start = out_used;
	rec_hdr = hdr;
	out_buf[out_used] = type;
	out_buf[out_used + 1] = hdr == 2 ? 0 : 0xFF;
	out_used += hdr;
}

void dg_out_begin_short(UChar type) { begin(type, 2, 2 + 255); }
void dg_out_begin_long(UChar type)  { begin(type, 10, 10); }

SizeT dg_out_payload_len(void)
{
	tl_assert(rec_start != (SizeT)-1);
	return out_used - rec_start - rec_hdr;
}

static void rec_close(void)
{
	SizeT len = dg_out_payload_len();

	if (rec_hdr == 2) {
		tl_assert(len < 255);
		out_buf[rec_start + 1] = (UChar)len;
	} else {
		ULong l = len;
		VG_(memcpy)(out_buf + rec_start + 2, &l, 8);   /* host = file order */
	}
	rec_start = (SizeT)-1;
}

/* After every record the raw runs go on in a new RAW record. */
void dg_out_end(void)
{
	rec_close();
	if (out_used > OUT_BUF_SIZE / 2)
		flush_closed();
	raw_begin();
}

Bool dg_out_end_or_drop_empty(void)
{
	if (dg_out_payload_len() == 0) {
		out_used = rec_start;
		rec_start = (SizeT)-1;
		return True;
	}
	rec_close();
	return False;
}

/* Field writers.  Callers reserve space: a record open in short form has
   255 bytes reserved; long records reserve per field here. */
static inline void out_put(const void *p, SizeT n)
{
	if (out_used + n > OUT_BUF_SIZE) {
		/* Only a long record can get here; keep its head in the buffer. */
		flush_closed();
		tl_assert(out_used + n <= OUT_BUF_SIZE);
	}
	VG_(memcpy)(out_buf + out_used, p, n);
	out_used += n;
}

void dg_out_u8(UChar v)    { out_put(&v, 1); }
void dg_out_u32(UInt v)    { out_put(&v, 4); }
void dg_out_u64(ULong v)   { out_put(&v, 8); }
void dg_out_word(Addr v)   { out_put(&v, sizeof(Addr)); }
void dg_out_bytes_raw(const void *p, SizeT n) { out_put(p, n); }

void dg_out_string(const HChar *s, SizeT max)
{
	SizeT n = s ? VG_(strlen)(s) : 0;

	if (n > max)
		n = max;
	if (n)
		out_put(s, n);
	dg_out_u8(0);
}
