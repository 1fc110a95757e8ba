/* dg_main.c: Datagrind, a Valgrind tool that logs every data access.
 *
 * Copyright (C) 2026 the Datagrind authors.
 *
 * This program is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the
 * Free Software Foundation; either version 2 of the License, or (at your
 * option) any later version.
 *
 * How it works.  Every superblock is described once as a BBDEF (its
 * instructions and data accesses) and instrumented so that each run appends
 * a small raw entry — bbdef id, access addresses, how far it got — to the
 * record stream, with plain stores (dg_instr.c, dg_out.c); the stream goes
 * to a helper process on the other core (dg_hand.c).  Everything else the
 * tool learns goes in the same stream, in order: new bbdefs, thread
 * switches, signals, heap blocks (dg_heap.c), file mappings (dg_maps.c),
 * tracked ranges and user events (client requests, here), as records of
 * the log or internal ones (dg_recs.h).  The encoder (dg_enc.c), in the
 * helper, replays calls and returns on shadow stacks (dg_stack.c) to know
 * each run's calling context, and writes the runs compactly (dg_wr.c),
 * predicting each address from the previous run of the same context.  VEX's
 * superblock chasing is switched off so that no block spans a call, which
 * keeps blocks within one function as the 2010 manual promised.  Until
 * tracing first starts (--trace-at-start=no) the translations are lean:
 * runs only count themselves (dg_instr.h), and the tool unwinds the
 * stacks of heap blocks (dg_calls.h) and, when tracing starts, of every
 * thread, to seed the shadow stacks; or, with --heap-stacks=replay, the
 * runs that move the stack pointer make entries for the encoder to
 * replay.  The first DATAGRIND_START_TRACING discards them all.
 *
 * The files form layers: each module (X.c with its X.h) uses only modules
 * below it (README's Layout lists them top down).  At the bottom are the
 * stream's format (dg_recs.h), the side processes' tricks (dg_proc.h) and
 * the blob a forked child's encoder state travels in (dg_blob.c); on them
 * the pair map, the writer (dg_wr.c) and the importer (dg_imp.c); then the
 * shadow stacks and the hand-over (dg_hand.c), which reaches the encoder
 * only through the loop this file gives dg_out_init (dg_enc_consume),
 * called once a buffer; then the bbdef table, the heap records' writer
 * and the stream's buffer (dg_defs.c, dg_heaplog.c, dg_out.c); the
 * encoder and the stream's writers (dg_enc.c, dg_stream.c); the heap and
 * the module map; the instrumentation; this file.
 *
 * The log format is docs/FORMAT.md; the constants are lib/dg_format.h.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_options.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_transtab.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "valgrind.h"
#include "datagrind.h"
#include "dg_format.h"
#include "dg_out.h"
#include "dg_enc.h"
#include "dg_blob.h"
#include "dg_wr.h"
#include "dg_stream.h"
#include "dg_hand.h"
#include "dg_imp.h"
#include "dg_heap.h"
#include "dg_maps.h"
#include "dg_instr.h"
#include "dg_calls.h"

#define DG_TOOL_VERSION  "0.1.0"
#define MAX_LABEL        240     /* keeps event records under 255 bytes */

/* ------------------------------------------------------------ options */

static const HChar *clo_out_file = "datagrind.out.%p";
static Bool         clo_trace_at_start = True;
static const HChar *clo_trace_fn;
static ULong        clo_icount_from = 0, clo_icount_to = ~0ULL;
static Bool         clo_helper = True;
static const HChar *clo_db;             /* --db: record into a database */
static const HChar *clo_importer;       /* --db-importer */
static Bool         clo_out_given;      /* keep the log beside the database */
static Bool         clo_compact = True;
static Bool         clo_lean = True;
static UChar        clo_loop = DG_ENC_LOOP_AUTO;   /* --encoder-loop */
static Bool         clo_evict = True;              /* --helper-evict */
static Bool         clo_heap_unwind = True;  /* --heap-stacks=unwind */

