// SPDX-License-Identifier: Apache-2.0
// Internal: every allocation of a world goes through its allocator (dkWorldDef.allocator), so that a host
// can count, cap or fail it, and each world keeps its own (no global state).
#ifndef DK_MEMORY_H
#define DK_MEMORY_H

#include "dk_types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dkWorld dkWorld;

// `bytes` bytes, unset (dkAlloc) or zeroed (dkAllocZeroed); null when out of memory. Zero bytes are allowed.
// A null world means the C library's allocation (for the kernel's oracles, which have no world). Aligned as
// malloc aligns, or to DK_ALIGN with a host's allocator; dkAllocAligned always to DK_ALIGN (columns and the
// step arena, which the SIMD kernels load whole vectors from).
void* dkAlloc(const dkWorld* world, size_t bytes);
void* dkAllocAligned(const dkWorld* world, size_t bytes);
void* dkAllocZeroed(const dkWorld* world, size_t bytes);
// Frees memory from dkAlloc, dkAllocAligned, dkAllocZeroed or dkResize (null is allowed).
void dkFree(const dkWorld* world, void* memory);
// As realloc: newBytes holding the first min(oldBytes, newBytes) bytes of `memory` (which may be null with
// oldBytes 0, and must come from dkAlloc or dkResize), and `memory` freed; null when out of memory, with
// `memory` untouched.
void* dkResize(const dkWorld* world, void* memory, size_t oldBytes, size_t newBytes);

// dkResize on an array of `size`-byte elements held at *array, from oldCount to newCount elements; false,
// with *array untouched, when out of memory.
bool dkResizeArray(const dkWorld* world, void** array, size_t oldCount, size_t newCount, size_t size);

// The allocator's functions for a world not yet made (dkWorld_Create allocates the world itself with them).
void* dkAllocWith(const dkAllocator* allocator, size_t bytes);
void dkFreeWith(const dkAllocator* allocator, void* memory);

#endif
