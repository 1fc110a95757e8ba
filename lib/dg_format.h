/* dg_format.h: the numbers of the Datagrind log format.
 *
 * One definition of record types, access directions and flags, shared by the
 * Valgrind tool (which has no libc) and the readers.  It includes nothing and
 * declares nothing but constants.  docs/FORMAT.md describes every record byte
 * by byte; change both in the same commit.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DG_FORMAT_H
#define DG_FORMAT_H

#define DG_SIGNATURE      "DATAGRIND1"   /* 11 bytes with its NUL */
#define DG_SIGNATURE_LEN  11
#define DG_HEADER_LEN     14             /* payload length of HEADER */
#define DG_VERSION_2010   1
#define DG_VERSION        2              /* what this tool writes */
#define DG_LONG_LENGTH    255            /* length byte announcing a u64 */

enum dg_record_type {
	DG_R_HEADER        = 0,
	DG_R_TRACK_RANGE   = 3,
	DG_R_UNTRACK_RANGE = 4,
	DG_R_START_EVENT   = 5,
	DG_R_END_EVENT     = 6,
	DG_R_TEXT_AVMA     = 8,
	DG_R_MALLOC_BLOCK  = 9,
	DG_R_FREE_BLOCK    = 10,
	DG_R_BBDEF         = 11,
	DG_R_BBRUN         = 12,
	DG_R_CONTEXT       = 13,
	/* version 2 */
	DG_R_BBRUNS        = 14,
	DG_R_THREAD        = 15,
	DG_R_MMAP          = 16,
	DG_R_MUNMAP        = 17,
	DG_R_PROCESS       = 18,
	DG_R_ICOUNT        = 19,
	DG_R_TRACE_STATE   = 20,
	DG_R_FINI          = 21,
	DG_R_BBCHAINS      = 22,   /* BBRUNS with successor prediction */
	DG_R_CTXREF        = 23,   /* CONTEXT by reference to an earlier one */
	DG_R_HEAP_MALLOC   = 24,   /* MALLOC_BLOCK with its icount, its stack
	                              by reference, its address as a delta */
	DG_R_HEAP_FREE     = 25,   /* FREE_BLOCK likewise */
	DG_R_MAX_KNOWN     = 25
};

/* Types 0..127 carry a length; 128..255 carry exactly one payload byte. */
#define DG_R_SHORT_FIRST  128

enum dg_access_dir { DG_ACC_READ = 0, DG_ACC_WRITE = 1 };

/* BBDEF access_flags (version 2) */
#define DG_AF_GUARDED  0x01   /* conditional: address 0 when not made */
#define DG_AF_CLAMPED  0x02   /* real size >= 255; size field holds 255 */

/* BBDEF exit_kind (version 2) */
enum dg_exit_kind {
	DG_EXIT_JUMP    = 0,
	DG_EXIT_CALL    = 1,
	DG_EXIT_RETURN  = 2,
	DG_EXIT_SYSCALL = 3,
	DG_EXIT_OTHER   = 4
};

/* MMAP prot bits */
#define DG_PROT_READ   0x01
#define DG_PROT_WRITE  0x02
#define DG_PROT_EXEC   0x04

/* TRACE_STATE reasons */
enum dg_trace_reason {
	DG_TRACE_START   = 0,
	DG_TRACE_REQUEST = 1,
	DG_TRACE_FN      = 2,
	DG_TRACE_ICOUNT  = 3
};

/* FINI end: how the process ended (a trailing field; 0 when absent) */
enum dg_fini_end {
	DG_END_UNKNOWN = 0,   /* FINI without the field: an older writer */
	DG_END_EXIT    = 1,   /* exit_group (exit, _exit, return from main) */
	DG_END_EXEC    = 2,   /* execve: the log ends where the new program begins */
	DG_END_OTHER   = 3    /* no exit_group: a fatal signal (abort, SIGSEGV,
	                         kill), or the last thread's own exit */
};

/* HEAP_MALLOC and HEAP_FREE: the stack field (docs/FORMAT.md 2.19) */
#define DG_HEAP_PREDICTED   0  /* the stack that followed the last one */
#define DG_HEAP_NEW         1  /* new stacks are defined here */
#define DG_HEAP_INDEX       2  /* DG_HEAP_INDEX + k: heap stack k */

/* Limits */
#define DG_MAX_INSTRS  255    /* instructions in one bbdef */
#define DG_HEAP_MAX_DEPTH 500 /* frames of a heap stack (Valgrind's
                                 --num-callers limit) */

#endif /* DG_FORMAT_H */
