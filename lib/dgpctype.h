/* dgpctype.h: the type an instruction accesses (issue 8, way 3): for the pc
 * of a load or store, the type of the memory it touches and the offset of
 * the access inside that type, hence the field.
 *
 * Promise: dgpctype_at decodes the instruction at pc from the module's own
 * bytes (capstone, x86-64), takes the base register and displacement of its
 * memory operand and finds what the base register holds there:
 *   - a variable or parameter of an enclosing scope (inlined ones too)
 *     whose DWARF location at pc is that register: its pointee type
 *     (DGPCTYPE_REGISTER);
 *   - the frame: rbp or rsp relative to the frame base (the CFA through
 *     the module's CFI), a local variable whose slot covers the address:
 *     its own type (DGPCTYPE_STACK);
 *   - else a type followed through the function's basic blocks to a
 *     fixpoint, as perf's annotate-data does across blocks: a load of a
 *     typed stack slot or of a pointer member through a typed pointer gives
 *     the register that type, a direct call gives %rax the callee's return
 *     type, a register copy copies it, add/sub/lea of a constant moves it
 *     by that many bytes (a pointer stepped by the element size keeps its
 *     type; one moved into an element keeps it with a byte delta), any
 *     other write forgets it; where two paths meet and disagree the
 *     register is untyped (DGPCTYPE_TRACKED).
 * The offset is the displacement plus the delta (modulo the type's size
 * when it is past the end: p[i].b).  rip-relative operands (globals) and implicit ones
 * (push, call, rep movs) are left to the other ways: unknown here.  Each
 * function is decoded and tracked once, at its first question; after that
 * a question is a table look-up plus one decode.  Bad DWARF or code bytes
 * (no CFI, no type, a location list that does not parse, an address
 * outside the file's sections) give unknown, never a crash.
 *
 * The answer is a type DIE and an offset; naming the type and the field
 * there is lib/dgtypes' job (dgtypes_add_offset, dgtypes_field_at).
 *
 * Ownership: struct dgpctype owns its tables.  It keeps pointers to the
 * Dwfl_Modules it is given: they must outlive it (dgsym's do, until
 * dgsym_free).  Not thread-safe.
 *
 * Link: -lcapstone -ldw -lelf.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGPCTYPE_H
#define DGPCTYPE_H

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

struct dgpctype;

/* What said which type the base register holds. */
enum dgpctype_how {
	DGPCTYPE_NONE = 0,
	DGPCTYPE_REGISTER,   /* a variable's location list: in that register */
	DGPCTYPE_STACK,      /* a local variable's frame slot */
	DGPCTYPE_TRACKED     /* followed through the function */
};

struct dgpctype_res {
	uint64_t type;       /* DIE offset (the module's .debug_info) of the
				type accessed, as declared (typedefs and
				qualifiers kept: lib/dgtypes looks through
				them); 0: unknown */
	uint64_t size;       /* its size in bytes */
	uint64_t offset;     /* of the access inside it, < size */
	int how;             /* enum dgpctype_how */
};

/* A new resolver; NULL with a message in err if out of memory or capstone
 * cannot be opened. */
struct dgpctype *dgpctype_new(char *err, size_t errlen);
void dgpctype_free(struct dgpctype *t);

/* The type accessed by the instruction at session address addr of module
 * dm, inside the out-of-line function fn (dgsym_function_at gives all
 * three).  Fills r (type NULL when unknown) and returns r->how; -1 only
 * when out of memory. */
int dgpctype_at(struct dgpctype *t, Dwfl_Module *dm, Dwarf_Die *fn,
		uint64_t addr, struct dgpctype_res *r);

/* What a heap block is, from the code that called its allocator (issue
 * 12, way 'alloc').  From the call, its result register and the registers
 * it is copied to are followed forward (up to 64 instructions, along
 * fall-throughs and jumps inside the function) until none holds it; each
 * place it is seen to go (with how far into the block it points: a
 * constant added, lea) is evidence of a pointer type: a variable DWARF
 * locates in a register holding it, a store into a typed local, global or
 * member, the first parameter of a direct call it is passed to (a
 * constructor's `this`), the function's own return type when it is
 * returned.  void * and pointers to what has no size say nothing.  All
 * the evidence must agree: two types (or two starts) give none, never
 * one of them.  A
 * function that returns it with no other evidence is a wrapper: the
 * question goes to its caller (DGPCTYPE_ALLOC_UP). */
enum dgpctype_alloc_how {
	DGPCTYPE_ALLOC_NONE = 0,
	DGPCTYPE_ALLOC_TYPED,
	DGPCTYPE_ALLOC_UP
};

struct dgpctype_alloc {
	uint64_t type;       /* DIE offset of the pointee (as declared) */
	uint64_t size;       /* its size in bytes */
	uint64_t base;       /* the byte of the block where the first element
				starts (C++ puts new[]'s element count first) */
	int how;
	char evidence[192];  /* where it was seen, e.g. "variable a at main+0x1c" */
};

/* The type of the block whose allocator was called at session address
 * call (a frame of the block's allocation stack: the call instruction, or
 * the return address) inside the out-of-line function fn of module dm.
 * Fills a and returns a->how; -1 only when out of memory. */
int dgpctype_alloc_at(struct dgpctype *t, Dwfl_Module *dm, Dwarf_Die *fn,
		      uint64_t call, struct dgpctype_alloc *a);

#endif /* DGPCTYPE_H */