/* Parse a count with an optional k/M/G suffix; returns False on junk. */
static Bool parse_count(const HChar *s, const HChar *end, ULong *out)
{
	ULong v = 0, mul = 1;

	if (s == end)
		return False;
	if (end[-1] == 'k' || end[-1] == 'K') mul = 1000ULL, end--;
	else if (end[-1] == 'M') mul = 1000000ULL, end--;
	else if (end[-1] == 'G') mul = 1000000000ULL, end--;
	if (s == end)
		return False;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || v > (~0ULL - 9) / 10)
			return False;
		v = v * 10 + (*s - '0');
	}
	if (v > ~0ULL / mul)
		return False;
	*out = v * mul;
	return True;
}

/* --trace-icount=FROM:TO, FROM: or :TO */
static Bool parse_icount_window(const HChar *arg)
{
	const HChar *colon = VG_(strchr)(arg, ':'), *end = arg + VG_(strlen)(arg);

	if (!colon)
		return False;
	if (colon > arg && !parse_count(arg, colon, &clo_icount_from))
		return False;
	if (colon + 1 < end && !parse_count(colon + 1, end, &clo_icount_to))
		return False;
	return clo_icount_from < clo_icount_to;
}

static Bool dg_process_cmd_line_option(const HChar *arg)
{
	const HChar *tmp;

	if VG_STR_CLO(arg, "--datagrind-out-file", clo_out_file)
		clo_out_given = True;
	else if VG_STR_CLO(arg, "--db", clo_db) {}
	else if VG_STR_CLO(arg, "--db-importer", clo_importer) {}
	else if VG_BOOL_CLO(arg, "--trace-at-start", clo_trace_at_start) {}
	else if VG_STR_CLO(arg, "--trace-fn", clo_trace_fn) {}
	else if VG_BOOL_CLO(arg, "--log-helper", clo_helper) {}
	else if VG_BOOL_CLO(arg, "--log-compact", clo_compact) {}
	else if VG_BOOL_CLO(arg, "--lean", clo_lean) {}
	else if VG_STR_CLO(arg, "--heap-stacks", tmp) {
		if (VG_(strcmp)(tmp, "unwind") == 0)
			clo_heap_unwind = True;
		else if (VG_(strcmp)(tmp, "replay") == 0)
			clo_heap_unwind = False;
		else
			VG_(fmsg_bad_option)(arg, "expected unwind or replay\n");
	}
	else if VG_BOOL_CLO(arg, "--helper-evict", clo_evict) {}
	else if VG_STR_CLO(arg, "--encoder-loop", tmp) {
		if (VG_(strcmp)(tmp, "auto") == 0)
			clo_loop = DG_ENC_LOOP_AUTO;
		else if (VG_(strcmp)(tmp, "one") == 0)
			clo_loop = DG_ENC_LOOP_ONE;
		else if (VG_(strcmp)(tmp, "ahead") == 0)
			clo_loop = DG_ENC_LOOP_AHEAD;
		else
			VG_(fmsg_bad_option)(arg, "expected auto, one or ahead\n");
	}
	else if VG_STR_CLO(arg, "--trace-icount", tmp) {
		if (!parse_icount_window(tmp))
			VG_(fmsg_bad_option)(arg, "expected FROM:TO with FROM < TO, "
			                     "either may be empty, k/M/G suffixes allowed\n");
	}
	else
		return False;
	return True;
}

