// throws.cc: a C++ exception thrown three calls deep and caught in main,
// for the shadow call stacks.  main calls t1 -> t2 -> t3, which throws; the
// catch in main calls after_throw, which writes 333 ints into a new[]'d
// block (333 writes of 4 bytes, called from main).  Then main calls t1
// again with argument 0, which returns normally through t2 and t3 after
// t3 writes 7 ints into the same block (7 writes, stack t3 < t2 < t1 <
// main).
//
// Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
#include <cstdio>
#include <stdexcept>

#define NOINLINE __attribute__((noinline))

static void NOINLINE after_throw(int *p)
{
	for (int i = 0; i < 333; i++)
		p[i] = i;
}

static void NOINLINE t3(int *p, int do_throw)
{
	if (do_throw)
		throw std::runtime_error("deep");
	for (int i = 0; i < 7; i++)
		p[i] = -i;
}

static void NOINLINE t2(int *p, int do_throw) { t3(p, do_throw); }
static void NOINLINE t1(int *p, int do_throw) { t2(p, do_throw); }

int main()
{
	int *p = new int[333];

	try {
		t1(p, 1);
	} catch (const std::exception &e) {
		after_throw(p);
		std::printf("caught %s\n", e.what());
	}
	t1(p, 0);
	delete[] p;
	return 0;
}
