-- schema.sql: the Datagrind trace database, as dg-import writes it.
--
-- This file is the one definition of the schema: dg-import executes it as
-- is (it is compiled into the program), dgsql and the `accesses` virtual
-- table read what it defines, and every table is documented here.  A change
-- here changes PRAGMA user_version and this documentation in the same commit.
--
-- Conventions.  Addresses and instruction counts are INTEGERs (64-bit; an
-- address above 2^63 is stored as the negative two's complement, as SQLite
-- has no unsigned type — user-space addresses never are).  An instruction
-- count ("icount") numbers guest instructions from 0 in execution order,
-- across all threads.  Directions: is_write 0 read, 1 write.  Stacks list
-- code addresses innermost first.  NULL means unknown or not applicable.
--
-- Accesses are not stored one row each (a one-second trace has a billion):
-- they live in `chunks`, column-compressed blobs of consecutive runs, and
-- the `accesses` virtual table (loadable extension build/lib/dgaccess.so,
-- built into dgsql) decodes them on the fly.  See `chunks` for the encoding.

PRAGMA user_version = 14;

-- meta: key/value facts about the trace and the import.
--   format_version  log format version (1: the 2010 tool, 2: this tool)
--   tool            the writer of the log ("datagrind 0.1.0 (valgrind ...)")
--   pid, ppid       of the traced process; exe, argv (argv as a JSON array)
--   word_size, endian
--   source          the log file imported; source_bytes its size
--   importer        "dg-import 0.1.0"; import_time ISO 8601 UTC
--   complete        1 if the log ended with a FINI matching its contents,
--                   else 0, and incomplete_reason says why
--   icount          instructions executed (FINI's count, else the last seen)
--   runs, accesses  runs and accesses imported
--   unknown_records record types skipped because this importer does not
--                   know them
--   chunk_coding    "chains-near" (schema 14 on): chunks.data is coded as
--                   BBCHAINS with the first-address rule of `chunks`;
--                   "chains" (schema 9-13): as BBCHAINS; a database without
--                   the key codes it as BBCHAINS from schema 9 on, as BBRUNS
--                   up to 8.  The `accesses` table reads them all.
--   fields_range, fields_global, fields_alloc (schema 13 on), fields_insn,
--   fields_heap, fields_unknown
--                   accesses given a field each way (sum_field.how), and
--   fields_untyped  the accesses no way covers (these keys sum to
--                   accesses);
--   heap_accesses, heap_accesses_typed (schema 13 on)
--                   the accesses inside a live heap block, and how many of
--                   them a way gave a field (the fields_* and these keys
--                   are absent after dg-import --no-fields)
--
-- Code addresses and modules.  One address can hold the code of two
-- modules at different times: a library dlclose'd, then another mapped
-- where it was.  So a code address is named by the pair (pc, module_id):
-- the module mapped there when the code ran (0: no module was).  `pcs`,
-- `pc_inlines` and `sum_pc` are keyed by the pair, and every pc of
-- `access_descs`, `callsites` (and the view `stack_frames`) and the
-- `accesses` table carries its module_id; join them on both columns.  The
-- pair rather than a mapping: a module mapped twice (the same library
-- opened again) is one module with one set of functions, and the pair is
-- what a reader already has at hand (an access's module_id comes with its
-- pc, from its bbdef, made while that module was mapped).
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value
) WITHOUT ROWID;

