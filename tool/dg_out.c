/* dg_out.c: the log file and its record framing.  See dg_out.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
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
static ULong   out_flushed;      /* bytes already handed to write(2) */
static ULong   out_nrecords;
static SizeT   rec_start = (SizeT)-1;   /* offset of the open record */
static SizeT   rec_hdr;                  /* 2 (short) or 10 (long) */
static Bool    out_failed;

static void out_open(void)
{
	SysRes sr = VG_(open)(out_path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
	                      VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
	if (sr_isError(sr)) {
		VG_(umsg)("datagrind: cannot create '%s' (error %lu)\n", out_path,
		          sr_Err(sr));
		VG_(umsg)("datagrind: no log is written\n");
		out_failed = True;
		return;
	}
	out_fd = sr_Res(sr);
}

void dg_out_init(const HChar *path)
{
	out_path = VG_(strdup)("dg.out.path", path);
	if (!out_buf)
		out_buf = VG_(malloc)("dg.out.buf", OUT_BUF_SIZE);
	out_used = 0;
	out_flushed = 0;
	out_nrecords = 0;
	out_failed = False;
	out_open();   /* the parent opens at once, so errors show at start-up */
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
	out_flushed = 0;
	out_nrecords = 0;
	out_failed = False;
	rec_start = (SizeT)-1;
	/* opened on first flush */
}

const HChar *dg_out_path(void) { return out_path; }
ULong dg_out_bytes(void)   { return out_flushed + out_used; }
ULong dg_out_records(void) { return out_nrecords; }

/* Write [0, upto) of the buffer and keep the rest (an open record). */
static void out_write_prefix(SizeT upto)
{
	SizeT done = 0;

	if (upto == 0)
		return;
	if (out_fd < 0 && !out_failed)
		out_open();
	while (!out_failed && done < upto) {
		Int n = VG_(write)(out_fd, out_buf + done, upto - done);
		if (n <= 0) {
			VG_(umsg)("datagrind: write to '%s' failed after %llu bytes; "
			          "the log is truncated\n", out_path, out_flushed + done);
			out_failed = True;
			break;
		}
		done += n;
	}
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

