/* dg_proc.h: the few process tricks of the tool's side processes.
 *
 * The log helper (dg_hand.c) and the importer's watcher (dg_imp.c) are
 * processes the tool starts behind the program's back.  Both are cloned
 * without an exit signal, so that the program's wait() never reaps them
 * and no SIGCHLD reaches it; both block every signal and keep none of the
 * program's file descriptors; their pipes live above the program's fd
 * limit, close-on-exec.  Static inline: the two callers share these lines.
 */
#ifndef DG_PROC_H
#define DG_PROC_H

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

/* Core functions a tool may call but that no pub_tool header declares
   (valgrind 3.19, coregrind/pub_core_*.h). */
extern SysRes VG_(do_syscall)(UWord, UWord, UWord, UWord, UWord, UWord,
                              UWord, UWord, UWord);
extern Int VG_(safe_fd)(Int);
extern Int VG_(fcntl)(Int, Int, Addr);
extern Int VG_(fd_soft_limit);

#define DG_SYS1(n, a)       VG_(do_syscall)((n), (a), 0, 0, 0, 0, 0, 0, 0)
#define DG_SYS2(n, a, b)    VG_(do_syscall)((n), (a), (b), 0, 0, 0, 0, 0, 0)
#define DG_SYS3(n, a, b, c) VG_(do_syscall)((n), (a), (b), (c), 0, 0, 0, 0, 0)
#define DG_NR_CLOSE_RANGE   436
#define DG_WCLONE           0x80000000   /* wait for a child cloned without signal */

/* A pipe out of the program's fd range, close-on-exec. */
static inline Bool dg_proc_pipe(Int p[2])
{
	if (VG_(pipe)(p) != 0)
		return False;
	p[0] = VG_(safe_fd)(p[0]);
	p[1] = VG_(safe_fd)(p[1]);
	if (p[0] < 0 || p[1] < 0)
		return False;
	VG_(fcntl)(p[0], VKI_F_SETFD, VKI_FD_CLOEXEC);
	VG_(fcntl)(p[1], VKI_F_SETFD, VKI_FD_CLOEXEC);
	return True;
}

/* Close fds [from, to]; the loop is for kernels before close_range. */
static inline void dg_proc_close_range(Int from, Int to)
{
	Int fd;

	if (!sr_isError(DG_SYS3(DG_NR_CLOSE_RANGE, from, to, 0)))
		return;
	for (fd = from; fd <= to && fd < 65536; fd++)
		VG_(close)(fd);
}

/* In a side process: no signal reaches it (but KILL), and none of the
   program's files stays open (a pipe's reader would wait for us). */
static inline void dg_proc_quiet(void)
{
	vki_sigset_t all;

	VG_(memset)(&all, 0xFF, sizeof all);
	VG_(sigprocmask)(VKI_SIG_SETMASK, &all, NULL);
	dg_proc_close_range(0, VG_(fd_soft_limit) - 1);
}

/* fork without an exit signal: 0 in the child, its pid, or -1. */
static inline Int dg_proc_clone(void)
{
	SysRes r = DG_SYS2(__NR_clone, 0, 0);

	return sr_isError(r) ? -1 : (Int)sr_Res(r);
}

#endif
