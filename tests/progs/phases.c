/* phases.c: bench/workload.c with each phase of a round a user event and
 * the stencil's grids tracked ranges (its -DDG_EVENTS build): a trace of
 * many chunks whose events take some chunks whole, for the tests of
 * user: filters answered from the summaries (t1535, t1545).
 * Usage: phases [ROUNDS]   (smaller rounds than the benchmark's; the
 * tests run 2: about 80 chunks)
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#define DG_EVENTS 1
#define MM_N     32      /* a multiple of MM_BS */
#define ST_W     80
#define ST_H     80
#define ST_STEPS 4
#define HT_KEYS  1000
#define LL_NODES 2048
#define LL_LAPS  2
#define BT_KEYS  1000
#include "../../bench/workload.c"