static void dg_print_usage(void)
{
	VG_(printf)(
"    --datagrind-out-file=<file>  write the log to <file> [datagrind.out.%%p]\n"
"                                 (%%p is the pid, %%q{VAR} an environment\n"
"                                 variable; a forked child gets its own file);\n"
"                                 created mode 0600, never through a symlink;\n"
"                                 if it cannot be created the program is not\n"
"                                 run (exit status 1); if a write fails,\n"
"                                 recording stops, the program goes on\n"
"    --trace-at-start=yes|no      record accesses from the start [yes]; with no,\n"
"                                 DATAGRIND_START_TRACING in the program starts\n"
"    --trace-fn=<name>            record only while a function matching <name>\n"
"                                 (wildcards * and ?) is on the call stack\n"
"    --trace-icount=<from>:<to>   record only the blocks that run instructions\n"
"                                 numbered in [from, to), cut at <to>; either\n"
"                                 may be empty; k/M/G suffixes\n"
"    --num-callers=<n>            frames in call stacks of accesses and\n"
"                                 heap blocks [12]\n"
"    --log-helper=yes|no          encode and write the log in a helper process,\n"
"                                 on another core [yes]; the log is the same\n"
"    --db=<file>                  record straight into a database: the log goes\n"
"                                 into a pipe that dg-import reads on another\n"
"                                 core, and <file> is complete when the run\n"
"                                 ends (%%p, %%q{VAR} as above; a forked child\n"
"                                 gets its own); an existing <file> is\n"
"                                 replaced, by rename, only at the end; no log\n"
"                                 is kept unless --datagrind-out-file is given;\n"
"                                 if the import fails, the program still runs\n"
"                                 to its end with its own exit status, and the\n"
"                                 failure is reported\n"
"    --db-importer=<path>         the dg-import to run [the one beside this\n"
"                                 tool's build, else the installed one, else\n"
"                                 the first in $PATH]\n"
"    --log-compact=yes|no         write runs as BBCHAINS and contexts as CTXREF\n"
"                                 records [yes]: a run that follows as it did\n"
"                                 last time costs no head of its own, a stack\n"
"                                 is told by reference to an earlier one; no\n"
"                                 writes BBRUNS and CONTEXT, for readers older\n"
"                                 than these records (docs/FORMAT.md 2.17, 2.18)\n"
"    --lean=yes|no                until tracing starts (--trace-at-start=no;\n"
"                                 not with --trace-icount), translate the\n"
"                                 program lean [yes]: only what the call\n"
"                                 stacks and the instruction count need, no\n"
"                                 access; the log is the same\n"
"    --heap-stacks=unwind|replay  while lean, a heap block's stack is unwound\n"
"                                 at its malloc and free, as massif and DHAT\n"
"                                 do [unwind]; replay follows every call and\n"
"                                 return as the full trace does (slower)\n"
"    Heap blocks, tracked ranges and events are recorded whatever the window.\n"
	);
}

static void dg_print_debug_usage(void)
{
	VG_(printf)(
"    --encoder-loop=auto|one|ahead  the encoder's loop over the runs while\n"
"                                 tracing: one run at a time, or looking\n"
"                                 ahead to load their contexts early; auto\n"
"                                 switches by how often contexts miss its\n"
"                                 caches [auto]; the log is the same\n"
"    --helper-evict=yes|no        the helper evicts each buffer of the\n"
"                                 stream from the caches once encoded, so\n"
"                                 that the program's stores into it do not\n"
"                                 wait on the helper's core [yes, where the\n"
"                                 CPU has CLFLUSHOPT]; the log is the same\n"
	);
}

/* ------------------------------------------------------------ client requests */

/* A client string, checked readable byte by byte up to its NUL or
   MAX_LABEL bytes (a bad pointer must not crash Valgrind); copied into buf. */
static const HChar *client_string(UWord a, HChar *buf)
{
	SizeT i;

	for (i = 0; i < MAX_LABEL; i++) {
		if ((i == 0 || ((a + i) & 4095) == 0)
		    && !VG_(am_is_valid_for_client)(a + i, 1, VKI_PROT_READ))
			break;
		buf[i] = ((const HChar *)a)[i];
		if (!buf[i])
			return buf;
	}
	buf[i] = 0;
	return buf;
}

static void write_range(UChar type, UWord addr, UWord len,
                        const HChar *tname, const HChar *label)
{
	dg_out_begin_long(type);
	dg_out_word(addr);
	dg_out_word(len);
	if (type == DG_R_TRACK_RANGE) {
		dg_out_string(tname, MAX_LABEL);
		dg_out_string(label, MAX_LABEL);
	}
	dg_out_end();
}

