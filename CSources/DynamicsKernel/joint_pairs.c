// SPDX-License-Identifier: Apache-2.0
// Data structure: the item pairs that joints keep from colliding. A joint between two items whose
// collideConnected is false puts the pair (item slots, the smaller first) in this set, counted: two such
// joints between the same items count twice. The broadphase drops the set's pairs (dkAccepts), as Box2D
// does for bodies joined by a joint. Open addressing with linear probing and backward-shift deletion; the
// table doubles when half full. Each item slot also counts its pairs, so the pair test looks a pair up
// only when both of its items have one, and a world without such joints never looks anything up.
#include "collision.h"
#include "joint.h"

#include <stdlib.h>
#include <string.h>

#define DK_NO_PAIR UINT64_MAX

struct dkJointPairs {
	uint64_t* keys;	  // DK_NO_PAIR for an empty entry
	int32_t* counts;  // joints per pair
	int32_t capacity; // a power of two
	int32_t used;
	int32_t* perSlot; // pairs per item slot
	int32_t slotCapacity;
};

static uint64_t keyOf(int32_t a, int32_t b)
{
	uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
	return (uint64_t)lo << 32 | hi;
}

static int32_t home(const dkJointPairs* p, uint64_t key)
{
	return (int32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (p->capacity - 1);
}

static int32_t find(const dkJointPairs* p, uint64_t key)
{
	if (!p || p->capacity == 0) return -1;
	for (int32_t i = home(p, key);; i = (i + 1) & (p->capacity - 1)) {
		if (p->keys[i] == key) return i;
		if (p->keys[i] == DK_NO_PAIR) return -1;
	}
}

static void insert(dkJointPairs* p, uint64_t key, int32_t count)
{
	int32_t i = home(p, key);
	while (p->keys[i] != DK_NO_PAIR && p->keys[i] != key) i = (i + 1) & (p->capacity - 1);
	if (p->keys[i] == DK_NO_PAIR) {
		p->keys[i] = key;
		p->counts[i] = 0;
		p->used++;
	}
	p->counts[i] += count;
}

bool dkJointPairs_Reserve(dkWorld* world, int32_t extra)
{
	if (!world->jointPairs) world->jointPairs = dkAllocZeroed(world, (1) * sizeof(dkJointPairs));
	dkJointPairs* p = world->jointPairs;
	if (!p) return false;
	if (p->slotCapacity < world->itemIds.next) {
		int32_t cap = world->itemIds.next + world->itemIds.next / 2 + 16;
		int32_t* perSlot = dkResize(world, p->perSlot, (size_t)p->slotCapacity * sizeof(int32_t), (size_t)cap * sizeof(int32_t));
		if (!perSlot) return false;
		memset(perSlot + p->slotCapacity, 0, (size_t)(cap - p->slotCapacity) * sizeof(int32_t));
		p->perSlot = perSlot;
		p->slotCapacity = cap;
	}
	if (2 * ((int64_t)p->used + extra) <= p->capacity) return true;
	int32_t cap = p->capacity > 0 ? p->capacity : 64;
	while ((int64_t)cap < 2 * ((int64_t)p->used + extra)) cap *= 2;
	uint64_t* keys = dkAlloc(world, (size_t)cap * sizeof(uint64_t));
	int32_t* counts = dkAlloc(world, (size_t)cap * sizeof(int32_t));
	if (!keys || !counts) {
		dkFree(world, keys);
		dkFree(world, counts);
		return false;
	}
	for (int32_t i = 0; i < cap; ++i) keys[i] = DK_NO_PAIR;
	dkJointPairs old = *p;
	p->keys = keys;
	p->counts = counts;
	p->capacity = cap;
	p->used = 0;
	for (int32_t i = 0; i < old.capacity; ++i)
		if (old.keys[i] != DK_NO_PAIR) insert(p, old.keys[i], old.counts[i]);
	dkFree(world, old.keys);
	dkFree(world, old.counts);
	return true;
}

void dkJointPairs_Add(dkWorld* world, int32_t a, int32_t b)
{
	dkJointPairs* p = world->jointPairs; // reserved by the caller
	insert(p, keyOf(a, b), 1);
	p->perSlot[a]++;
	p->perSlot[b]++;
	dkBroadphase_NoteItem(world, a); // the pair list may hold the pair: the items' pairs are found again
	dkBroadphase_NoteItem(world, b);
}

void dkJointPairs_Remove(dkWorld* world, int32_t a, int32_t b)
{
	dkJointPairs* p = world->jointPairs;
	int32_t i = find(p, keyOf(a, b));
	if (i < 0) return;
	p->perSlot[a]--;
	p->perSlot[b]--;
	dkBroadphase_NoteItem(world, a); // the items may touch again
	dkBroadphase_NoteItem(world, b);
	if (--p->counts[i] > 0) return;
	// Backward-shift deletion: later entries of the probe run move into the hole when their home is not
	// between the hole and themselves.
	int32_t mask = p->capacity - 1;
	for (int32_t j = (i + 1) & mask; p->keys[j] != DK_NO_PAIR; j = (j + 1) & mask) {
		int32_t k = home(p, p->keys[j]);
		if (((j - k) & mask) >= ((j - i) & mask)) {
			p->keys[i] = p->keys[j];
			p->counts[i] = p->counts[j];
			i = j;
		}
	}
	p->keys[i] = DK_NO_PAIR;
	p->used--;
}

bool dkJointPairs_Contains(const dkWorld* world, int32_t a, int32_t b) { return find(world->jointPairs, keyOf(a, b)) >= 0; }

bool dkJointPairs_HasSlot(const dkWorld* world, int32_t slot)
{
	const dkJointPairs* p = world->jointPairs;
	return p && slot >= 0 && slot < p->slotCapacity && p->perSlot[slot] > 0;
}

void dkJointPairs_Destroy(dkWorld* world)
{
	dkJointPairs* p = world->jointPairs;
	if (!p) return;
	dkFree(world, p->keys);
	dkFree(world, p->counts);
	dkFree(world, p->perSlot);
	dkFree(world, p);
	world->jointPairs = NULL;
}
