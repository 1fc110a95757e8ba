// cxxnames.cc: C++ functions with qualified names, for the symbolizer.
//
// main allocates one 40-byte block (new int[10]); dgt::Counter::bump(int*)
// writes its 10 ints once (10 writes of 4 bytes); the template
// dgt::total<int>(int const*, int) reads them once (10 reads of 4 bytes);
// dgt::Counter::~Counter() writes the object's member once (outside the
// block).  Prints the total (45).
//
// Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
#include <cstdio>

namespace dgt {

struct Counter {
	int n;
	__attribute__((noinline)) void bump(int *p);
	__attribute__((noinline)) ~Counter();
};

void Counter::bump(int *p)
{
	for (int i = 0; i < 10; i++)
		p[i] = i;
}

Counter::~Counter()
{
	n = 0;
}

template <typename T> __attribute__((noinline)) T total(const T *p, int k)
{
	T s = 0;
	for (int i = 0; i < k; i++)
		s += p[i];
	return s;
}

} // namespace dgt

int main()
{
	int *a = new int[10];
	{
		dgt::Counter c;
		c.bump(a);
		std::printf("%d\n", dgt::total<int>(a, 10));
	}
	delete[] a;
	return 0;
}