static void write_event(UChar type, const HChar *label)
{
	dg_out_begin_short(type);
	dg_out_string(label, MAX_LABEL);
	dg_out_end();
}

/* Unwinding heap stacks (dg_calls.h), the encoder replayed no call: each
   thread's shadow stack starts from its stack unwound now, and the heap's
   stacks come from the shadow stacks again. */
static void seed_stacks(void)
{
	struct dg_frame_in f[DG_STACK_MAX_FRAMES];
	ThreadId tid;
	Addr lo, hi;

	VG_(thread_stack_reset_iter)(&tid);
	while (VG_(thread_stack_next)(&tid, &lo, &hi))
		dg_stream_stack(DG_STACK_SEED, tid, 0, f,
		                dg_calls_unwind(tid, f, DG_STACK_MAX_FRAMES));
	dg_heap_set_unwind(0);
}

/* Lean translations (dg_instr.h) serve until tracing first starts, then
   go, all of them: every block is translated again in full.  Once only,
   so that a program switching tracing on and off around a loop pays for
   one retranslation, not one per switch. */
static void lean_end(void)
{
	if (!dg_instr_lean())
		return;
	if (dg_instr_lean_unwind())
		seed_stacks();
	dg_instr_set_lean(False, False);
	VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "datagrind");
	dg_out_lean(False);
}

static Bool dg_handle_client_request(ThreadId tid, UWord *arg, UWord *ret)
{
	HChar s1[MAX_LABEL + 1], s2[MAX_LABEL + 1];

	switch (arg[0]) {
	case VG_USERREQ__DATAGRIND_TRACK_RANGE:
		write_range(DG_R_TRACK_RANGE, arg[1], arg[2],
		            client_string(arg[3], s1), client_string(arg[4], s2));
		break;
	case VG_USERREQ__DATAGRIND_UNTRACK_RANGE:
		write_range(DG_R_UNTRACK_RANGE, arg[1], arg[2], NULL, NULL);
		break;
	case VG_USERREQ__DATAGRIND_START_EVENT:
		write_event(DG_R_START_EVENT, client_string(arg[1], s1));
		break;
	case VG_USERREQ__DATAGRIND_END_EVENT:
		write_event(DG_R_END_EVENT, client_string(arg[1], s1));
		break;
	case VG_USERREQ__DATAGRIND_START_TRACING:
	case VG_USERREQ__DATAGRIND_STOP_TRACING:
		/* the shadow stacks seeded before tracing starts */
		if (arg[0] == VG_USERREQ__DATAGRIND_START_TRACING)
			lean_end();
		dg_stream_ctl(DG_CTL_TRACING,
		              arg[0] == VG_USERREQ__DATAGRIND_START_TRACING, 0, 0);
		break;
	case VG_USERREQ__MALLOCLIKE_BLOCK:
		dg_heap_client_alloc(arg[1], arg[2]);
		break;
	case VG_USERREQ__FREELIKE_BLOCK:
		dg_heap_client_free(arg[1]);
		break;
	case VG_USERREQ__RESIZEINPLACE_BLOCK:
		dg_heap_client_free(arg[1]);
		dg_heap_client_alloc(arg[1], arg[3]);
		break;
	default:
		return False;
	}
	*ret = 0;
	return True;
}

/* ------------------------------------------------------------ threads, signals */

static void dg_start_client_code(ThreadId tid, ULong blocks_done)
{
	/* SP too: blocks that do not write it leave it out of their runs,
	   and whatever moved it meanwhile (a signal frame, sigreturn, a new
	   thread) was not generated code */
	dg_stream_ctl(DG_CTL_THREAD, tid, VG_(get_SP)(tid), 0);
	dg_out_raw_enter(tid);      /* last: the stream is generated code's now */
}

static void dg_stop_client_code(ThreadId tid, ULong blocks_done)
{
	dg_out_raw_leave(tid);
}

static void dg_thread_created(ThreadId parent, ThreadId child)
{
	dg_stream_ctl(DG_CTL_THREAD_NEW, child, 0, 0);
}

