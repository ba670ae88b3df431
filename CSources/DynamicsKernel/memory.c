// SPDX-License-Identifier: Apache-2.0
// Memory: the world's allocator (dkWorldDef.allocator), or the C library's.
#include "memory.h"
#include "core.h"

#include <stdlib.h>
#include <string.h>

void* dkAllocWith(const dkAllocator* allocator, size_t bytes)
{
	size_t rounded = (bytes + DK_ALIGN - 1) / DK_ALIGN * DK_ALIGN;
	if (rounded < bytes) return NULL; // the size wrapped
	if (rounded == 0) rounded = DK_ALIGN;
	if (allocator->allocate) return allocator->allocate(allocator->context, rounded);
	return aligned_alloc(DK_ALIGN, rounded);
}

void dkFreeWith(const dkAllocator* allocator, void* memory)
{
	if (!memory) return;
	if (allocator->release) allocator->release(allocator->context, memory);
	else free(memory);
}

static const dkAllocator cLibrary = {0};

static const dkAllocator* allocatorOf(const dkWorld* world) { return world ? &world->def.allocator : &cLibrary; }

void* dkAllocAligned(const dkWorld* world, size_t bytes) { return dkAllocWith(allocatorOf(world), bytes); }

void* dkAlloc(const dkWorld* world, size_t bytes)
{
	const dkAllocator* allocator = allocatorOf(world);
	if (allocator->allocate) return dkAllocWith(allocator, bytes);
	return malloc(bytes > 0 ? bytes : 1);
}

void* dkAllocZeroed(const dkWorld* world, size_t bytes)
{
	void* memory = dkAlloc(world, bytes);
	if (memory) memset(memory, 0, bytes);
	return memory;
}

void dkFree(const dkWorld* world, void* memory) { dkFreeWith(allocatorOf(world), memory); }

void* dkResize(const dkWorld* world, void* memory, size_t oldBytes, size_t newBytes)
{
	// The C library grows an array where it is when it can (a large one by remapping its pages), so a grown
	// array is not resident twice while it is copied; a host's allocator gets the copy.
	if (!allocatorOf(world)->allocate) return realloc(memory, newBytes > 0 ? newBytes : 1);
	void* fresh = dkAlloc(world, newBytes);
	if (!fresh) return NULL;
	if (memory) memcpy(fresh, memory, oldBytes < newBytes ? oldBytes : newBytes);
	dkFree(world, memory);
	return fresh;
}

bool dkResizeArray(const dkWorld* world, void** array, size_t oldCount, size_t newCount, size_t size)
{
	void* fresh = dkResize(world, *array, oldCount * size, newCount * size);
	if (!fresh) return false;
	*array = fresh;
	return true;
}
