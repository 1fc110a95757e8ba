/* dg_maps.h: the module map.
 *
 * Writes an MMAP record for every file-backed mapping, at start-up and
 * whenever the client maps a file, with what an offline symbolizer needs:
 * path, range, file offset, load bias and GNU build-id, both read from the
 * file's ELF headers.  Writes MUNMAP for unmappings.  Owns the list of
 * Valgrind's preload libraries it has seen mapped (sent on to the
 * encoder too, as DG_CTL_PRELOAD).
 */
#ifndef DG_MAPS_H
#define DG_MAPS_H

#include "pub_tool_basics.h"

void dg_maps_init(void);    /* registers the tracking callbacks */
void dg_maps_replay(void);  /* MMAP for every file mapping now present */

/* Is a inside a Valgrind preload library (vgpreload_*.so)?  Their frames
   are dropped from the top of heap stacks: posix_memalign calling memalign
   inside the preload is not the user's allocation site. */
Bool dg_maps_in_preload(Addr a);

#endif
