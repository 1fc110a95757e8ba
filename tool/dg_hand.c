/* dg_hand.c: hand the record stream over to a helper process.  See dg_hand.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "dg_hand.h"
#include "dg_blob.h"
#include "dg_proc.h"

extern SysRes VG_(am_shared_mmap_file_float_valgrind)(SizeT, UInt, Int, Off64T);
#define MFD_CLOEXEC      1

#define SLOT_SIZE   DG_HAND_BUF_SIZE
#define RING_SIZE   ((SizeT)DG_HAND_SLOTS * SLOT_SIZE)
#define MAP_SIZE    (CTL_SIZE + RING_SIZE + DG_WR_SHARED)
#define WAKE        1     /* bytes on the wake pipe */
#define REPLY       2
#define CTL_SIZE    4096

/* When every buffer is taken the tool sleeps until half of them are free
   again, not just one: the helper's write(2) that wakes it costs the
   helper several microseconds (more on a busy machine, where the woken
   tool may take the helper's core), and while the helper is the slower
   side it would pay that on nearly every buffer (13 000 of sort's 14 750
   hand-overs).  Half the ring (4 buffers, ~400 us of encoding) is left to
   the helper while the tool wakes up. */
#define DG_HAND_WAKE_AT  (DG_HAND_SLOTS / 2)

/* The shared page before the buffers.  Buffer k % SLOTS is the k-th
   handed over; the helper has finished with every k < consumed. */
struct ctl {
	volatile ULong published, consumed;
	volatile UInt  waiting;     /* the tool sleeps: wake it when ... */
	volatile ULong wake_at;     /* ... at most this many are with the helper */
	volatile UInt  stop;        /* the tool is done: finish and exit */
	volatile UInt  sleeping;    /* the helper waits for a kick */
	volatile UInt  old_alone;   /* the tool closed the replaced log */
	volatile ULong idle;        /* times the helper waited for a buffer */
	ULong len[DG_HAND_SLOTS];
	struct dg_wr_state wr;
};

static struct dg_wr_state inline_state;   /* without a helper */
static struct ctl *ctl;          /* NULL: no helper */
static dg_hand_consume_fn *consume;   /* the encoder's loop (dg_enc.h) */
static UChar *slots;
static Int kick_w = -1, kick_r = -1, wake_r = -1;
static Int old_fd = -1;          /* helper: the replaced log, to close */
static Bool in_helper;
static Int helper_pid;
static Bool dead;                /* the helper ended without being told */
static const HChar *log_path;
static ULong sleeps;             /* times the tool waited for the helper */

static inline void fence(void) { __sync_synchronize(); }

static UChar *slot(ULong k) { return slots + (k % DG_HAND_SLOTS) * SLOT_SIZE; }

const struct dg_wr_state *dg_hand_state(void)
{
	return ctl ? &ctl->wr : &inline_state;
}

/* ------------------------------------------------------------ the helper */

static void helper_tell(void)
{
	fence();
	if (ctl->waiting && ctl->published - ctl->consumed <= ctl->wake_at) {
		UChar b = WAKE;
		ctl->waiting = 0;
		VG_(write)(wake_r, &b, 1);    /* wake_r is the write end here */
	}
}

/* Once the helper has encoded a buffer, its lines leave every cache.
   The tool writes the buffer again a ring later, and each line the
   helper's core still holds then must be taken back from it before the
   store completes: the program's own stores stall.  Where both cores
   share a cache that costs little; across dies (a server's core
   complexes, a virtual machine's vCPUs) it doubled the tool's CPU (sort
   -n: 2.4 against 1.2 s, bench/HISTORY.md 2026-12-07).  Evicted, a line
   comes back from memory on the tool's store, as part of a stream the
   prefetcher follows.  CLFLUSHOPT (CPUID leaf 7, EBX bit 23) is not
   ordered against other flushes, so a buffer's lines go in parallel;
   without it nothing is evicted.  Where the two cores share their caches
   (a fast minute of the VM) it cost the helper ~5 %, and the tool
   nothing: --helper-evict=no is there to measure a machine. */
