// SPDX-License-Identifier: Apache-2.0
// Internal: a stable LSD radix sort of 64-bit keys with an optional 32-bit payload (radix_sort.c).
#ifndef DK_RADIX_SORT_H
#define DK_RADIX_SORT_H

#include <stdbool.h>
#include <stdint.h>

// Sorts keys (and payload alongside, when not null) ascending; equal keys keep their order.
// Its scratch comes from the world's allocator (null: the C library's). Returns false when out of memory
// (the arrays are then unchanged).
typedef struct dkWorld dkWorld;
bool dkRadixSort64(const dkWorld* world, uint64_t* keys, int32_t* payload, int32_t n);

#endif
