// SPDX-License-Identifier: Apache-2.0
// Data structure: the step arena, a per-world stack of scratch memory (as Box2D's b2ArenaAllocator). A step
// reserves what it will need before it changes anything (dkArena_Reserve, the only call that can fail), and
// every scratch array after that comes from the reservation (dkScratch), so a step that runs out of memory
// fails before it has moved an item or touched an island. The memory is kept between steps and grows with
// the largest step.
#include "core.h"

#include <stdlib.h>
#include <string.h>

bool dkArena_Reserve(dkWorld* world, size_t bytes)
{
	if (world->arenaUsed != 0) return false; // scratch still out: a bug in the step's order
	if (bytes <= world->arenaCapacity) return true;
	size_t capacity = bytes + bytes / 4; // room for the next few steps' growth
	char* memory = dkAllocAligned(world, capacity);
	if (!memory) return false;
	dkFree(world, world->arena);
	world->arena = memory;
	world->arenaCapacity = capacity;
	return true;
}

void* dkScratch(dkWorld* world, size_t bytes)
{
	if (!world) return malloc(bytes > 0 ? bytes : 1); // the kernel checks, which have no world
	size_t rounded = (bytes + DK_ALIGN - 1) / DK_ALIGN * DK_ALIGN;
	if (rounded == 0) rounded = DK_ALIGN;
	if (rounded > world->arenaCapacity - world->arenaUsed) {
		world->arenaShort = true; // the step's reservation was too small (dkSolver_ScratchBound)
		return NULL;
	}
	void* memory = world->arena + world->arenaUsed;
	world->arenaUsed += rounded;
	return memory;
}

void* dkScratchZeroed(dkWorld* world, size_t bytes)
{
	void* memory = dkScratch(world, bytes);
	if (memory) memset(memory, 0, bytes);
	return memory;
}

void dkScratchFree(dkWorld* world, void* memory)
{
	if (!world) free(memory); // the arena's memory is given back all at once (dkArena_Release)
}

size_t dkArena_Mark(const dkWorld* world) { return world->arenaUsed; }

void dkArena_Release(dkWorld* world, size_t mark) { world->arenaUsed = mark; }

void dkArena_Destroy(dkWorld* world)
{
	dkFree(world, world->arena);
	world->arena = NULL;
	world->arenaCapacity = world->arenaUsed = 0;
}