-- modules: each loaded object (executable, shared library) as mapped:
-- its file, GNU build-id (hex), load bias (run-time address minus ELF
-- address), the address span of its mappings and the debug file used to
-- symbolize it (NULL if none was found, or if libdw's debuginfod client
-- downloaded it: libdw does not say where it put it).  symbols_from says
-- where its names came from ("DWARF: <debug file>", "DWARF: debuginfod",
-- ".symtab, entry addresses", ".dynsym, entry addresses", ".gnu_debugdata,
-- ...", "none"; "not opened: no code run" for a mapping no code ran in),
-- problem why it has fewer names than it could (the file is gone or
-- changed, a debug file is unreadable, debuginfod gave no answer; NULL if
-- none), advice what would give it better names (NULL if it has DWARF).
CREATE TABLE modules (
	id            INTEGER PRIMARY KEY,
	path          TEXT NOT NULL,
	build_id      TEXT,
	bias          INTEGER,
	lo            INTEGER,
	hi            INTEGER,
	debug_file    TEXT,
	symbols_from  TEXT,
	problem       TEXT,
	advice        TEXT
);

-- mappings: every MMAP of the log: [start, end) of module_id at file
-- offset `offset`, prot bits (1 read, 2 write, 4 exec), and the icounts at
-- which it was mapped and unmapped (NULL: still mapped at exit).
CREATE TABLE mappings (
	id            INTEGER PRIMARY KEY,
	module_id     INTEGER NOT NULL REFERENCES modules(id),
	start         INTEGER NOT NULL,
	end           INTEGER NOT NULL,
	offset        INTEGER NOT NULL,
	prot          INTEGER NOT NULL,
	map_icount    INTEGER NOT NULL,
	unmap_icount  INTEGER
);

-- threads: every Valgrind thread id the log names, with the span and volume
-- of its runs (first/last_icount NULL: none of its code was traced), its
-- accesses by direction, and the icounts of its first and last access.
CREATE TABLE threads (
	id            INTEGER PRIMARY KEY,
	first_icount  INTEGER,
	last_icount   INTEGER,
	runs          INTEGER NOT NULL DEFAULT 0,
	accesses      INTEGER NOT NULL DEFAULT 0,
	reads         INTEGER NOT NULL DEFAULT 0,
	writes        INTEGER NOT NULL DEFAULT 0,
	read_bytes    INTEGER NOT NULL DEFAULT 0,
	write_bytes   INTEGER NOT NULL DEFAULT 0,
	first_access_icount INTEGER,
	last_access_icount  INTEGER
);

-- bbdefs: the blocks of the log (index = the log's bbdef index): first
-- instruction address, instruction and access counts, how it ends
-- (0 jump, 1 call, 2 return, 3 syscall, 4 other).
CREATE TABLE bbdefs (
	id          INTEGER PRIMARY KEY,
	addr        INTEGER NOT NULL,
	n_instrs    INTEGER NOT NULL,
	n_accesses  INTEGER NOT NULL,
	exit_kind   INTEGER NOT NULL
);

-- instrs: the instructions of each bbdef, iseq from 0.
CREATE TABLE instrs (
	bbdef_id  INTEGER NOT NULL,
	iseq      INTEGER NOT NULL,
	addr      INTEGER NOT NULL,
	size      INTEGER NOT NULL,
	PRIMARY KEY (bbdef_id, iseq)
) WITHOUT ROWID;

-- access_descs: the data accesses of each bbdef in program order (aseq
-- from 0): the instruction making it (iseq, and its address pc), direction,
-- size in bytes, flags (1 guarded, 2 size clamped at 255), and module_id,
-- the module mapped at pc when the block was translated (0: none): every
-- run of a bbdef ran that module's code, as a new mapping at the address
-- makes the tool translate anew.
CREATE TABLE access_descs (
	bbdef_id  INTEGER NOT NULL,
	aseq      INTEGER NOT NULL,
	iseq      INTEGER NOT NULL,
	pc        INTEGER NOT NULL,
	is_write  INTEGER NOT NULL,
	size      INTEGER NOT NULL,
	flags     INTEGER NOT NULL,
	module_id INTEGER NOT NULL,
	PRIMARY KEY (bbdef_id, aseq)
) WITHOUT ROWID;

-- stacks, callsites, stack_frames: interned call stacks (heap allocation
-- and free stacks, and the stacks of contexts).  Frame 0 is innermost.
-- Each frame is an address inside a call instruction (or, for a context,
-- frame 0 is the block's first instruction): symbolize it as is, in
-- module_id, the module mapped at pc when the stack was recorded (0: none).
-- Two stacks with the same pcs in different modules are two stacks.
--
-- Stored as a call tree (schema 10; pprof's and Perfetto's
-- stack_profile_callsite do the same): `callsites` holds one node per
-- distinct frame under a distinct caller -- (parent_id, pc, module_id) --
-- the outermost frame (main, a thread's start) a root, parent_id NULL;
-- depth counts the frames above the node (0 for a root).  A stack is a
-- path from a root down to its innermost frame's node, stacks.callsite_id
-- (its leaf; NULL for a stack without frames), and stacks.depth frames
-- long, so the node of its frame k is at callsites depth
-- stacks.depth - 1 - k; no two stacks share a leaf.  Stacks that share
-- their callers share those nodes: cc1 compiling bench/gencc.py's C has
-- 3.97 M stacks of 47.1 M frames in 4.78 M nodes, 279 MB with the indexes
-- and `stacks`, where schema 9's rows of frames took 1.62 GB.  Every
-- node's parent_id is below its id.  Schema 9 and older stored every
-- stack's frames as rows of a stack_frames table (stacks then had no
-- callsite_id); dgsql reads both.
--
-- To find the stacks through a code address, go down the tree from its
-- nodes (callsites_pc, then callsites_parent) and to the stacks ending
-- there (stacks_callsite):
--   WITH RECURSIVE d(id) AS (SELECT id FROM callsites WHERE pc = ?1
--     UNION SELECT c.id FROM callsites c JOIN d ON c.parent_id = d.id)
--   SELECT id FROM stacks WHERE callsite_id IN d;
-- and the frames of one stack up from its leaf, as stack_frames does.
CREATE TABLE callsites (
	id         INTEGER PRIMARY KEY,
	parent_id  INTEGER,
	pc         INTEGER NOT NULL,
	module_id  INTEGER NOT NULL,
	depth      INTEGER NOT NULL
);
CREATE INDEX callsites_pc ON callsites(pc, module_id);
CREATE INDEX callsites_parent ON callsites(parent_id);
CREATE TABLE stacks (
	id           INTEGER PRIMARY KEY,
	depth        INTEGER NOT NULL,
	callsite_id  INTEGER REFERENCES callsites(id)
);
CREATE INDEX stacks_callsite ON stacks(callsite_id);

-- stack_frames: every stack's frames, a row each, as schema 9's table had
-- them (frame `depth` 0 innermost, pc, module_id), in (stack_id, depth)
-- order: the tree walked up from each stack's leaf (through parents of
-- lower depth only, so a damaged tree cannot loop).  It is a recursive
-- view, which SQLite computes whole for any query (a WHERE on stack_id or
-- pc is applied after): fine on a small trace, slow on one of millions of
-- stacks (39 s for the 47.1 M frames above; schema 9's table, 5 s), where
-- the queries above or dgsql's dg_frames(stack_id) (one stack's frames,
-- from its leaf) answer the same at once.
CREATE VIEW stack_frames(stack_id, depth, pc, module_id) AS
	WITH RECURSIVE f(stack_id, depth, pc, module_id, parent, level) AS (
		SELECT s.id, 0, c.pc, c.module_id, c.parent_id, c.depth
		FROM stacks s JOIN callsites c ON c.id = s.callsite_id
		UNION ALL
		SELECT f.stack_id, f.depth + 1, c.pc, c.module_id, c.parent_id,
		       c.depth
		FROM f JOIN callsites c ON c.id = f.parent WHERE c.depth < f.level
		ORDER BY 1, 2)
	SELECT stack_id, depth, pc, module_id FROM f;

-- contexts: a bbdef reached with a call stack (index = the log's context
-- index; for 2010 logs likewise).  stack_id's frame 0 is the block's address.
CREATE TABLE contexts (
	id        INTEGER PRIMARY KEY,
	bbdef_id  INTEGER NOT NULL,
	stack_id  INTEGER NOT NULL
);

-- functions: every function (including inlined ones) that some symbolized
-- address lies in: printable name (demangled for C++), linkage name, module,
-- and where it is declared; origin says what named it: 'dwarf' (debug
-- information), 'symtab' (an ELF symbol table; PLT stubs are "name@plt",
-- the PLT header, through which lazy binding goes, "PLT0@libc.so.6"), or
-- 'entry': code that no symbol names is one function per entry address,
-- named as callgrind does by the ELF address of its entry ("0x10ee88", as
-- nm and objdump number the file; module_id says which file), the start of
-- its unwind record in .eh_frame_hdr; code reached only by jumps belongs to
-- the nearest entry before it.
CREATE TABLE functions (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL,
	linkage_name  TEXT,
	module_id     INTEGER,
	file          TEXT,
	line          INTEGER,
	origin        TEXT
);
CREATE INDEX functions_name ON functions(name);

-- pcs: every distinct code address of the trace (instructions and stack
-- frames) with the module mapped there when its code ran (0: none),
-- symbolized with libdw: innermost function (an inlined one if the address
-- is in inlined code), source file and line.  NULL where there is no debug
-- information.  A pc that two modules held at different times (a library
-- dlclose'd, another mapped at its address) has a row for each; join on
-- (pc, module_id).
CREATE TABLE pcs (
	pc           INTEGER NOT NULL,
	module_id    INTEGER NOT NULL,
	function_id  INTEGER,
	file         TEXT,
	line         INTEGER,
	PRIMARY KEY (pc, module_id)
) WITHOUT ROWID;
CREATE INDEX pcs_function ON pcs(function_id);

-- pc_inlines: the inline chain at each pc: depth 0 is the innermost
-- function (pcs.function_id), then each function it is inlined into, up to
-- the real (out-of-line) function.  file/line is the position in that
-- function: at depth 0 the pc's own line, above it the line of the inlined
-- call.  Only pcs in inlined code have more than one row; every symbolized
-- pc has the depth-0 row.  Keyed like pcs, by (pc, module_id).
CREATE TABLE pc_inlines (
	pc           INTEGER NOT NULL,
	module_id    INTEGER NOT NULL,
	depth        INTEGER NOT NULL,
	function_id  INTEGER NOT NULL,
	file         TEXT,
	line         INTEGER,
	PRIMARY KEY (pc, module_id, depth)
) WITHOUT ROWID;

-- blocks: heap blocks (malloc & co, and VALGRIND_MALLOCLIKE_BLOCK): address,
-- size, allocation and free icount, thread and stack (free_* NULL: never
-- freed), and the accesses made inside [addr, addr+size) while it lived:
-- counts, bytes, first and last access icount.  hist is the offset
-- histogram, the reads and the writes that started in each bucket k
-- (offsets k*hist_bucket .. k*hist_bucket + hist_bucket - 1): the two bytes
-- 0x80 0x00, then for each touched bucket, in order, three unsigned LEB128
-- numbers: the untouched buckets skipped since the last touched one (since
-- bucket 0 for the first), the reads, the writes.  Before schema 12 it was
-- dense, and dg_hist still reads that form: for bucket k = 0, 1, ... two
-- numbers, the reads then the writes, up to the last touched bucket (a
-- dense histogram never starts with 0x80 0x00, a zero in two bytes).
-- lib/dghist.c is the codec.  hist_bucket is the smallest power of two
-- that makes at most 1024 buckets, so blocks of any size have one.  NULL
-- when the block was never accessed.  fns (schema 14 on) is the block's
-- accesses by function and direction (its rows of sum_fn_block), one
-- entry per (function, direction) pair, by key = function_id << 1 |
-- is_write ascending (function_id 0: no function known), each three
-- unsigned LEB128 numbers: the key (the first entry's) or its difference
-- from the previous key (>= 1), the accesses (>= 1), and the size: an
-- even 2k when every access had k bytes (bytes = k * accesses), else
-- bytes * 2 + 1.  It holds a block's first 64 pairs; a block touched by
-- more keeps the rest in sum_fn_block_rest.  NULL when the block was
-- never accessed.  lib/dgblockfns.c is the codec.
CREATE TABLE blocks (
	id              INTEGER PRIMARY KEY,
	addr            INTEGER NOT NULL,
	size            INTEGER NOT NULL,
	alloc_icount    INTEGER NOT NULL,
	free_icount     INTEGER,
	alloc_thread    INTEGER,
	free_thread     INTEGER,
	alloc_stack_id  INTEGER,
	free_stack_id   INTEGER,
	reads           INTEGER NOT NULL DEFAULT 0,
	writes          INTEGER NOT NULL DEFAULT 0,
	read_bytes      INTEGER NOT NULL DEFAULT 0,
	write_bytes     INTEGER NOT NULL DEFAULT 0,
	first_icount    INTEGER,
	last_icount     INTEGER,
	hist_bucket     INTEGER,
	hist            BLOB,
	fns             BLOB
);
CREATE INDEX blocks_addr ON blocks(addr);
CREATE INDEX blocks_site ON blocks(alloc_stack_id);

-- ranges: DATAGRIND_TRACK_RANGE requests, with the icount of the request
-- and of the matching UNTRACK_RANGE (NULL: never untracked), and the
-- accesses made inside the range while it was tracked.  type_id: the type
-- (`types`) its type_name names, NULL if no module defines it.
CREATE TABLE ranges (
	id            INTEGER PRIMARY KEY,
	addr          INTEGER NOT NULL,
	len           INTEGER NOT NULL,
	type_name     TEXT,
	label         TEXT,
	thread        INTEGER,
	start_icount  INTEGER NOT NULL,
	end_icount    INTEGER,
	reads         INTEGER NOT NULL DEFAULT 0,
	writes        INTEGER NOT NULL DEFAULT 0,
	read_bytes    INTEGER NOT NULL DEFAULT 0,
	write_bytes   INTEGER NOT NULL DEFAULT 0,
	type_id       INTEGER
);
CREATE INDEX ranges_label ON ranges(label);

-- events: DATAGRIND_START_EVENT .. END_EVENT intervals (an END closes the
-- newest open event with the same label), and the accesses made inside
-- them, by any thread.
CREATE TABLE events (
	id            INTEGER PRIMARY KEY,
	label         TEXT,
	thread        INTEGER,
	start_icount  INTEGER NOT NULL,
	end_icount    INTEGER,
	reads         INTEGER NOT NULL DEFAULT 0,
	writes        INTEGER NOT NULL DEFAULT 0,
	read_bytes    INTEGER NOT NULL DEFAULT 0,
	write_bytes   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX events_label ON events(label);

-- trace_states: where tracing was switched on or off (reason: 0 start,
-- 1 client request, 2 --trace-fn, 3 --trace-icount).
CREATE TABLE trace_states (
	icount  INTEGER NOT NULL,
	thread  INTEGER,
	is_on   INTEGER NOT NULL,
	reason  INTEGER NOT NULL
);

-- chunks: the accesses, in blobs of consecutive runs of one thread with no
-- gap in instruction count; ids in execution order.  icount_lo is the icount
-- of the first run's first instruction, icount_hi one past the last run's
-- last; addr_lo/addr_hi bound the addresses accessed (inclusive);
-- n_accesses counts the accesses that happened (the chunk's rows in the
-- `accesses` table: dgsql counts whole chunks from it).
--
-- data is a sequence of runs, coded as the payload of a BBCHAINS record of
-- the log (docs/FORMAT.md §2.17: a run that follows its predecessor's
-- context the way it did last time costs no head; up to 64 such runs take
-- one byte), except that every chunk starts afresh: `prev`, every context's
-- successor and every context's prediction state (last, stride) are as at
-- the start of a log when the chunk starts.  So a chunk decodes alone,
-- given `contexts`, `bbdefs` and `access_descs`.  Coded "chains-near"
-- (meta chunk_coding, schema 14 on), an address whose slot has `last` 0
-- (not used yet in this chunk) is predicted as the address decoded just
-- before it in the chunk (0 for the chunk's first), not as 0: where a log
-- pays a context's first address once, a chunk pays it for every context
-- it meets, and on a compiler's trace (millions of contexts, a few
-- accesses a run) that was half its bytes (2.72 -> 2.02 B/access).
-- (Schema 8 and older coded it as a BBRUNS payload, §2.10, with the same
-- resets: a head for every run, 0.4-0.6 more bytes an access; see
-- meta.chunk_coding.)  Run k starts
-- at icount_lo plus the n_instrs of runs 0..k-1; its access i is made by
-- instruction iseq of access_descs (bbdef, i), at icount run start + iseq.
-- Guarded accesses that did not happen have address 0 and are not
-- accesses (the `accesses` table skips them).
CREATE TABLE chunks (
	id          INTEGER PRIMARY KEY,
	thread      INTEGER NOT NULL,
	icount_lo   INTEGER NOT NULL,
	icount_hi   INTEGER NOT NULL,
	addr_lo     INTEGER NOT NULL,
	addr_hi     INTEGER NOT NULL,
	n_runs      INTEGER NOT NULL,
	n_accesses  INTEGER NOT NULL,
	data        BLOB NOT NULL
);
CREATE INDEX chunks_icount ON chunks(icount_lo);

-- chunk_regions: which 64 KiB regions (addr >> 16) each chunk touches, so
-- that a query on an address range decodes only those chunks.
CREATE TABLE chunk_regions (
	region    INTEGER NOT NULL,
	chunk_id  INTEGER NOT NULL,
	PRIMARY KEY (region, chunk_id)
) WITHOUT ROWID;

-- context_chunks: which chunks hold runs of each context, so that a filter
-- on functions decodes only the chunks that can match.  A row lists some
-- of a context's chunks, ascending: chunk_lo, then each of the others as
-- a uleb (LEB128, as in docs/FORMAT.md) delta from the one before (>= 1)
-- in `data`, the last one being chunk_hi (data is empty when chunk_lo =
-- chunk_hi).  A context's chunks are the union of its rows; the rows of a
-- context list disjoint, ascending ranges (dg-import writes a context's
-- row when it has held many rows in memory, then starts another).
-- lib/dgctxch.c is the one codec.  In SQL, dg_chunks(chunk_lo, chunk_hi,
-- data) gives a row's ids as a JSON array, and dg_chunk_in(chunk_lo,
-- chunk_hi, data, id) tells whether id is one of them:
--   SELECT c.context_id, j.value AS chunk_id FROM context_chunks c,
--          json_each(dg_chunks(c.chunk_lo, c.chunk_hi, c.data)) j;
-- Schema 10 and older kept a row per (context, chunk) in chunk_contexts
-- (context_id, chunk_id): 12 bytes a pair, where this takes 1 to 2, and
-- its rows, written chunk by chunk, landed all over its b-tree (a third of
-- the import of a compiler's trace, 4 M contexts, 200 M pairs).  Readers
-- read either table.
CREATE TABLE context_chunks (
	context_id  INTEGER NOT NULL,
	chunk_lo    INTEGER NOT NULL,
	chunk_hi    INTEGER NOT NULL,
	data        BLOB NOT NULL,
	PRIMARY KEY (context_id, chunk_lo)
) WITHOUT ROWID;

-- chunk_cells: accesses by chunk x 256-byte cell (addr >> 8), so that a
-- picture of the whole trace (dgsql --plot without a filter) is drawn from
-- this table instead of decoding every access.  One row per chunk with
-- accesses; `data` holds the chunk's cells with accesses, ascending, each
-- an entry of three ulebs (LEB128, as in docs/FORMAT.md):
--   cell delta   the first cell itself, then cell - previous cell (>= 1)
--   reads        accesses with is_write 0 that start in the cell
--   writes       and with is_write 1 (reads + writes >= 1, each < 2^32)
-- lib/dgcells.c is the one codec.  A row per chunk, not per cell (version
-- 7 had chunk_id, cell, reads, writes columns): tens of thousands of rows
-- instead of tens of millions at 10^9 accesses.  To see the cells in SQL,
-- the eponymous virtual table chunk_cells_v(chunk_id, cell, reads, writes)
-- (built into dgsql and build/lib/dgaccess.so) decodes them:
--   SELECT cell, reads, writes FROM chunk_cells_v WHERE chunk_id = 3;
CREATE TABLE chunk_cells (
	chunk_id  INTEGER PRIMARY KEY,
	data      BLOB NOT NULL
);

-- Summaries computed during import, for the first questions users ask.

-- sum_fn_block: accesses and bytes by function (the innermost function at
-- the access's pc, inlined or not) x heap block (NULL: not in a heap block)
-- x direction: which functions touch a block.  A virtual table (schema 14
-- on; a plain table before, with the same columns and rows): a block's
-- rows are its blocks.fns blob, 4-6 bytes a row where a table and its
-- index by block took 30 (a program that allocates per row has ten rows a
-- block: pyobj's 273 MB became 35), and the accesses outside the heap,
-- with a block's (function, direction) pairs past its 64th, are rows of
-- sum_fn_block_rest.  Its module, dg_sum_fn_block, is in dgsql and in the
-- extension (build/lib/dgaccess.so; lib/dgsumfnblock.c): sqlite3 without
-- it says "no such module".  `block_id = X` reads one blocks row by id
-- (so a join from blocks costs a lookup a block), `block_id IS NULL` the
-- rest table alone; the blocks of one function are a scan.  By function,
-- sum_fn (from sum_pc) has the totals.
CREATE TABLE sum_fn_block_rest (
	function_id  INTEGER,
	block_id     INTEGER,
	is_write     INTEGER NOT NULL,
	accesses     INTEGER NOT NULL,
	bytes        INTEGER NOT NULL
);
CREATE INDEX sum_fn_block_rest_block ON sum_fn_block_rest(block_id);
CREATE VIRTUAL TABLE sum_fn_block USING dg_sum_fn_block;

-- sum_pc: accesses and bytes by code address (pc, module_id, as in pcs) ×
-- direction (every access counted once, under the module mapped at pc when
-- it happened).
CREATE TABLE sum_pc (
	pc         INTEGER NOT NULL,
	module_id  INTEGER NOT NULL,
	is_write   INTEGER NOT NULL,
	accesses   INTEGER NOT NULL,
	bytes      INTEGER NOT NULL,
	PRIMARY KEY (pc, module_id, is_write)
) WITHOUT ROWID;

-- sum_pages, sum_lines: accesses by 4 KiB page (addr >> 12) and by 64-byte
-- cache line (addr >> 6); an access counts where it starts.
CREATE TABLE sum_pages (
	page    INTEGER PRIMARY KEY,
	reads   INTEGER NOT NULL,
	writes  INTEGER NOT NULL
);
CREATE TABLE sum_lines (
	line    INTEGER PRIMARY KEY,
	reads   INTEGER NOT NULL,
	writes  INTEGER NOT NULL
);

-- sum_ctx: how many runs each context had in each thread.  With
-- access_descs (the accesses of the context's bbdef) and sum_ctx_miss, it
-- gives the exact count of accesses of any set of contexts, and of pcs
-- inside them, by thread, pc and direction: a call-stack filter (dgsql
-- --events fn:/file:/dso:) is counted with a join instead of decoding every
-- access (dgsql's view filtered_sum does so).  Access aseq of a run of
-- context c in thread t was made runs - missed times (sum_ctx_miss, else
-- missed 0), with the pc, direction and size of access_descs (bbdef of c,
-- aseq).  A row per context and thread that ran it (tens of thousands on
-- a large program: about 10 bytes a row, nothing next to the chunks).
CREATE TABLE sum_ctx (
	context_id  INTEGER NOT NULL,
	thread      INTEGER NOT NULL,
	runs        INTEGER NOT NULL,
	PRIMARY KEY (context_id, thread)
) WITHOUT ROWID;

-- sum_ctx_miss: the accesses of a context's runs that did not happen: the
-- tail of partial runs (the block was left early) and guarded accesses
-- whose guard was false.  Access aseq of context_id's bbdef happened
-- runs - missed times in thread.  Rows only where missed > 0 (few: 12
-- bytes each).
CREATE TABLE sum_ctx_miss (
	context_id  INTEGER NOT NULL,
	thread      INTEGER NOT NULL,
	aseq        INTEGER NOT NULL,
	missed      INTEGER NOT NULL,
	PRIMARY KEY (context_id, thread, aseq)
) WITHOUT ROWID;

-- sum_windows: the working set: for each window of 100 000 instructions
-- (icount / 100000, window_start its first icount) holding accesses, how
-- many accesses, distinct 64-byte cache lines (addr >> 6) and distinct
-- 4 KiB pages (addr >> 12) they touched, every thread together; an access
-- counts where it starts.  dgsql's working_set reads it with the default
-- window and line size and no filter.  A row per window: 55 000 rows,
-- about 1 MB, for 5.5 G instructions.  Left empty when the log's icounts
-- were not in order.
CREATE TABLE sum_windows (
	window_start  INTEGER PRIMARY KEY,
	accesses      INTEGER NOT NULL,
	lines         INTEGER NOT NULL,
	pages         INTEGER NOT NULL
);

-- Access classes (schema 8).  The class of an access is the set of
-- modules on its call stack -- modules.id of its own pc (access_descs) and
-- of its context's caller frames (stack_frames, depth >= 1), exactly what
-- dgsql's --events dso: looks at -- and one bit, inside a live heap block
-- (what --ranges malloc looks at, block_id not NULL).  class_id = set << 1
-- | heap bit.  The summaries below are keyed by class, so that hot_lines,
-- hot_pages and working_set under a dso: or malloc filter sum the rows
-- whose class matches instead of decoding every access: a dso: PATH that
-- matches several modules counts each access once, as it has one class.
-- A trace has tens to a few hundred sets (xz: 16, curl: 342); the tables
-- cost 12.4 MB on the 1.57 G-access xz trace (0.3 % of its database).  All three are left empty when the log's icounts were not in
-- order (as sum_windows).
--
-- sum_class_modules: the modules of each set (set = class_id >> 1); a set
-- whose code had no module (module_id 0) lists 0.
CREATE TABLE sum_class_modules (
	set_id     INTEGER NOT NULL,
	module_id  INTEGER NOT NULL,
	PRIMARY KEY (set_id, module_id)
) WITHOUT ROWID;

-- sum_line_class: reads and writes by 64-byte cache line (addr >> 6, where
-- the access starts) and class; grouped by line they are sum_lines, by
-- line >> 6 sum_pages.
CREATE TABLE sum_line_class (
	line      INTEGER NOT NULL,
	class_id  INTEGER NOT NULL,
	reads     INTEGER NOT NULL,
	writes    INTEGER NOT NULL,
	PRIMARY KEY (line, class_id)
) WITHOUT ROWID;

-- sum_window_class: sum_windows split by class.  In each window, accesses
-- = the accesses of class class_id; lines (pages) = the distinct lines
-- (pages) of the window whose accesses' classes together -- the union of
-- their sets, heap bit OR'd -- are class_id.  A line is in the working set
-- of a filter that looks at one of the two halves (dso: modules, or the
-- heap bit) when any access to it matches, that is when that union
-- matches: the working set under the filter is the sum over the rows whose
-- class matches, grouped by window.  sum over all rows of a window =
-- its sum_windows row.
CREATE TABLE sum_window_class (
	window_start  INTEGER NOT NULL,
	class_id      INTEGER NOT NULL,
	accesses      INTEGER NOT NULL,
	lines         INTEGER NOT NULL,
	pages         INTEGER NOT NULL,
	PRIMARY KEY (window_start, class_id)
) WITHOUT ROWID;

-- Fields of data types.  An access is given a field by the most certain
-- way that knows one (sum_field.how):
--   'range'   it lies in a live DATAGRIND_TRACK_RANGE whose type name
--             names a type: the field at (address - range start) modulo
--             the type's size;
--   'global'  it lies in a variable with a fixed address (a global or a
--             static, from DWARF): the field at its offset in the variable
--             (in the element, for an array; variable_id says which);
--   'alloc'   it lies in a heap block whose allocation site says its type
--             (site_types.how 'alloc', schema 13 on): the field at its
--             offset from site_types.base modulo the type's size, whatever
--             instruction made it (memset, memcpy, vector code, code
--             without DWARF); for a type that is no aggregate (a char
--             buffer) 'insn' goes first;
--   'insn'    the type of the accessing instruction's memory operand;
--   'heap'    the type of the heap block, from its allocation site;
--   'unknown' a way knew where it was but not the type: a type name no
--             module defines (dg-import warns once per name), a variable
--             DWARF gives no usable type; type_id and field_id are NULL.
-- Accesses no way covers are not in sum_field (meta fields_untyped).

-- types: the data types accesses were attributed to (and only those, with
-- the types nested in them): printed name ("struct item", "union u",
-- "class C", a typedef's name for an anonymous struct, "int"), size in
-- bytes, module and where it is declared.
CREATE TABLE types (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	size       INTEGER NOT NULL,
	module_id  INTEGER,
	file       TEXT,
	line       INTEGER
);
CREATE INDEX types_name ON types(name);

-- fields: each type's members flattened, in declaration order: path
-- ("len", "hdr.len" for a nested struct, "slots[].key" for a member of
-- the elements of an array of structs, folded: offset is the first
-- element's and stride the element size, "Base::id" for a C++ base
-- class's member, "" for the one field of a type that is no aggregate),
-- its type as C writes it ("char[16]", "struct node *"), byte offset from
-- the start of the type and size (an array of scalars is one field, the
-- whole array; storage that holds a value of its template parameter as
-- raw bytes, libstdc++'s __aligned_buffer<T> in map, set, list and hash
-- nodes, is flattened as the T it holds: "_M_storage.second.price");
-- bit-fields have bit_offset (from the byte at offset, 0-7)
-- and bit_size, else NULL.  Members of a union overlap.  In a folded
-- array, stride is the element size of the innermost array and array_end
-- the end offset of the outermost one (NULL elsewhere).
CREATE TABLE fields (
	id          INTEGER PRIMARY KEY,
	type_id     INTEGER NOT NULL REFERENCES types(id),
	path        TEXT NOT NULL,
	type_name   TEXT,
	offset      INTEGER NOT NULL,
	size        INTEGER NOT NULL,
	bit_offset  INTEGER,
	bit_size    INTEGER,
	stride      INTEGER,
	array_end   INTEGER
);
CREATE INDEX fields_type ON fields(type_id, offset);

-- variables: the globals and statics accesses were attributed to: name,
-- module, run-time address and size, type (of the element, for arrays).
CREATE TABLE variables (
	id         INTEGER PRIMARY KEY,
	name       TEXT,
	module_id  INTEGER,
	addr       INTEGER NOT NULL,
	size       INTEGER NOT NULL,
	type_id    INTEGER
);

-- sum_field: accesses by type x field x variable x function x thread x
-- way (how, above): counts and bytes by direction, icounts of the first
-- and last.  field_id NULL with a type_id: padding.  An access wider than
-- the field it starts in ('alloc', 'insn', 'heap': memset's 32-byte
-- stores, a struct copied in one move) counts in every field it covers
-- (schema 13 on), its bytes only where it starts: sum(read_bytes +
-- write_bytes) stays the bytes accessed, the meta fields_* keys count it
-- once.  No size cap: a row per combination that happened.
CREATE TABLE sum_field (
	type_id       INTEGER,
	field_id      INTEGER,
	variable_id   INTEGER,
	function_id   INTEGER,
	thread        INTEGER NOT NULL,
	how           TEXT NOT NULL,
	reads         INTEGER NOT NULL,
	writes        INTEGER NOT NULL,
	read_bytes    INTEGER NOT NULL,
	write_bytes   INTEGER NOT NULL,
	first_icount  INTEGER NOT NULL,
	last_icount   INTEGER NOT NULL
);
CREATE INDEX sum_field_type ON sum_field(type_id, field_id);
-- Struct fields from the accessing instruction and the heap block (issue 8,
-- ways 3 and 4; types are named as lib/dgtypes names them: "struct rec",
-- "int", a typedef's name for an anonymous struct; fields by path, as in
-- "hdr.len", "slots[].key", "" for a type that is no aggregate, NULL for
-- padding).
--
-- pc_types: way 3, once per distinct accessing pc (pc, module_id as in
-- pcs).  dg-import decodes the
-- instruction (capstone) and takes its memory operand's base register and
-- displacement; the type is the pointee of the variable or parameter that
-- DWARF locates in that register at that pc (via 'register'), the local
-- variable whose frame slot the operand addresses (via 'stack', rbp/rsp
-- against the frame base and the CFI), or the type that register was
-- followed to from the function's entry (via 'tracked': a load of a typed
-- stack slot or of a pointer member, a call's return type, a pointer
-- stepped round a loop: the tracker runs over the basic blocks to a
-- fixpoint, and a register two paths disagree on is untyped).  offset is
-- the displacement (plus how far into an element a stepped pointer
-- points), modulo type_size.  Per-field counts of way 3 are sum_pc
-- joined on (pc, module_id) (view pc_fields), and sum_field's how 'insn'
-- (less the accesses a range or a variable gave a field first).  rip-relative (globals), %fs-relative and
-- implicit operands (push, call, rep movs) are not typed here.
CREATE TABLE pc_types (
	pc         INTEGER NOT NULL,
	module_id  INTEGER NOT NULL,
	type       TEXT NOT NULL,
	type_size  INTEGER NOT NULL,
	offset     INTEGER NOT NULL,
	field      TEXT,
	via        TEXT NOT NULL,
	PRIMARY KEY (pc, module_id)
) WITHOUT ROWID;

-- site_types: heap blocks typed by allocation site (stack_id).
-- how 'alloc' (schema 13 on): the code that called the allocator says the
-- type.  dg-import follows the result register forward from the call (the
-- site's innermost frame) and records where it goes: a variable DWARF
-- locates in a register holding it, a store into a typed local, global or
-- member, the first parameter of a call it is passed to (a constructor's
-- `this`), the function's return type.  void * says nothing; two types
-- say none.  A function that only returns it (a wrapper, xmalloc) sends
-- the question to its caller, up to six frames.  evidence names the first
-- place ("variable a at main+0x1c", "stored into s at build+0x2c",
-- "passed to Node::Node at make+0x13"); base is the byte of the block
-- where the elements start (0; C++'s array cookie before them is not
-- typed).  Blocks smaller than the type are left untyped; in a block
-- that is not a whole number of elements only the first is typed (a
-- struct with a flexible array member).  realloc's new block keeps the
-- old block's type where its own site says nothing (a generic grower
-- storing through a void **): its accesses are 'alloc', its site has no
-- row for it.
-- how 'votes' (way 4), where the allocation says nothing: each access to
-- a block by a pc of pc_types whose offset equals the access's offset in
-- the block modulo the type's size is a vote for that type in the block;
-- a block that gets votes for two types is typed by none of them (a
-- `void *` buffer reused for two types).  A block's first vote goes to its
-- site (a majority vote, Boyer-Moore), and a new block starts with its
-- site's leader (its accesses by untyped pcs are sum_field's how 'heap').
-- A block with no votes of its own takes its site's type when it is freed
-- (or at the end).  type is the site's type; blocks_voted counts the
-- blocks whose own votes chose it (for 'alloc': agreed with it),
-- blocks_by_site those typed by the site alone (the `void *` and
-- container_of accesses: no typed pc touched them), blocks_other those
-- whose votes chose another type.  elements is block size / type_size when
-- every typed block of the site holds exactly that many (an array of the
-- type), else NULL.
CREATE TABLE site_types (
	stack_id        INTEGER PRIMARY KEY,
	type            TEXT NOT NULL,
	type_size       INTEGER NOT NULL,
	elements        INTEGER,
	blocks_voted    INTEGER NOT NULL,
	blocks_by_site  INTEGER NOT NULL,
	blocks_other    INTEGER NOT NULL,
	how             TEXT NOT NULL,
	evidence        TEXT,
	base            INTEGER NOT NULL
);

-- site_fields: the accesses to typed blocks by allocation site (stack_id,
-- NULL: unknown) x type (the block's, as site_types says) x field: the field at the access's offset in its
-- block modulo the type's size (NULL field and offset: padding), taken from
-- each block's offset histogram (reads and writes that start in the
-- field), and how many blocks had any.  Only blocks whose histogram has
-- 1-byte buckets (blocks of up to 1024 bytes) count: a coarser bucket can
-- straddle fields.  One row per site and field, not per block: a program
-- makes millions of small blocks.
CREATE TABLE site_fields (
	stack_id   INTEGER,
	type       TEXT NOT NULL,
	field      TEXT,
	offset     INTEGER,
	blocks     INTEGER NOT NULL,
	reads      INTEGER NOT NULL,
	writes     INTEGER NOT NULL
);

-- sum_heap: the accesses made inside a live heap block (those with a
-- block_id in `accesses`, dgsql's `--ranges malloc`) by thread x code
-- address (pc, module_id: join pcs on both) x direction, with their bytes.  dgsql answers that filter's totals, its
-- by_function and by_thread from it instead of decoding every access.  A
-- row per instruction that touched the heap, per thread (a few thousand
-- rows, ~20 bytes each).
CREATE TABLE sum_heap (
	thread    INTEGER NOT NULL,
	pc        INTEGER NOT NULL,
	module_id INTEGER NOT NULL,
	is_write  INTEGER NOT NULL,
	accesses  INTEGER NOT NULL,
	bytes     INTEGER NOT NULL,
	PRIMARY KEY (thread, pc, module_id, is_write)
) WITHOUT ROWID;

-- sum_heap_threads: per thread, its accesses inside live heap blocks and
-- the icounts of the first and last of them (by_thread's span under
-- `--ranges malloc`).  A row per thread that touched the heap.
CREATE TABLE sum_heap_threads (
	thread        INTEGER PRIMARY KEY,
	accesses      INTEGER NOT NULL,
	first_icount  INTEGER NOT NULL,
	last_icount   INTEGER NOT NULL
);

-- sum_block_chunks: for each heap block with at least 65 536 accesses
-- (blocks.reads + blocks.writes), how many of them each chunk holds (rows
-- only for chunks holding some): `accesses WHERE block_id = X` visits only
-- those chunks, and counts them without decoding when it reads no column
-- (SELECT count(*)).  Smaller blocks have no rows: the block's address
-- span and lifetime narrow the chunks enough.  A row per big block per
-- chunk it is touched in (12-20 bytes; 119 301 rows, 1.8 MB, for 1.57 G
-- accesses of xz -9, whose dictionary is touched in every chunk).  A
-- chunk holds at most 65 536 accesses, so accesses is 1 to 65 536.
CREATE TABLE sum_block_chunks (
	block_id  INTEGER NOT NULL,
	chunk_id  INTEGER NOT NULL,
	accesses  INTEGER NOT NULL,
	PRIMARY KEY (block_id, chunk_id)
) WITHOUT ROWID;

-- Views over the summaries.

-- sum_fn: accesses and bytes by function and direction, from sum_pc (a row
-- a pc; the same sums as sum_fn_block's, which has a row a function and
-- block: 8.7 M rows and 9.9 s against 0.07 s on a Python run before
-- schema 12).
CREATE VIEW sum_fn AS
	SELECT p.function_id AS function_id, s.is_write AS is_write,
	       sum(s.accesses) AS accesses, sum(s.bytes) AS bytes
	FROM sum_pc s LEFT JOIN pcs p ON p.pc = s.pc AND p.module_id = s.module_id
	GROUP BY p.function_id, s.is_write;

-- sum_site: heap blocks and their accesses by allocation stack.
CREATE VIEW sum_site AS
	SELECT alloc_stack_id AS stack_id, count(*) AS blocks,
	       sum(size) AS bytes_allocated, sum(reads) AS reads,
	       sum(writes) AS writes, sum(read_bytes) AS read_bytes,
	       sum(write_bytes) AS write_bytes
	FROM blocks GROUP BY alloc_stack_id;

-- pc_fields: way 3's accesses by type and field (sum_pc x pc_types).
CREATE VIEW pc_fields AS
	SELECT t.type, t.field, t.via, s.is_write, sum(s.accesses) AS accesses,
	       sum(s.bytes) AS bytes
	FROM sum_pc s JOIN pc_types t ON t.pc = s.pc AND t.module_id = s.module_id
	GROUP BY t.type, t.field, t.via, s.is_write;
