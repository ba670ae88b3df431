// SPDX-License-Identifier: Apache-2.0
// Internal: the ids of a store (id_pool.c), as Box2D's b2IdPool. Every store that hands out ids (items,
// shapes, attachments, islands) takes them from one: a freed id is given out again before a new one, the
// last freed first. The free stack has room for every id the store may hold (dkIdPool_Reserve, called as the
// store grows), so giving ids out and taking them back never allocates and never fails. What an id's
// generation is stays with the store's entity: it advances when the id is freed.
#ifndef DK_ID_POOL_H
#define DK_ID_POOL_H

#include "array.h"

typedef struct dkIdPool {
	dkInt32Array free; // freed ids, the last freed on top
	int32_t next;	   // ids below it have been given out at least once (the store's slots in use or free)
} dkIdPool;

// Room for `capacity` ids; false (the pool unchanged) when out of memory.
bool dkIdPool_Reserve(const dkWorld* world, dkIdPool* pool, int32_t capacity);
void dkIdPool_Destroy(const dkWorld* world, dkIdPool* pool);

// An id: the last freed, or a new one (the caller reserved room for it).
static inline int32_t dkIdPool_Alloc(dkIdPool* pool)
{
	return pool->free.count > 0 ? pool->free.data[--pool->free.count] : pool->next++;
}
static inline void dkIdPool_Free(dkIdPool* pool, int32_t id) { pool->free.data[pool->free.count++] = id; }
// Ids the pool can give out before it needs room for new ones.
static inline int32_t dkIdPool_Reusable(const dkIdPool* pool) { return pool->free.count; }

#endif
