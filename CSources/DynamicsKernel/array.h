// SPDX-License-Identifier: Apache-2.0
// Internal: the growable array every store keeps its entities in, as Box2D's b2Array: a typed pointer, the
// elements in use and the room for them, from the world's allocator (memory.h). DK_ARRAY_TYPE declares one
// (the element type may still be incomplete); DK_ARRAY_FUNCTIONS its operations, where the element type is
// complete. An array that a store indexes by id holds one element per id given out (its count is the id
// pool's next); the others are lists. Columns that run beside a store's array (the item columns, the
// islands' links, the shapes' boxes) grow with it to its capacity.
#ifndef DK_ARRAY_H
#define DK_ARRAY_H

#include "memory.h"

#include <stdbool.h>
#include <stdint.h>

#define DK_ARRAY_TYPE(T, Name)                                                                                         \
	typedef struct Name {                                                                                              \
		T* data;                                                                                                       \
		int32_t count, capacity;                                                                                       \
	} Name

// The room an array takes when it needs `need` elements: half as much again, at least 16.
static inline int32_t dkArray_Grown(int32_t need)
{
	int64_t capacity = (int64_t)need + need / 2;
	return capacity < 16 ? 16 : capacity > INT32_MAX ? INT32_MAX : (int32_t)capacity;
}

// Name_Reserve: room for `need` elements, keeping the first `count`; false, the array unchanged, when out of
// memory. Name_Push: one element at the end. Name_Destroy: gives the memory back.
#define DK_ARRAY_FUNCTIONS(T, Name)                                                                                    \
	static inline bool Name##_Reserve(const dkWorld* world, Name* a, int32_t need)                                     \
	{                                                                                                                  \
		if (need <= a->capacity) return true;                                                                          \
		int32_t capacity = dkArray_Grown(need);                                                                        \
		T* p = dkResize(world, a->data, (size_t)a->count * sizeof(T), (size_t)capacity * sizeof(T));                   \
		if (!p) return false;                                                                                          \
		a->data = p;                                                                                                   \
		a->capacity = capacity;                                                                                        \
		return true;                                                                                                   \
	}                                                                                                                  \
	static inline bool Name##_Push(const dkWorld* world, Name* a, const T* element)                                    \
	{                                                                                                                  \
		if (!Name##_Reserve(world, a, a->count + 1)) return false;                                                     \
		a->data[a->count++] = *element;                                                                                \
		return true;                                                                                                   \
	}                                                                                                                  \
	static inline void Name##_Destroy(const dkWorld* world, Name* a)                                                   \
	{                                                                                                                  \
		dkFree(world, a->data);                                                                                        \
		*a = (Name){0};                                                                                                \
	}

DK_ARRAY_TYPE(int32_t, dkInt32Array);
DK_ARRAY_FUNCTIONS(int32_t, dkInt32Array)

#endif
