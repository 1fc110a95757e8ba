/*
   datagrind.h: client requests for the Datagrind Valgrind tool.

   Include this header in a program to mark memory ranges and phases of
   interest in the Datagrind log.  Outside Valgrind every request is a few
   instructions that do nothing.

   DATAGRIND_TRACK_RANGE(addr, len, type, label)
        Record that [addr, addr+len) holds an object of interest.  `type`
        is a type name (may be ""), `label` a descriptive string.  The
        viewer's `user:LABEL` and `range` filters select accesses inside it.
   DATAGRIND_UNTRACK_RANGE(addr, len)
        The range stops being interesting (e.g. before it is freed).
   DATAGRIND_START_EVENT(label) / DATAGRIND_END_EVENT(label)
        Mark the start and end of a phase; `user:LABEL` selects accesses
        made between them.  Labels are truncated to 240 bytes.
   DATAGRIND_START_TRACING / DATAGRIND_STOP_TRACING
        Switch recording of accesses on and off (with --trace-at-start=no,
        tracing starts off).  Heap blocks, ranges and events are recorded
        either way.

   The request numbers of the first four are those of the 2010 tool.

   ----------------------------------------------------------------------
   This file is BSD-style licensed, like Valgrind's own client headers,
   so that it can be included in programs of any licence:

   Copyright (C) 2026 the Datagrind authors.  All rights reserved.

   Redistribution and use in source and binary forms, with or without
   modification, are permitted provided that the following conditions are
   met:
   1. Redistributions of source code must retain the above copyright
      notice, this list of conditions and the following disclaimer.
   2. The origin of this software must not be misrepresented; you must
      not claim that you wrote the original software.
   3. Altered source versions must be plainly marked as such, and must
      not be misrepresented as being the original software.
   4. The name of the author may not be used to endorse or promote
      products derived from this software without specific prior written
      permission.

   THIS SOFTWARE IS PROVIDED BY THE AUTHOR ``AS IS'' AND ANY EXPRESS OR
   IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
   WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
   DISCLAIMED.  IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY DIRECT,
   INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
   (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
   SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION)
   HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT,
   STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING
   IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
   POSSIBILITY OF SUCH DAMAGE.
   ----------------------------------------------------------------------
*/
#ifndef DATAGRIND_H
#define DATAGRIND_H

#include <valgrind/valgrind.h>   /* Debian: package valgrind */

typedef enum {
	VG_USERREQ__DATAGRIND_TRACK_RANGE = VG_USERREQ_TOOL_BASE('D', 'G'),
	VG_USERREQ__DATAGRIND_UNTRACK_RANGE,
	VG_USERREQ__DATAGRIND_START_EVENT,
	VG_USERREQ__DATAGRIND_END_EVENT,
	VG_USERREQ__DATAGRIND_START_TRACING,
	VG_USERREQ__DATAGRIND_STOP_TRACING
} Vg_DatagrindClientRequest;

#define DATAGRIND_TRACK_RANGE(addr, len, type, label)                      \
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DATAGRIND_TRACK_RANGE,  \
		(addr), (len), (type), (label), 0)

#define DATAGRIND_UNTRACK_RANGE(addr, len)                                 \
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DATAGRIND_UNTRACK_RANGE,\
		(addr), (len), 0, 0, 0)

#define DATAGRIND_START_EVENT(label)                                       \
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DATAGRIND_START_EVENT,  \
		(label), 0, 0, 0, 0)

#define DATAGRIND_END_EVENT(label)                                         \
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DATAGRIND_END_EVENT,    \
		(label), 0, 0, 0, 0)

#define DATAGRIND_START_TRACING                                            \
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DATAGRIND_START_TRACING,\
		0, 0, 0, 0, 0)

#define DATAGRIND_STOP_TRACING                                             \
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DATAGRIND_STOP_TRACING, \
		0, 0, 0, 0, 0)

#endif /* DATAGRIND_H */
