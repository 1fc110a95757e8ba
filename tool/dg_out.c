/* dg_out.c: the log file and its record framing.  See dg_out.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "dg_out.h"

#define OUT_BUF_SIZE  DG_OUT_BUF_SIZE
#define out_buf       dg_out_buf_
#define out_used      dg_out_used_

UChar  *dg_out_buf_;
SizeT   dg_out_used_;
SizeT   dg_out_rec_payload_;
static Int     out_fd = -1;
static HChar  *out_path;
static ULong   out_flushed;      /* bytes taken out of the buffer */
static ULong   out_disk;         /* bytes write(2) accepted: what the file holds */
static ULong   out_nrecords;
static SizeT   rec_start = (SizeT)-1;   /* offset of the open record */
static SizeT   rec_hdr;                  /* 2 (short) or 10 (long) */
static UWord   out_err;          /* errno of the failure; 0 while all is well */
static Bool    out_failed;       /* nothing more goes to the file */

/* Not in every vki header Valgrind ships; the values are Linux's. */
#ifndef VKI_O_NOFOLLOW
#define VKI_O_NOFOLLOW  0400000
#endif
#ifndef VKI_O_CLOEXEC
#define VKI_O_CLOEXEC   02000000
#endif
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

const HChar *dg_out_strerror(UWord err)
{
	static HChar other[32];
	UInt i;

	for (i = 0; i < sizeof err_text / sizeof err_text[0]; i++)
		if (err_text[i].err == err)
			return err_text[i].text;
	VG_(sprintf)(other, "error %lu", err);
	return other;
}

static SysRes open_new(void)
{
	return VG_(open)(out_path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_EXCL
	                 | VKI_O_NOFOLLOW | VKI_O_CLOEXEC, VKI_S_IRUSR | VKI_S_IWUSR);
}

/* Create the log mode 0600 whatever the umask, never through a symlink.
   An existing regular file is replaced (O_TRUNC would keep its old mode,
   perhaps world-readable); a device or fifo (/dev/null, a pipe) is used
   as it is.  O_EXCL makes the final create fail on anything that appeared
   at the path meanwhile. */
static UWord open_log(void)
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
	VG_(close)(fd);
	if (VG_(unlink)(out_path) != 0)
		return VKI_EACCES;    /* VG_(unlink) gives no errno; the usual one */
	sr = open_new();
done:
	if (sr_isError(sr))
		return sr_Err(sr);
	out_fd = sr_Res(sr);
	return 0;
}

/* Stop writing: later records are dropped, the file keeps what it has. */
static void out_fail(UWord err)
{
	out_err = err;
	out_failed = True;
}

static void out_open(void)
{
	UWord err = open_log();

	if (err)
		out_fail(err);
}

UWord dg_out_init(const HChar *path)
{
	out_path = VG_(strdup)("dg.out.path", path);
	if (!out_buf)
		out_buf = VG_(malloc)("dg.out.buf", OUT_BUF_SIZE);
	out_used = 0;
	out_flushed = out_disk = 0;
	out_nrecords = 0;
	out_err = 0;
	out_failed = False;
	out_open();   /* the parent opens at once, so errors show at start-up */
	return out_err;
}

void dg_out_reopen(const HChar *path)
{
	if (out_fd >= 0)
		VG_(close)(out_fd);
	out_fd = -1;
	if (out_path)
		VG_(free)(out_path);
	out_path = VG_(strdup)("dg.out.path", path);
	out_used = 0;
	out_flushed = out_disk = 0;
	out_nrecords = 0;
	out_err = 0;
	out_failed = False;
	rec_start = (SizeT)-1;
	/* opened on first flush */
}

ULong dg_out_offset(void) { return out_flushed + out_used; }

void dg_out_drop_last(ULong off)
{
	tl_assert(out_used == 0 && out_nrecords > 0 && off <= out_flushed);
	out_nrecords--;
	if (out_failed)
		return;
	if (VG_(lseek)(out_fd, off, VKI_SEEK_SET) != (Off64T)off) {
		out_fail(VKI_ESPIPE);
		VG_(umsg)("datagrind: the log '%s' cannot take back the record "
		          "written for a failed exec; it ends there\n", out_path);
		return;
	}
	out_flushed = out_disk = off;
}

