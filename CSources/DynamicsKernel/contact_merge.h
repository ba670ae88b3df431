// SPDX-License-Identifier: Apache-2.0
// Internal: the contact update's parts (contact.c runs the update; contact_merge.c merges this step's pairs
// with the list in ranges and settles each contact; contact_manifold.c computes or reuses a contact's
// manifold) and the reach tests they share.
#ifndef DK_CONTACT_MERGE_H
#define DK_CONTACT_MERGE_H

#include "collision.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>

static inline bool isTouching(const dkManifold* m)
{
	for (int32_t i = 0; i < m->count; ++i)
		if (m->points[i].separation < DK_SPECULATIVE_DISTANCE) return true;
	return false;
}

// The largest of the four gaps between two shapes' tight boxes: positive when the boxes do not meet.
static inline float boxGap(const float* aabb, int32_t a, int32_t b)
{
	const float *ba = aabb + 4 * a, *bb = aabb + 4 * b;
	float gap = ba[0] - bb[2];
	gap = bb[0] - ba[2] > gap ? bb[0] - ba[2] : gap;
	gap = ba[1] - bb[3] > gap ? ba[1] - bb[3] : gap;
	return bb[1] - ba[3] > gap ? bb[1] - ba[3] : gap;
}

// How far two shapes can close within the step, from their items' velocities (zero for a boundary):
// points are kept this far apart, so items falling side by side do not become contacts of each other.
static inline float pairReach(const dkWorld* world, int32_t a, int32_t b, float dt)
{
	const float *ma = world->motion + dkMotionFloats * a, *mb = world->motion + dkMotionFloats * b;
	float rvx = ma[dkMotionVx] - mb[dkMotionVx], rvy = ma[dkMotionVy] - mb[dkMotionVy];
	return DK_SPECULATIVE_DISTANCE + dt * sqrtf(rvx * rvx + rvy * rvy);
}

// Whether shapes a and b, whose tight boxes meet (`gap` ≤ 0), are still too far apart for a point within
// `reach`. The tight boxes reach out by each item's own 2 pt + |v|·dt, more than the pair can close
// (items falling side by side reach far and close nothing); boxes still apart once that excess is given
// back are farther apart than `reach`. The boxes are rounded to floats, so the excess given back is less
// their rounding: all of it 10¹³ pt out, where floats are 10⁶ pt apart.
static inline bool beyondReach(const dkWorld* world, int32_t a, int32_t b, float gap, float reach)
{
	const float *ba = world->aabb + 4 * a, *ma = world->motion + dkMotionFloats * a, *mb = world->motion + dkMotionFloats * b;
	float excess = -reach + ma[dkMotionReach] + mb[dkMotionReach];
	excess -= 4.0f * FLT_EPSILON * (fabsf(ba[0]) + fabsf(ba[1]) + fabsf(ba[2]) + fabsf(ba[3]));
	return gap + excess > 0;
}

// Whether shapes a and b have no point within `reach` of each other (from their tight boxes alone).
static inline bool outOfReach(const dkWorld* world, int32_t a, int32_t b, float reach)
{
	float gap = boxGap(world->aabb, a, b);
	return gap > 0 || beyondReach(world, a, b, gap, reach);
}

static inline int comparePair(int32_t a0, int32_t a1, int32_t b0, int32_t b1)
{
	if (a0 != b0) return a0 < b0 ? -1 : 1;
	return (a1 > b1) - (a1 < b1);
}

static inline bool bothAsleep(const dkWorld* world, const dkContact* c)
{
	int32_t bodies[2] = {c->bodyA, c->bodyB};
	for (int k = 0; k < 2; ++k) {
		if (bodies[k] < 0) continue;
		int32_t row = world->slots.data[bodies[k]].dense;
		if (row >= 0 && row < world->awake &&
			(world->col[dkColumnInverseMass][row] > 0.0f || (world->flags[row] & dkItemKinematic)))
			return false;
	}
	return true;
}

// A contact that enters the constraint graph (it gained points) or leaves it (it lost them, or ended), which
// the update applies after every range (contact.c): `colour` (with `sides`, bodyA and bodyB) is given back
// unless it is DK_GRAPH_NONE; `add`: the kept contact takes a colour. `kept` is the contact's place among the
// range's kept contacts (from the region's start), or -1 for one not kept; `place` its place in the colour
// given back (constraint_layout.h).
typedef struct dkColourChange {
	int32_t kept, bodyA, bodyB, place;
	uint8_t colour, sides;
	bool add;
} dkColourChange;
DK_ARRAY_TYPE(dkColourChange, dkColourChangeArray);
DK_ARRAY_FUNCTIONS(dkColourChange, dkColourChangeArray)