static void dg_pre_deliver_signal(ThreadId tid, Int sig, Bool alt_stack)
{
	dg_stream_ctl(DG_CTL_SIGNAL_ENTER, tid, VG_(get_SP)(tid), alt_stack);
}

static void dg_post_deliver_signal(ThreadId tid, Int sig)
{
	dg_stream_ctl(DG_CTL_SIGNAL_EXIT, tid, 0, 0);
}

/* ------------------------------------------------------------ how it ends */

/* Valgrind calls no tool hook on execve: the new program replaces this
   process, buffer and all.  So the log is finished before the call, and
   taken back if the call fails (it returns only then).  A database is
   finished too, and waited for (the exec'd program, if traced, may write
   one at the same path); it cannot be taken back: after a failed exec the
   process is not recorded any more. */
static UChar end_how = DG_END_OTHER;   /* until an exit_group is seen */
static UInt  end_status;
static ULong exec_fini_at;             /* where the exec's FINI starts */
static Bool  db_done;                  /* finished for an exec that failed */

static void exec_pre(void)
{
	dg_stream_ctl(DG_CTL_SYNC, 0, 0, 0);   /* the runs before it stay */
	exec_fini_at = dg_out_offset();
	dg_stream_ctl(DG_CTL_FINI, DG_END_EXEC, 0, 0);
	dg_out_sync();          /* all in the file before the exec */
	if (dg_out_db()) {
		dg_out_close();
		dg_imp_finish();
		dg_out_stop();
		db_done = True;
	}
}

static void exec_failed(void)
{
	if (dg_out_db())
		VG_(umsg)("datagrind: an exec failed after the database '%s' was "
		          "finished for it: the rest of process %d is not "
		          "recorded\n", dg_out_db(), VG_(getpid)());
	else
		dg_out_drop_last(exec_fini_at);
}

static void dg_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	switch (sysno) {
	case __NR_exit_group:
		end_how = DG_END_EXIT;
		end_status = (UInt)args[0];
		break;
	case __NR_execve:
	case __NR_execveat:
		exec_pre();
		break;
	}
}

static void dg_post_syscall(ThreadId tid, UInt sysno, UWord *args,
                            UInt nargs, SysRes res)
{
	if (sysno == __NR_execve || sysno == __NR_execveat)
		exec_failed();
}

/* ------------------------------------------------------------ the log */

static void write_header(void)
{
	UInt one = 1;

	dg_out_begin_short(DG_R_HEADER);
	dg_out_bytes_raw(DG_SIGNATURE, DG_SIGNATURE_LEN);
	dg_out_u8(DG_VERSION);
	dg_out_u8(*(UChar *)&one ? 0 : 1);
	dg_out_u8(sizeof(Addr));
	dg_out_end();
}

static void write_process(void)
{
	Word i, n = VG_(sizeXA)(VG_(args_for_client));

	dg_out_begin_long(DG_R_PROCESS);
	dg_out_u32(VG_(getpid)());
	dg_out_u32(VG_(getppid)());
	dg_out_string("datagrind " DG_TOOL_VERSION " (valgrind " DG_VG_VERSION ")", 256);
	dg_out_string(VG_(args_the_exename), 4096);
	dg_out_u32((UInt)(n + 1));
	dg_out_string(VG_(args_the_exename), 4096);
	for (i = 0; i < n; i++)
		dg_out_string(*(HChar **)VG_(indexXA)(VG_(args_for_client), i), 65536);
	dg_out_end();
}

/* The log's name, or NULL when only a database is written. */
static HChar *expand_out_name(void)
{
	if (clo_db && !clo_out_given)
		return NULL;
	return VG_(expand_file_name)("--datagrind-out-file", clo_out_file);
}

static HChar *expand_db_name(void)
{
	return clo_db ? VG_(expand_file_name)("--db", clo_db) : NULL;
}

