// SPDX-License-Identifier: Apache-2.0
// Data structure: a store's ids (id_pool.h).
#include "id_pool.h"

bool dkIdPool_Reserve(const dkWorld* world, dkIdPool* pool, int32_t capacity)
{
	return dkInt32Array_Reserve(world, &pool->free, capacity);
}

void dkIdPool_Destroy(const dkWorld* world, dkIdPool* pool)
{
	dkInt32Array_Destroy(world, &pool->free);
	pool->next = 0;
}