static Bool want_evict = True;
static Bool can_evict;

void dg_hand_set_evict(Bool on) { want_evict = on; }

static Bool cpu_has_clflushopt(void)
{
#if defined(__x86_64__)
	UInt a, b, c, d;

	__asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
	                     : "a"(0), "c"(0));
	if (a < 7)
		return False;
	__asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
	                     : "a"(7), "c"(0));
	return (b >> 23 & 1) != 0;
#else
	return False;
#endif
}

static void evict(const UChar *p, SizeT n)
{
#if defined(__x86_64__)
	SizeT off;

	if (!can_evict)
		return;
	for (off = 0; off < n; off += 64)
		__asm__ __volatile__("clflushopt %0" : : "m"(p[off]));
#else
	(void)p;
	(void)n;
#endif
}

static void helper_drain(void)
{
	while (ctl->consumed < ctl->published) {
		ULong k = ctl->consumed;
		fence();
		consume(slot(k), ctl->len[k % DG_HAND_SLOTS]);
		evict(slot(k), ctl->len[k % DG_HAND_SLOTS]);
		if (k + 1 == ctl->published)
			dg_wr_flush();     /* caught up: the file has it all */
		ctl->consumed = k + 1;
		helper_tell();
	}
}

/* Read every page of the shared memory once, while the tool is still
   starting up and the helper has nothing else to do: the memfd's pages
   (10 MB) are allocated and zeroed here, not on the first pass of the
   tool's generated code over the ring or of the encoder over the writer's
   halves (2 560 page faults, ~8 ms, most of it the helper's). */
static void helper_prefault(void)
{
	const volatile UChar *p = (const volatile UChar *)ctl;
	SizeT off;

	for (off = 0; off < MAP_SIZE; off += VKI_PAGE_SIZE)
		(void)p[off];
}

static void helper_main(Int fd, Int tee)
{
	UChar b[256];

	in_helper = True;
	can_evict = want_evict && cpu_has_clflushopt();
	dg_proc_quiet();
	helper_prefault();
	dg_wr_init(fd, tee, log_path, &ctl->wr, slots + RING_SIZE);
	for (;;) {
		Int n;
		helper_drain();
		if (old_fd >= 0 && ctl->old_alone) {   /* the last copy */
			VG_(close)(old_fd);
			old_fd = -1;
		}
		ctl->sleeping = 1;
		fence();
		if (ctl->consumed < ctl->published) {
			ctl->sleeping = 0;
			continue;
		}
		if (ctl->stop)
			break;
		ctl->idle++;
		n = VG_(read)(kick_r, b, sizeof b);
		ctl->sleeping = 0;
		if (n == 0) {          /* the tool is gone */
			helper_drain();
			break;
		}
	}
	VG_(exit)(0);
}

/* ------------------------------------------------------------ start */

static Bool shared_map(void)
{
	SizeT size = MAP_SIZE;
	SysRes r = DG_SYS2(__NR_memfd_create, (UWord)"datagrind", MFD_CLOEXEC);
	Int fd;

	if (sr_isError(r))
		return False;
	fd = sr_Res(r);
	r = DG_SYS2(__NR_ftruncate, fd, size);
	if (!sr_isError(r))
		r = VG_(am_shared_mmap_file_float_valgrind)(size,
		        VKI_PROT_READ | VKI_PROT_WRITE, fd, 0);
	VG_(close)(fd);
	if (sr_isError(r))
		return False;
	ctl = (struct ctl *)sr_Res(r);
	slots = (UChar *)ctl + CTL_SIZE;
	return True;
}

/* Child in between: fork the helper and go.  clone without an exit
   signal, so the program sees neither it nor a SIGCHLD. */