/* A forked child's name: pattern expanded, with .PID unless it has %p. */
static HChar *child_name(HChar *name, const HChar *pattern)
{
	HChar *n2;

	if (!name || VG_(strstr)(pattern, "%p"))
		return name;
	n2 = VG_(malloc)("dg.main.name", VG_(strlen)(name) + 24);
	VG_(sprintf)(n2, "%s.%d", name, VG_(getpid)());
	VG_(free)(name);
	return n2;
}

/* A forked child writes its own log (and database); if the name has no
   %p it gets one. */
/* The child's encoder starts from the parent's state: a helper's is
   fetched into the tool, which the child inherits. */
static void dg_atfork_pre(ThreadId tid)
{
	struct dg_blob b;

	dg_stream_ctl(DG_CTL_FORK, 0, 0, 0);
	dg_out_flush();
	if (dg_hand_fetch(&b)) {
		dg_enc_restore(&b);
		VG_(free)(b.p);
	}
	dg_out_sync();
}

static void dg_atfork_child(ThreadId tid)
{
	HChar *name = child_name(expand_out_name(), clo_out_file);
	HChar *db = child_name(expand_db_name(), clo_db);

	db_done = False;          /* (the parent's database, not ours) */
	dg_out_reopen(name, db);
	if (name)
		VG_(free)(name);
	if (db)
		VG_(free)(db);
	write_header();
	write_process();
	dg_maps_replay();
	dg_stream_ctl(DG_CTL_REPLAY, 0, 0, 0);
	dg_heap_replay();
}

/* The preload is what makes malloc observable; without it the log would
   silently miss every heap block. */
static void check_preload(void)
{
	const HChar *tool = "datagrind";
	struct vg_stat st;
	HChar *path;
	Word i;

	for (i = 0; i < VG_(sizeXA)(VG_(args_for_valgrind)); i++) {
		const HChar *a = *(HChar **)VG_(indexXA)(VG_(args_for_valgrind), i);
		if (VG_(strncmp)(a, "--tool=", 7) == 0)
			tool = a + 7;
	}
	path = VG_(malloc)("dg.main.preload", VG_(strlen)(VG_(libdir)) + VG_(strlen)(tool) + 64);
	VG_(sprintf)(path, "%s/vgpreload_%s-amd64-linux.so", VG_(libdir), tool);
	if (sr_isError(VG_(stat)(path, &st)))
		VG_(umsg)("datagrind: warning: '%s' is missing: heap blocks will not "
		          "be recorded (reinstall datagrind)\n", path);
	VG_(free)(path);
}

static void dg_post_clo_init(void)
{
	struct dg_enc_options o;
	HChar *name, *db;
	UWord err;

	/* Blocks must not span calls: see the top of this file. */
	VG_(clo_vex_control).guest_chase = False;
	check_preload();
	dg_instr_set_trace_fn(clo_trace_fn);
	/* Not with --trace-icount: the window's state at the first START
	   follows the last run before it, which lean code does not tell. */
	/* Nor unwinding with --trace-fn: its entries need the calls replayed. */
	dg_instr_set_lean(clo_lean && !clo_trace_at_start
	                  && clo_icount_from == 0 && clo_icount_to == ~0ULL,
	                  clo_heap_unwind && !clo_trace_fn);
	if (dg_instr_lean_unwind())
		dg_heap_set_unwind(DG_STACK_MAX_FRAMES);
	dg_out_lean(dg_instr_lean());
	o.trace_at_start = clo_trace_at_start;
	o.use_fn = clo_trace_fn != NULL;
	o.icount_from = clo_icount_from;
	o.icount_to = clo_icount_to;
	o.compact = clo_compact;
	o.loop = clo_loop;
	dg_enc_init(&o);          /* before the helper starts: it has it */
	if (clo_db && !dg_imp_setup(clo_importer)) {
		VG_(umsg)("datagrind: --db: cannot find dg-import%s%s (give "
		          "--db-importer=PATH)\n", clo_importer ? " at " : "",
		          clo_importer ? clo_importer : "");
		VG_(umsg)("datagrind: the program was not run\n");
		VG_(exit)(1);
	}
	dg_wr_chains(clo_compact);
	name = expand_out_name();
	db = expand_db_name();
	dg_hand_set_evict(clo_evict);
	err = dg_out_init(name, db, dg_enc_consume, clo_helper);
	if (err && dg_out_failed_db()) {
		VG_(umsg)("datagrind: cannot start the import into '%s': %s\n",
		          db, dg_out_strerror(err));
		VG_(umsg)("datagrind: the program was not run\n");
		VG_(exit)(1);
	} else if (err) {
		/* Tracing nothing is not what anybody asked for: stop before
		   the program runs, so that the mistake costs nothing. */
		if (err == VKI_ELOOP)
			VG_(umsg)("datagrind: cannot create the log '%s': it is a "
			          "symbolic link, and the log is never written "
			          "through one\n", name);
		else
			VG_(umsg)("datagrind: cannot create the log '%s': %s\n",
			          name, dg_out_strerror(err));
		VG_(umsg)("datagrind: the program was not run\n");
		VG_(exit)(1);
	}
	if (name)
		VG_(free)(name);
	if (db)
		VG_(free)(db);
	write_header();
	write_process();
	dg_stream_ctl(DG_CTL_START, 0, 0, 0);
	VG_(atfork)(dg_atfork_pre, NULL, dg_atfork_child);
}

