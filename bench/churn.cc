// bench/churn.cc: a C++ program of std::map / std::string / std::vector
// churn for bench/real.sh (issue [11]): every round makes a key string,
// and either erases its entry or pushes onto its vector, capped at 8 (the
// front erased), then builds a second string.  Map nodes, vectors and
// their growth go through operator new: about 2 heap blocks per 1000
// accesses.  Seeded (a 64-bit LCG), so every machine does the same work.
//
//     g++ -O2 -g -o churn bench/churn.cc && ./churn [ROUNDS]
//
// Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? std::atol(argv[1]) : 200000;
	std::map<std::string, std::vector<int>> m;
	unsigned long x = 12345, sum = 0;

	for (long i = 0; i < rounds; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		std::string k = "key" + std::to_string((x >> 33) % 20000);
		if ((x >> 20) % 4 == 0) {
			auto it = m.find(k);
			if (it != m.end()) {
				sum += it->second.size();
				m.erase(it);
			}
			continue;
		}
		std::vector<int> &v = m[k];
		v.push_back((int)(x >> 40));
		if (v.size() > 8)
			v.erase(v.begin());
		std::string s = k + ":" + std::to_string(v.size());
		sum += s.size();
	}
	for (auto &e : m)
		sum += e.first.size() + e.second.size();
	std::printf("%zu %lu\n", m.size(), sum);
	return 0;
}