static Bool spawn(Int fd, Int tee, Int kick[2], Int wake[2], Int old)
{
	Int r = dg_proc_clone(), st;

	if (r < 0)
		return False;
	if (r == 0) {
		Int pid = VG_(fork)();
		if (pid == 0) {
			VG_(close)(kick[1]);
			VG_(close)(wake[0]);
			kick_r = kick[0];
			wake_r = wake[1];
			old_fd = old;
			helper_main(fd, tee);
		}
		ctl->wr.err = pid < 0 ? 1 : 0;   /* only read below */
		ctl->len[0] = pid;
		VG_(exit)(0);
	}
	VG_(waitpid)(r, &st, DG_WCLONE);
	helper_pid = (Int)ctl->len[0];
	return ctl->wr.err == 0 && helper_pid > 0;
}

UChar *dg_hand_start(Int fd, Int tee, const HChar *path,
                     dg_hand_consume_fn *consume_fn, Bool use_helper,
                     UChar *buf, Int old)
{
	Int kick[2], wake[2];
	UChar b = WAKE;

	log_path = path;
	consume = consume_fn;
	VG_(memset)(&inline_state, 0, sizeof inline_state);
	dead = False;
	if (!use_helper || !shared_map())
		goto no_helper;
	if (!dg_proc_pipe(kick) || !dg_proc_pipe(wake))
		goto no_helper;     /* (fds of a failed start are not reclaimed) */
	VG_(memset)(ctl, 0, sizeof *ctl);
	if (!spawn(fd, tee, kick, wake, old)) {
		VG_(close)(kick[0]); VG_(close)(kick[1]);
		VG_(close)(wake[0]); VG_(close)(wake[1]);
		goto no_helper;
	}
	ctl->wr.err = 0;       /* what the child in between said; the helper */
	ctl->len[0] = 0;       /* may be running already: touch nothing else */
	VG_(close)(wake[1]);
	kick_r = kick[0];      /* kept: a write to the pipe never raises SIGPIPE */
	kick_w = kick[1];
	wake_r = wake[0];
	VG_(fcntl)(kick_w, VKI_F_SETFL, VKI_O_NONBLOCK);
	dg_wr_behind_attach(fd, tee, path, &ctl->wr);
	if (old >= 0) {        /* the helper's copy is the last: a kick */
		VG_(close)(old);
		ctl->old_alone = 1;
		fence();
		VG_(write)(kick_w, &b, 1);
	}
	return slot(0);
no_helper:
	if (old >= 0)
		VG_(close)(old);
	ctl = NULL;
	dg_wr_init(fd, tee, path, &inline_state, NULL);
	return buf;
}

/* ------------------------------------------------------------ the tool's side */

static void helper_died(void)
{
	dead = True;
	VG_(umsg)("datagrind: the log writer (pid %d) ended unexpectedly; the "
	          "log '%s' ends after %llu bytes\n", helper_pid, log_path,
	          ctl->wr.disk);
	if (!ctl->wr.err)
		ctl->wr.err = VKI_EPIPE;
}

/* Sleep until at most `max` buffers are with the helper. */
static void wait_below(ULong max)
{
	UChar b[64];

	ctl->wake_at = max;
	while (!dead && ctl->published - ctl->consumed > max) {
		if (dg_wr_behind())
			continue;       /* the helper's write(2), done here */
		ctl->waiting = 1;
		fence();
		if (ctl->published - ctl->consumed <= max)
			break;
		sleeps++;
		if (VG_(read)(wake_r, b, 1) <= 0)   /* one: a reply may follow */
			helper_died();
	}
	ctl->waiting = 0;
}

UChar *dg_hand_put(UChar *buf, SizeT n)
{
	UChar b = WAKE;

	if (!ctl) {
		consume(buf, n);
		dg_wr_flush();
		return buf;
	}
	if (dead)
		return buf;
	tl_assert(buf == slot(ctl->published));
	ctl->len[ctl->published % DG_HAND_SLOTS] = n;
	fence();
	ctl->published++;
	fence();
	if (ctl->sleeping)      /* a kick per buffer only when it waits */
		VG_(write)(kick_w, &b, 1);
	if (ctl->published - ctl->consumed >= DG_HAND_SLOTS)
		wait_below(DG_HAND_WAKE_AT);
	else if (ctl->published - ctl->consumed > DG_HAND_SLOTS / 2)
		/* the helper is behind: a piece of its write(2) here, before
		   the ring fills (on sort the tool then wrote 87 % of the log
		   instead of 44 %, and the wall fell 4-5 %); where the helper
		   keeps up, the ring stays under half full and this costs a
		   compare a buffer */
		(void)dg_wr_behind();
	return slot(ctl->published);
}

