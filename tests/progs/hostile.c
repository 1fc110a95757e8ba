/* hostile.c: a traced program whose names attack the reader's tools.
 *
 * Every string it gives the trace is HOSTILE below: a line feed followed
 * by a gnuplot command (system "touch pwned"), quotes, a backquoted shell
 * command, $(...), terminal escapes (OSC window title, clear screen, a
 * C1 CSI) and bytes that are not UTF-8.  The test (t1550) also runs it
 * from a directory of that name and passes it a file of that name.
 *
 * Traffic, exactly: maps the file named by argv[1] (at least 4096 bytes,
 * near 0x30000000 if free) and reads 64 ints of it; mallocs 256 bytes; arr[64] (static):
 * TRACK_RANGE(type HOSTILE, label HOSTILE), START_EVENT(HOSTILE), 64
 * writes to arr and 64 to the block, END_EVENT(HOSTILE), UNTRACK_RANGE.
 * Prints the sum of what it read.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "datagrind.h"

#define HOSTILE "x\nsystem \"touch pwned\"\n#'\"`touch pwned`$(touch pwned)" \
	"\x1b]0;owned\x07\x1b[2J\xc2\x9b" "31m\xff\xfe\r^_@&~{}"

int arr[64];

int main(int argc, char **argv)
{
	const int *map;
	int *blk, fd, i;
	long sum = 0;

	if (argc < 2 || (fd = open(argv[1], O_RDONLY)) < 0)
		return 2;
	/* a hint far from the libraries, so that the file's page is a
	   plot region of its own */
	map = mmap((void *)0x30000000, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	blk = malloc(64 * sizeof *blk);
	if (map == MAP_FAILED || !blk)
		return 2;
	for (i = 0; i < 64; i++)
		sum += map[i];
	DATAGRIND_TRACK_RANGE(arr, sizeof arr, HOSTILE, HOSTILE);
	DATAGRIND_START_EVENT(HOSTILE);
	for (i = 0; i < 64; i++) {
		arr[i] = i;
		blk[i] = i;
	}
	DATAGRIND_END_EVENT(HOSTILE);
	DATAGRIND_UNTRACK_RANGE(arr, sizeof arr);
	printf("%ld\n", sum);
	free(blk);
	munmap((void *)map, 4096);
	close(fd);
	return 0;
}
