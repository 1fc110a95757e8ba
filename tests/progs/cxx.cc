// cxx.cc: C++ allocation from main.
//
// With argv[1] == "1" (the default) main makes, in order:
//   new int[50] (200 bytes)   new S (24 bytes)   new (nothrow) char[33]
//   operator new(77)          new (align_val_t(64)) char[64]
// and deletes all five: 5 allocations, 5 frees.  With "0", none.
//
// Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
#include <cstdio>
#include <cstdlib>
#include <new>

struct S {
	long a, b, c;
};

int main(int argc, char **argv)
{
	int on = argc > 1 ? std::atoi(argv[1]) : 1;

	if (on) {
		int *ints = new int[50];
		S *s = new S;
		char *nt = new (std::nothrow) char[33];
		void *raw = operator new(77);
		char *al = new (std::align_val_t(64)) char[64];

		if (reinterpret_cast<unsigned long>(al) & 63)
			return 3;
		ints[0] = 1;
		s->a = 2;
		nt[0] = 3;
		static_cast<char *>(raw)[0] = 4;
		al[0] = 5;
		delete[] ints;
		delete s;
		delete[] nt;
		operator delete(raw);
		operator delete[](al, std::align_val_t(64));
	}
	std::printf("cxx done\n");
	return 0;
}