void dg_hand_sync(void)
{
	if (ctl)
		wait_below(0);
}

void dg_hand_set_disk(ULong off)
{
	((struct dg_wr_state *)dg_hand_state())->disk = off;
}

void dg_hand_finish(void)
{
	UChar b[64];

	if (!ctl)
		return;
	dg_hand_sync();
	ctl->stop = 1;
	fence();
	b[0] = 1;
	VG_(write)(kick_w, b, 1);
	while (!dead && VG_(read)(wake_r, b, sizeof b) > 0)
		;               /* until the helper has exited */
	if (VG_(clo_verbosity) > 1)
		VG_(umsg)("datagrind: %llu buffers handed over, the tool waited "
		          "%llu times and wrote %llu of the log's %llu bytes, the "
		          "helper waited %llu times\n",
		          ctl->published, sleeps, ctl->wr.behind_other,
		          ctl->wr.disk, ctl->idle);
	inline_state.err = ctl->wr.err;      /* what the closing line says */
	inline_state.disk = ctl->wr.disk;
	inline_state.records = ctl->wr.records;
	inline_state.icount = ctl->wr.icount;
	inline_state.accesses = ctl->wr.accesses;
	dg_hand_forget();
}

void dg_hand_forget(void)
{
	if (!ctl)
		return;
	VG_(close)(kick_w);
	VG_(close)(kick_r);
	VG_(close)(wake_r);
	kick_w = kick_r = wake_r = -1;
	dg_wr_behind_attach(-1, -1, NULL, NULL);   /* the parent's log */
	ctl = NULL;     /* the mapping stays: the helper may still read it */
}

/* ------------------------------------------------------------ replies */

Bool dg_hand_in_helper(void) { return in_helper; }

static void write_whole(Int fd, const UChar *p, SizeT n)
{
	while (n > 0) {
		Int w = VG_(write)(fd, p, n);
		if (w == -VKI_EINTR)
			continue;
		if (w <= 0)
			return;       /* the tool is gone */
		p += w;
		n -= w;
	}
}

/* On the wake pipe, after a REPLY byte: the tool waits for it, and no
   wake byte comes while the helper writes it. */
void dg_hand_reply(const UChar *p, SizeT n)
{
	UChar r = REPLY;
	ULong len = n;

	tl_assert(in_helper);
	write_whole(wake_r, &r, 1);           /* wake_r is the write end here */
	write_whole(wake_r, (const UChar *)&len, 8);
	write_whole(wake_r, p, n);
}

static Bool read_whole(Int fd, UChar *p, SizeT n)
{
	while (n > 0) {
		Int r = VG_(read)(fd, p, n);
		if (r == -VKI_EINTR)
			continue;
		if (r <= 0)
			return False;
		p += r;
		n -= r;
	}
	return True;
}

Bool dg_hand_fetch(struct dg_blob *b)
{
	ULong len;
	UChar r = WAKE;

	if (!ctl || dead)
		return False;
	while (r == WAKE)          /* wake bytes the tool did not wait for */
		if (!read_whole(wake_r, &r, 1))
			goto died;
	tl_assert(r == REPLY);
	if (!read_whole(wake_r, (UChar *)&len, 8))
		goto died;
	b->p = VG_(malloc)("dg.hand.reply", len ? len : 1);
	b->n = b->cap = len;
	b->at = 0;
	if (read_whole(wake_r, b->p, len))
		return True;
	VG_(free)(b->p);
died:
	helper_died();
	return False;
}