/* The closing line says what reached the file, not what was meant to.
   With --db the importer is waited for: the database is complete (or its
   failure said) when valgrind exits; the exit status stays the program's. */
static void dg_fini(Int exitcode)
{
	const HChar *db = dg_out_db(), *log = dg_out_path();
	Bool imported;

	if (db_done)
		return;
	dg_stream_ctl(DG_CTL_FINI, end_how, end_status, 0);
	dg_out_close();
	imported = dg_imp_finish();
	if (dg_out_error() && db)
		VG_(umsg)("datagrind: the database '%s' is truncated: %llu bytes "
		          "of log reached its importer (%s)\n", db,
		          dg_out_disk_bytes(), dg_out_strerror(dg_out_error()));
	else if (dg_out_error())
		VG_(umsg)("datagrind: the log '%s' is truncated: %llu bytes "
		          "reached it (%s)\n", log, dg_out_disk_bytes(),
		          dg_out_strerror(dg_out_error()));
	else if (VG_(clo_verbosity) >= 1 && (imported || !db))
		VG_(umsg)("datagrind: %llu instructions, %llu accesses, %llu heap "
		          "blocks; %llu bytes %s %s%s%s\n",
		          dg_hand_state()->icount, dg_hand_state()->accesses,
		          dg_heap_allocs(), dg_out_disk_bytes(),
		          db ? "of log imported into" : "written to", db ? db : log,
		          db && log ? " and written to " : "", db && log ? log : "");
}

static void dg_pre_clo_init(void)
{
	VG_(details_name)("Datagrind");
	VG_(details_version)(DG_TOOL_VERSION);
	VG_(details_description)("a data access logger");
	VG_(details_copyright_author)(
		"Copyright (C) 2026, the Datagrind authors; GNU GPL'd.");
	VG_(details_bug_reports_to)("the Datagrind issue tracker (see README.md)");
	VG_(details_avg_translation_sizeB)(400);

	VG_(basic_tool_funcs)(dg_post_clo_init, dg_instrument, dg_fini);
	VG_(needs_command_line_options)(dg_process_cmd_line_option,
	                                dg_print_usage, dg_print_debug_usage);
	VG_(needs_client_requests)(dg_handle_client_request);
	VG_(needs_syscall_wrapper)(dg_pre_syscall, dg_post_syscall);
	VG_(track_start_client_code)(dg_start_client_code);
	VG_(track_stop_client_code)(dg_stop_client_code);
	VG_(track_pre_thread_ll_create)(dg_thread_created);
	VG_(track_pre_deliver_signal)(dg_pre_deliver_signal);
	VG_(track_post_deliver_signal)(dg_post_deliver_signal);
	dg_heap_init();
	dg_maps_init();
	dg_calls_init();
}

VG_DETERMINE_INTERFACE_VERSION(dg_pre_clo_init)