// A range of the contact update. In a merge: the pairs and old contacts whose first shape lies in a range
// of shape slots; its entries and the kept contacts go to their own regions of the entry and spare buffers
// (at most every pair, every old contact, and one ended entry per reused slot). In place: a stretch of the
// list. Either way ranges run on any worker; lists that must keep the list order (events, lost supports,
// possible wakes) are per range and joined in range order afterwards.
typedef struct dkMergeRange {
	int32_t pairBegin, pairEnd, contactBegin, contactEnd;
	int32_t restingBegin, restingEnd; // its resting contacts (a sorting merge's only)
	int32_t offset; // the range's region of the spare and entry buffers
	int32_t kept;	// entries kept, at the start of the region
	int32_t first;	// where they go in the next contact list
	int32_t withPoints; // kept contacts with manifold points
	int32_t end;	// the end of the region: a sorting merge keeps resting contacts from here down
	int32_t restKept, restFirst, restWithPoints; // how many, where they go, how many with points
	dkContactEventArray events;
	dkContactArray lost;	// ended contacts whose shapes went away, in order: their items wake
	dkInt32Array waking;	// kept entries (from the region's start) that may link islands or wake one
	dkColourChangeArray colourChanges; // contacts that enter or leave the constraint graph, in order
	bool ok; // false when a list could not grow
} dkMergeRange;
// An entry of a range's merge: an old contact, one of this step's pairs, or both, and what becomes of
// it. The merge lists its entries first (12 bytes each), then settles them, so the shapes of the entries
// ahead can be fetched while one is settled.
struct dkMergeEntry {
	int32_t pair, contact; // indices in the pair list and the old contacts (oldContact), -1 for none
	int32_t kind;
};
DK_ARRAY_FUNCTIONS(dkMergeEntry, dkMergeEntryArray)
enum { dkEntryCarry, dkEntryRest, dkEntryEnded, dkEntryEndedLost, dkEntryDropped, dkEntryUpdate };
// (dkEntryDropped: an old contact that ends without an event, not touching, whose colour goes back.)

#define DK_MERGE_RANGES 64
#define DK_MERGE_RANGE_SIZE 2048 // pairs and contacts per range, as a rule
#define DK_IN_PLACE_RANGE_SIZE 512 // contacts per range updated in place (2048 split the pyramid's 4:3)

typedef struct dkMergeTask {
	const dkWorld* world;
	dkMergeRange* ranges;
	dkContact* spare;
	dkMergeEntry* entries;
	dkContact* next; // the next contact list (the list itself, updated in place)
	dkContact* nextResting; // a sorting merge: the next resting contacts
	int32_t rangeCount;
	float dt;
	bool inPlace; // each range settles its part of the list where it is
	bool cover;	  // a merge keeps a contact for every pair, with or without points
	bool sorts;	  // a merge sets aside the contacts whose items all rest and takes back those that woke
	bool gather; // the second pass of a merge: kept entries into the next list
	atomic_int claim;
} dkMergeTask;

// Wakes the items of a contact that still exist (their support or partner went away).
void dkMerge_WakePartners(dkWorld* world, const dkContact* c);
// Whether a touching contact between an awake and a resting item wakes the resting one (contact_merge.c).
bool dkMerge_Wakes(const dkWorld* world, const dkContact* c, int32_t ra, int32_t rb, float dt);
// Frees the ranges' lists.
void dkMerge_FreeRanges(const dkWorld* world, dkMergeRange* ranges, int32_t count);
// The merge's task: each worker claims ranges (a dkMergeTask) and merges or gathers them.
void dkMerge_Task(void* context, int32_t worker);
// The first pair in pairs [b, e) whose first shape is at least `shape`, and the same for contacts.
int32_t dkMerge_FirstPair(const dkPair* pairs, int32_t b, int32_t e, int32_t shape);
int32_t dkMerge_FirstContact(const dkContact* contacts, int32_t b, int32_t e, int32_t shape);

#endif
