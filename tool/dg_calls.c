/* dg_calls.c: call sites by return address.  See dg_calls.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_stacktrace.h"
#include "dg_calls.h"

struct call {
	struct call *next;    /* VgHashNode layout: next, key (the return address) */
	UWord ret;
	Addr pc, target;
};

static VgHashTable *calls;

void dg_calls_init(void)
{
	calls = VG_(HT_construct)("dg.calls");
}

void dg_calls_add(Addr ret, Addr call_pc, Addr target)
{
	struct call *c = VG_(HT_lookup)(calls, ret);

	if (c) {                  /* translated again: the same call */
		c->target = c->target == target ? target : 0;
		return;
	}
	c = VG_(malloc)("dg.calls.site", sizeof *c);
	c->ret = ret;
	c->pc = call_pc;
	c->target = target;
	VG_(HT_add_node)(calls, c);
}

/* Valgrind's unwinder gives each caller's frame as its return address
   less one (inside the call instruction) and the SP it returns to; the
   shadow stack's frame has the SP after the call, 8 below (the return
   address's slot).  Every call the program made was translated first, so
   a return address that is no call site's is past the outermost frame
   (the unwinder goes on guessing from frame pointers beyond _start). */
UInt dg_calls_unwind(ThreadId tid, struct dg_frame_in *out, UInt max)
{
	Addr ips[DG_STACK_MAX_FRAMES + 1], sps[DG_STACK_MAX_FRAMES + 1];
	UInt n, i;

	tl_assert(max <= DG_STACK_MAX_FRAMES);
	n = VG_(get_StackTrace)(tid, ips, max + 1, sps, NULL, 0);
	for (i = 1; i < n; i++) {
		Addr ret = ips[i] + 1;
		const struct call *c = VG_(HT_lookup)(calls, ret);
		if (!c)
			break;
		out[i - 1].pc = c->pc;
		out[i - 1].fn = c->target ? c->target : ~ret;
		out[i - 1].sp = sps[i] - 8;
	}
	return i - 1;
}
