// SPDX-License-Identifier: Apache-2.0
// Data structure: a store's ids (id_pool.h).
#include "id_pool.h"
#include "memory.h"

bool dkIdPool_Reserve(const dkWorld* world, dkIdPool* pool, int32_t capacity)
{
	if (capacity <= pool->capacity) return true;
	if (!dkResizeArray(world, (void**)&pool->free, (size_t)pool->freeCount, (size_t)capacity, sizeof(int32_t)))
		return false;
	pool->capacity = capacity;
	return true;
}

void dkIdPool_Destroy(const dkWorld* world, dkIdPool* pool)
{
	dkFree(world, pool->free);
	*pool = (dkIdPool){0};
}
