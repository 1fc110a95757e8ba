/* alloc_cxx.cc: C++ heap blocks typed where they are allocated (issue 12,
 * way 'alloc'), built -O0 and -O2 (build/tests/progs/pctype/alloc_cxx-O0,
 * alloc_cxx-O2).  With argv[1] = N (default 100):
 *   - `new Item[N]`: Item derives from Base (a virtual destructor, so
 *     new[] puts the element count before the elements: they start at
 *     byte 8); each constructor writes _vptr, price and qty; stock writes
 *     Base::id and qty of each (N each), count reads each qty (N);
 *   - a std::vector<Rec> grown by N push_backs, and a std::map<int, Rec>
 *     of N nodes: typed by the library's own code (its allocate returns
 *     a Rec *, its nodes' variables are _Rb_tree_node pointers).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>
struct Base { long id; virtual ~Base() {} };
struct Item : Base { double price; int qty; Item() : price(0), qty(0) {} };
struct Rec { int a; double b; };
__attribute__((noipa)) void stock(Item *it, int n) { for (int i = 0; i < n; i++) { it[i].qty = i; it[i].id = i; } }
__attribute__((noipa)) long count(const Item *it, int n) { long s = 0; for (int i = 0; i < n; i++) s += it[i].qty; return s; }
int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 100;
	Item *items = new Item[n];
	stock(items, n);
	long c = count(items, n);
	std::vector<Rec> v;
	for (int i = 0; i < n; i++) v.push_back(Rec{i, i * 0.5});
	std::map<int, Rec> m;
	for (int i = 0; i < n; i++) m[i] = Rec{i, 1.0};
	double s = 0;
	for (auto &r : v) s += r.b;
	for (auto &kv : m) s += kv.second.a;
	printf("%ld %g\n", c, s);
	delete[] items;
	return 0;
}
