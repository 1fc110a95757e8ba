/* symbench.c: how fast lib/dgsym symbolizes distinct code addresses.
 *
 * Usage: symbench N FILE...  maps each ELF FILE (its executable segments,
 * at a base of its own, as a process would) and symbolizes N distinct code
 * addresses spread evenly over all of them, each once, as dg-import does
 * (it caches per address, so every address it meets costs one lookup).
 * Prints the time of the first lookup per module (opening files, debug
 * info), then of all lookups, and how many addresses were named and how.
 * Figures only: it asserts nothing about time.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "dgsym.h"

#define MAX_FILES 16

struct seg { uint64_t lo, len, base; };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The first executable PT_LOAD of path; 0 or -1. */
static int exec_segment(const char *path, struct seg *sg)
{
	int fd = open(path, O_RDONLY), found = -1;
	Elf *e;
	size_t n, i;
	GElf_Phdr ph;

	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_getphdrnum(e, &n) == 0)
		for (i = 0; i < n && found < 0; i++)
			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    (ph.p_flags & PF_X)) {
				sg->lo = ph.p_vaddr;
				sg->len = ph.p_memsz;
				found = 0;
			}
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

int main(int argc, char **argv)
{
	struct seg sg[MAX_FILES];
	struct dgsym_frame fr[32];
	uint64_t total = 0, n, i, by[4] = { 0 }, unnamed = 0;
	char err[256];
	struct dgsym *s;
	int nf = argc - 2, f, mod;
	double t0, t1, t2;

	if (argc < 3 || nf > MAX_FILES || (n = strtoull(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: symbench N FILE...\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	s = dgsym_new(err, sizeof err);
	if (!s) {
		fprintf(stderr, "symbench: %s\n", err);
		return 1;
	}
	for (f = 0; f < nf; f++) {
		if (exec_segment(argv[f + 2], &sg[f]) < 0) {
			fprintf(stderr, "symbench: %s: no executable segment\n", argv[f + 2]);
			return 1;
		}
		sg[f].base = 0x10000000ull * (uint64_t)(f + 1);
		dgsym_add_mapping(s, sg[f].base + sg[f].lo, sg[f].len, 0, sg[f].base,
				  5, NULL, 0, argv[f + 2]);
		total += sg[f].len;
	}
	if (total < n) {
		fprintf(stderr, "symbench: only %llu bytes of code for %llu addresses\n",
			(unsigned long long)total, (unsigned long long)n);
		return 1;
	}
	t0 = now();
	for (f = 0; f < nf; f++)
		dgsym_lookup(s, sg[f].base + sg[f].lo, &mod, fr, 32);
	t1 = now();
	for (i = 0; i < n; i++) {
		uint64_t off = (uint64_t)((double)i * (double)total / (double)n);
		int k;

		for (f = 0; off >= sg[f].len; f++)
			off -= sg[f].len;
		k = dgsym_lookup(s, sg[f].base + sg[f].lo + off, &mod, fr, 32);
		if (k > 0 && fr[0].origin >= 1 && fr[0].origin <= 3)
			by[fr[0].origin]++;
		else
			unnamed++;
	}
	t2 = now();
	printf("opening %d files: %.3f s; %llu distinct addresses: %.3f s "
	       "(%.2f us each)\nnamed by DWARF %llu, symbol table %llu, entry "
	       "address %llu; unnamed %llu\n", nf, t1 - t0,
	       (unsigned long long)n, t2 - t1, (t2 - t1) * 1e6 / (double)n,
	       (unsigned long long)by[1], (unsigned long long)by[2],
	       (unsigned long long)by[3], (unsigned long long)unnamed);
	dgsym_free(s);
	return 0;
}
