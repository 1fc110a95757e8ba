/* replay.c: run a libFuzzer target over files without libFuzzer.
 *
 * `make test` must not need clang, yet every fuzz target's corpus has to be
 * replayed under AddressSanitizer and UBSan on every run.  This main() is
 * linked with a target's LLVMFuzzerTestOneInput (built by gcc with the
 * sanitizers, no recovery) and feeds it each file named on the command line,
 * and each regular file of each directory named, in name order.  A crash
 * or sanitizer report ends the process, so the last "replay: FILE" line on
 * stderr (with -v) or the sanitizer's report names the input at fault.
 *
 *   NAME-replay [-v] PATH...      exit 0: every input ran; 1: an input could
 *                                 not be read; 2: usage
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int verbose;
static unsigned long n_inputs;

/* Read all of path into a malloc'd buffer (freed by the caller). */
static int slurp(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return -1;
	for (;;) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			uint8_t *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return -1;
			}
			buf = nb, cap = ncap;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		errno = EIO;
		return -1;
	}
	*out = buf, *len = n;
	return 0;
}

static int run_file(const char *path)
{
	uint8_t *data;
	size_t len;

	if (slurp(path, &data, &len) != 0) {
		fprintf(stderr, "replay: cannot read '%s': %s\n", path, strerror(errno));
		return -1;
	}
	if (verbose)
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
	/* a copy of exactly len bytes, so ASAN sees reads past the input */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(data);
		fprintf(stderr, "replay: out of memory for '%s'\n", path);
		return -1;
	}
	memcpy(exact, data, len);
	free(data);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	n_inputs++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, NULL), rc = 0;

	if (n < 0) {
		fprintf(stderr, "replay: cannot list '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	char **names = malloc((size_t)(n ? n : 1) * sizeof *names);
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (names && ents[i]->d_name[0] != '.')
			names[k++] = ents[i]->d_name;
	}
	if (names)
		qsort(names, (size_t)k, sizeof *names, by_name);
	for (int i = 0; names && i < k; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && run_file(path) != 0)
			rc = -1;
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0, first = 1;

	if (argc > 1 && strcmp(argv[1], "-v") == 0)
		verbose = 1, first = 2;
	if (first >= argc) {
		fprintf(stderr, "usage: %s [-v] FILE-OR-DIR...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = first; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: '%s': %s\n", argv[i], strerror(errno));
			rc = 1;
		} else if ((S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i])) != 0) {
			rc = 1;
		}
	}
	printf("replay: %lu inputs\n", n_inputs);
	return rc;
}