const HChar *dg_out_path(void) { return out_path; }
ULong dg_out_disk_bytes(void) { return out_disk; }
ULong dg_out_records(void) { return out_nrecords; }
UWord dg_out_error(void)   { return out_err; }

/* Hand [0, n) of the buffer to write(2) until done or failed. */
static void out_write_all(SizeT n)
{
	SizeT done = 0;

	while (done < n) {
		Int w = VG_(write)(out_fd, out_buf + done, n - done);
		if (w == -VKI_EINTR)
			continue;
		if (w <= 0) {
			out_fail(w < 0 ? (UWord)-w : ERR_NO_PROGRESS);
			VG_(umsg)("datagrind: writing the log '%s' failed after %llu "
			          "bytes: %s; tracing stopped, the program goes on\n",
			          out_path, out_disk, dg_out_strerror(out_err));
			return;
		}
		done += w;
		out_disk += w;
	}
}

/* Write [0, upto) of the buffer and keep the rest (an open record). */
static void out_write_prefix(SizeT upto)
{
	if (upto == 0)
		return;
	if (out_fd < 0 && !out_failed) {
		out_open();
		if (out_failed)
			VG_(umsg)("datagrind: cannot create the log '%s' (pid %d): "
			          "%s; this process is not traced\n", out_path,
			          VG_(getpid)(), dg_out_strerror(out_err));
	}
	if (!out_failed)
		out_write_all(upto);
	out_flushed += upto;
	VG_(memmove)(out_buf, out_buf + upto, out_used - upto);
	out_used -= upto;
	if (rec_start != (SizeT)-1) {
		rec_start -= upto;
		dg_out_rec_payload_ -= upto;
	}
}

void dg_out_flush(void)
{
	out_write_prefix(rec_start == (SizeT)-1 ? out_used : rec_start);
}

void dg_out_reserve(SizeT n)
{
	tl_assert(n < OUT_BUF_SIZE / 2);
	if (out_used + n <= OUT_BUF_SIZE)
		return;
	dg_out_flush();
	/* an open record may not take more than half the buffer */
	tl_assert(out_used + n <= OUT_BUF_SIZE);
}

void dg_out_close(void)
{
	tl_assert(rec_start == (SizeT)-1);
	dg_out_flush();
	if (out_fd >= 0)
		VG_(close)(out_fd);
	out_fd = -1;
}

void dg_out_begin_short(UChar type)
{
	tl_assert(rec_start == (SizeT)-1);
	dg_out_reserve(2 + 255);
	rec_start = out_used;
	rec_hdr = 2;
	dg_out_rec_payload_ = rec_start + 2;
	out_buf[out_used++] = type;
	out_buf[out_used++] = 0;
}

void dg_out_begin_long(UChar type)
{
	tl_assert(rec_start == (SizeT)-1);
	dg_out_reserve(10);
	rec_start = out_used;
	rec_hdr = 10;
	dg_out_rec_payload_ = rec_start + 10;
	out_buf[out_used++] = type;
	out_buf[out_used++] = 0xFF;
	out_used += 8;
}

SizeT dg_out_payload_len(void)
{
	tl_assert(rec_start != (SizeT)-1);
	return out_used - rec_start - rec_hdr;
}

void dg_out_end(void)
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
	out_nrecords++;
	if (out_used > OUT_BUF_SIZE / 2)
		dg_out_flush();
}

Bool dg_out_end_or_drop_empty(void)
{
	if (dg_out_payload_len() == 0) {
		out_used = rec_start;
		rec_start = (SizeT)-1;
		return True;
	}
	dg_out_end();
	return False;
}

/* Field writers.  Callers reserve space: a record open in short form has
   255 bytes reserved; long records reserve per field here. */
static inline void out_put(const void *p, SizeT n)
{
	if (out_used + n > OUT_BUF_SIZE) {
		/* Only a long record can get here; keep its head in the buffer. */
		dg_out_flush();
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

