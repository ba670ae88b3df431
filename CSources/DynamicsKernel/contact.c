// SPDX-License-Identifier: Apache-2.0
// Contacts: the list of shape pairs near each other, sorted by (shapeA, shapeB), and beside it the contacts
// of items that all rest or do not move, set aside as they were. Each step gives every contact of a moving
// item its manifold, computed again (points inherit the previous step's impulses by feature id: warm
// starting) or reused while the pair moved little (recycle). Touching transitions become began/ended
// events, in list order; touching contacts link their items' islands (island.c), and resting islands
// touched by a moving item wake up.
//
// When the broadphase kept last step's pairs (nothing left its fat box, the common step of a settled
// scene) and the list holds a contact for every pair, each is updated in place, in ranges of the list on
// any number of workers. Otherwise this step's pairs are merged with the list: in ranges of shape slots,
// each range merges its pairs with its contacts, settles each entry, reading the world and writing only
// its own region and lists, and the kept entries are gathered into the new list. A merge keeps a contact
// for every pair, points or none, when last step kept its pairs (the next step may well update in place);
// otherwise only contacts with points, so scenes whose pairs change every step merge no more than needed.
// Which contacts are listed never changes what is solved: the solver, the chains and the islands read
// points and touching contacts only (a kernel check compares both ways bit for bit).
//
// In both cases what changes the world (events, waking) is then applied in range order, which is list
// order, so the result does not depend on the worker count.
//
// Resting contacts stay out of the list, so a step that moves other items neither copies nor visits them.
// Items rest, wake, come and go only where the pairs are found again in full (each clears pairsValid); the
// merge after that sorts: it reads the list and the resting contacts as one sorted list, and sets aside
// the contacts of a pair no longer reported whose items all rest (the resting ones taken back are those
// of items that woke). Items woken during the update itself (touched, or their support removed) take
// their resting contacts back at its end (takeBackWoken), so the step solves them.
#include "collision.h"
#include "team.h"
#include "island.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static bool rowOf(const dkWorld* world, const dkShape* s, int32_t* row)
{
	*row = s->body >= 0 ? world->slots[s->body].dense : -1;
	return *row >= 0;
}

// Makes room for `count` events in the step's list.
static bool reserveEvents(dkWorld* world, int32_t count)
{
	if (world->stepEventCapacity >= count) return true;
	int32_t cap = count + count / 2 > 64 ? count + count / 2 : 64;
	dkContactEvent* p = dkResize(world, world->stepEvents, 0, (size_t)cap * sizeof *p); // empty until the merge
	if (!p) return false;
	world->stepEvents = p;
	world->stepEventCapacity = cap;
	return true;
}

// The id of a shape's item, or null for a boundary (read when a contact is created).
static dkItemId itemId(const dkWorld* world, int32_t slot)
{
	int32_t body = world->shapes[slot].body;
	if (body < 0) return (dkItemId){0, 0};
	return (dkItemId){(uint32_t)body + 1, world->slots[body].generation};
}

// Events name the shapes, items and tags the contact was made with, even if those were removed since.
static void event(const dkContact* c, bool began, dkContactEvent* e)
{
	*e = (dkContactEvent){.shapeA = {(uint32_t)c->shapeA + 1, c->generationA},
						  .shapeB = {(uint32_t)c->shapeB + 1, c->generationB},
						  .itemA = c->itemA, .itemB = c->itemB, .tagA = c->tagA, .tagB = c->tagB, .began = began};
	if (began && c->manifold.count > 0) {
		e->x = c->originX + c->manifold.points[0].px;
		e->y = c->originY + c->manifold.points[0].py;
	}
}

static bool isTouching(const dkManifold* m)
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
	const float *ma = world->motion + 4 * a, *mb = world->motion + 4 * b;
	float rvx = ma[0] - mb[0], rvy = ma[1] - mb[1];
	return DK_SPECULATIVE_DISTANCE + dt * sqrtf(rvx * rvx + rvy * rvy);
}

// Whether shapes a and b, whose tight boxes meet (`gap` ≤ 0), are still too far apart for a point within
// `reach`. The tight boxes reach out by each item's own 2 pt + |v|·dt, more than the pair can close
// (items falling side by side reach far and close nothing); boxes still apart once that excess is given
// back are farther apart than `reach`. The boxes are rounded to floats, so the excess given back is less
// their rounding: all of it 10¹³ pt out, where floats are 10⁶ pt apart.
static inline bool beyondReach(const dkWorld* world, int32_t a, int32_t b, float gap, float reach)
{
	const float *ba = world->aabb + 4 * a, *ma = world->motion + 4 * a, *mb = world->motion + 4 * b;
	float excess = -reach + ma[2] + mb[2];
	excess -= 4.0f * FLT_EPSILON * (fabsf(ba[0]) + fabsf(ba[1]) + fabsf(ba[2]) + fabsf(ba[3]));
	return gap + excess > 0;
}

// Whether shapes a and b have no point within `reach` of each other (from their tight boxes alone).
static inline bool outOfReach(const dkWorld* world, int32_t a, int32_t b, float reach)
{
	float gap = boxGap(world->aabb, a, b);
	return gap > 0 || beyondReach(world, a, b, gap, reach);
}

// Reuses a contact's manifold when its items moved little since it was computed, the idea of Box2D v3's
// contact recycling (Erin Catto, physics_world.c, 2025), with a bound of our own. `pose` holds each
// shape's item pose now (x, y, cos, sin). The bound: B moved relative to A, in A's frame, by `moved` at most
// at any of its points (the distance its centre moved plus its reach times the turn). Points the manifold
// left out were more than DK_SPECULATIVE_DISTANCE apart when it was computed, so while `moved` plus how far
// the pair can close this step (`reach` less the speculative distance) stays under that distance, none of
// them can meet within the step. Neither item may have turned more than DK_RECYCLE_COS allows either. The
// normal turns with the item whose face it is and each point goes with the item whose vertex or circle it is
// (dkManifold.owners): kept on A while B's corner or a ball slid along A, a point would leave the line of the
// normal through the point of contact, and its impulses would turn a frictionless ball. The points keep
// their ids and impulses; each point's anchors turn with their items (a centred circle's with the normal:
// its point lies on the normal through its centre, wherever the circle turned), and its separation is the
// base separation plus how far the anchors moved apart along the normal. Returns false when the manifold
// must be computed again.
static bool recycle(const dkWorld* world, dkContact* c, const float pose[2][4], float reach)
{
	const float cA = pose[0][2], sA = pose[0][3], cB = pose[1][2], sB = pose[1][3];
	// Each item's turn since: the rotation now times the inverse of the cached one.
	float qAc = cA * c->cachedCosA + sA * c->cachedSinA, qAs = sA * c->cachedCosA - cA * c->cachedSinA;
	float qBc = cB * c->cachedCosB + sB * c->cachedSinB, qBs = sB * c->cachedCosB - cB * c->cachedSinB;
	if (qAc < DK_RECYCLE_COS || qBc < DK_RECYCLE_COS) return false;
	float dx = pose[1][0] - pose[0][0], dy = pose[1][1] - pose[0][1];
	// B's centre in A's frame, now and then.
	float tx = cA * dx + sA * dy, ty = cA * dy - sA * dx;
	float ux = c->cachedCosA * c->cachedDx + c->cachedSinA * c->cachedDy;
	float uy = c->cachedCosA * c->cachedDy - c->cachedSinA * c->cachedDx;
	// The sine of B's turn relative to A since then: qB times the inverse of qA. A point r from B's centre
	// moves 2·sin(φ/2)·r, under 1.01·|sin φ|·r for the turns DK_RECYCLE_COS allows.
	float turn = 1.01f * fabsf(qBs * qAc - qBc * qAs);
	float extent = fmaxf(world->shapes[c->shapeA].extent, world->shapes[c->shapeB].extent);
	float moved = sqrtf((tx - ux) * (tx - ux) + (ty - uy) * (ty - uy)) + extent * turn;
	if (!(moved + (reach - DK_SPECULATIVE_DISTANCE) < DK_SPECULATIVE_DISTANCE)) return false;
	int k0 = world->shapes[c->shapeA].body >= 0 ? 0 : 1; // the origin: A's centre, or B's for a boundary
	c->originX = pose[k0][0];
	c->originY = pose[k0][1];
	uint32_t owners = c->manifold.owners;
	float qNc = (owners & dkNormalOnB) ? qBc : qAc, qNs = (owners & dkNormalOnB) ? qBs : qAs;
	float nx = qNc * c->cachedNx - qNs * c->cachedNy, ny = qNs * c->cachedNx + qNc * c->cachedNy;
	c->manifold.nx = nx;
	c->manifold.ny = ny;
	if (dkShape_CentredCircle(&world->shapes[c->shapeA])) {
		qAc = qNc;
		qAs = qNs;
	}
	if (dkShape_CentredCircle(&world->shapes[c->shapeB])) {
		qBc = qNc;
		qBs = qNs;
	}
	for (int32_t i = 0; i < c->manifold.count; ++i) {
		dkManifoldPoint* p = &c->manifold.points[i];
		float ax = p->anchorX, ay = p->anchorY, bx = ax - c->cachedDx, by = ay - c->cachedDy;
		float rAx = qAc * ax - qAs * ay, rAy = qAs * ax + qAc * ay;
		float rBx = qBc * bx - qBs * by, rBy = qBs * bx + qBc * by;
		float px = dx + rBx - rAx, py = dy + rBy - rAy; // how far B's anchor moved from A's
		p->separation = p->baseSeparation + (px * nx + py * ny);
		bool onB = owners & (i == 0 ? dkPoint0OnB : dkPoint1OnB);
		p->px = onB ? (k0 == 0 ? dx + rBx : rBx) : (k0 == 0 ? rAx : rAx - dx);
		p->py = onB ? (k0 == 0 ? dy + rBy : rBy) : (k0 == 0 ? rAy : rAy - dy);
	}
	return true;
}

// Recomputes a contact's manifold at the current poses, keeping impulses of matching features, or reuses
// it (recycle).
void dkContact_UpdateManifold(const dkWorld* world, dkContact* c, float dt)
{
	float reach = pairReach(world, c->shapeA, c->shapeB, dt);
	if (outOfReach(world, c->shapeA, c->shapeB, reach)) {
		c->manifold.count = 0; // no point is within reach
		c->cached = false;
		return;
	}
	const dkShape *sa = &world->shapes[c->shapeA], *sb = &world->shapes[c->shapeB];
	float* const* col = world->col;
	float pose[2][4] = {{0, 0, 1, 0}, {0, 0, 1, 0}}; // x, y, cos, sin
	const dkShape* s[2] = {sa, sb};
	for (int k = 0; k < 2; ++k) {
		int32_t row;
		if (!rowOf(world, s[k], &row)) continue;
		pose[k][0] = col[dkColumnPositionX][row];
		pose[k][1] = col[dkColumnPositionY][row];
		pose[k][2] = col[dkColumnCos][row];
		pose[k][3] = col[dkColumnSin][row];
	}
	// Two circles are not reused: their normal runs through both centres, and computing it is cheap.
	bool circles = sa->kind == dkGeometryCircle && sb->kind == dkGeometryCircle;
	if (c->cached && !circles && recycle(world, c, pose, reach)) return;
	// The origin is an item's centre (a boundary has none), which keeps coordinates small.
	int k0 = sa->body >= 0 ? 0 : 1;
	c->originX = pose[k0][0];
	c->originY = pose[k0][1];
	dkPlaced pa, pb;
	dkPlaceShape(sa, pose[0][0], pose[0][1], pose[0][2], pose[0][3], c->originX, c->originY, &pa);
	dkPlaceShape(sb, pose[1][0], pose[1][1], pose[1][2], pose[1][3], c->originX, c->originY, &pb);
	dkManifold old = c->manifold;
	dkCollide(&pa, &pb, reach, &c->manifold);
	for (int32_t i = 0; i < c->manifold.count; ++i) {
		dkManifoldPoint* p = &c->manifold.points[i];
		for (int32_t j = 0; j < old.count; ++j) {
			if (old.points[j].id == p->id) {
				p->normalImpulse = old.points[j].normalImpulse;
				p->tangentImpulse = old.points[j].tangentImpulse;
			}
		}
		p->anchorX = k0 == 0 ? p->px : (c->originX + p->px) - pose[0][0];
		p->anchorY = k0 == 0 ? p->py : (c->originY + p->py) - pose[0][1];
		p->baseSeparation = p->separation;
	}
	c->cachedCosA = pose[0][2];
	c->cachedSinA = pose[0][3];
	c->cachedCosB = pose[1][2];
	c->cachedSinB = pose[1][3];
	c->cachedDx = pose[1][0] - pose[0][0];
	c->cachedDy = pose[1][1] - pose[0][1];
	c->cachedNx = c->manifold.nx;
	c->cachedNy = c->manifold.ny;
	c->cached = c->manifold.count > 0;
}

static int comparePair(int32_t a0, int32_t a1, int32_t b0, int32_t b1)
{
	if (a0 != b0) return a0 < b0 ? -1 : 1;
	return (a1 > b1) - (a1 < b1);
}

// Whether both shape slots still hold the shapes the contact was made with.
static bool sameShapes(const dkWorld* world, const dkContact* c)
{
	const dkShape *a = &world->shapes[c->shapeA], *b = &world->shapes[c->shapeB];
	return a->alive && b->alive && a->generation == c->generationA && b->generation == c->generationB;
}

// Wakes the items of a contact that still exist (their support or partner went away).
static void wakePartners(dkWorld* world, const dkContact* c)
{
	int32_t bodies[2] = {c->bodyA, c->bodyB};
	for (int k = 0; k < 2; ++k) {
		if (bodies[k] < 0) continue;
		int32_t row = world->slots[bodies[k]].dense;
		if (row >= 0 && world->slots[bodies[k]].generation == (k == 0 ? c->itemA : c->itemB).generation)
			dkIslands_WakeRow(world, row);
	}
}

static bool bothAsleep(const dkWorld* world, const dkContact* c)
{
	int32_t bodies[2] = {c->bodyA, c->bodyB};
	for (int k = 0; k < 2; ++k) {
		if (bodies[k] < 0) continue;
		int32_t row = world->slots[bodies[k]].dense;
		if (row >= 0 && row < world->awake && world->col[dkColumnInverseMass][row] > 0.0f) return false;
	}
	return true;
}

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
	dkContactEvent* events;
	int32_t eventCount, eventCapacity;
	dkContact* lost; // ended contacts whose shapes went away, in order: their items wake
	int32_t lostCount, lostCapacity;
	int32_t* waking; // kept entries (from the region's start) that may link islands or wake one
	int32_t wakingCount, wakingCapacity;
	bool ok; // false when a list could not grow
} dkMergeRange;

#define DK_MERGE_RANGES 64
#define DK_MERGE_RANGE_SIZE 2048 // pairs and contacts per range, as a rule
#define DK_IN_PLACE_RANGE_SIZE 512 // contacts per range updated in place (2048 split the pyramid's 4:3)

// Appends one element to a per-range list; false when out of memory.
static bool append(const dkWorld* world, void** list, int32_t* count, int32_t* capacity, const void* element,
				   size_t size)
{
	if (*count == *capacity) {
		int32_t cap = *capacity > 0 ? *capacity * 2 : 16;
		void* grown = dkResize(world, *list, (size_t)*capacity * size, (size_t)cap * size);
		if (!grown) return false;
		*list = grown;
		*capacity = cap;
	}
	memcpy((char*)*list + (size_t)*count * size, element, size);
	++*count;
	return true;
}

// The merge walks the pairs in order of their first shape, but their second shapes lie anywhere in the
// shape array (30 MB for 100 000 boxes), and waiting for them was most of the merge's time. Both passes
// over a range ask for the second shape this many pairs (or entries) ahead.
#define DK_MERGE_AHEAD 4

static inline void prefetchShape(const dkShape* s)
{
	const char* p = (const char*)s;
	for (size_t o = 0; o < sizeof *s; o += 64) __builtin_prefetch(p + o);
}

// An entry of a range's merge: an old contact, one of this step's pairs, or both, and what becomes of
// it. The merge lists its entries first (12 bytes each), then settles them, so the shapes of the entries
// ahead can be fetched while one is settled.
struct dkMergeEntry {
	int32_t pair, contact; // indices in the pair list and the old contacts (oldContact), -1 for none
	int32_t kind;
};
enum { dkEntryCarry, dkEntryRest, dkEntryEnded, dkEntryEndedLost, dkEntryUpdate };

// Old contact k of a merge: the list's, then the resting contacts'.
static inline const dkContact* oldContact(const dkWorld* world, int32_t k)
{
	return k < world->contactCount ? &world->contacts[k] : &world->restingContacts[k - world->contactCount];
}

// Lists a range's entries: merges its sorted pairs with its sorted contacts (and, when it sorts, its
// resting contacts: no pair has a contact in both); returns their number. Unless every pair is to have its
// contact (`cover`), a new pair with no point within reach gets none. An old contact no pair reports stays
// as it was while its items all rest or do not move: among the resting contacts when the merge sorts, in
// the list otherwise.
static int32_t mergeRange(const dkWorld* world, const dkMergeRange* r, dkMergeEntry* entry, float dt, bool cover,
						  bool sorts)
{
	const dkContact *contacts = world->contacts, *resting = world->restingContacts;
	int32_t m = 0, i = r->pairBegin, j = r->contactBegin, q = r->restingBegin, cc = world->contactCount;
	while (i < r->pairEnd || j < r->contactEnd || q < r->restingEnd) {
		// The next old contact: the list's or the resting one, whichever comes first.
		int32_t k = -1;
		if (j < r->contactEnd && (q == r->restingEnd || comparePair(contacts[j].shapeA, contacts[j].shapeB,
																	resting[q].shapeA, resting[q].shapeB) < 0))
			k = j;
		else if (q < r->restingEnd) k = cc + q;
		const dkContact* old = k >= 0 ? oldContact(world, k) : NULL;
		int order;
		if (i == r->pairEnd) order = 1;
		else if (!old) order = -1;
		else order = comparePair(world->pairs[2 * i], world->pairs[2 * i + 1], old->shapeA, old->shapeB);
		if (order >= 0) { // the old contact is taken
			if (k < cc) ++j;
			else ++q;
		}
		if (order > 0) {
			// An old contact the broadphase no longer reports.
			bool alive = sameShapes(world, old);
			if (alive && bothAsleep(world, old)) entry[m++] = (dkMergeEntry){-1, k, sorts ? dkEntryRest : dkEntryCarry};
			else if (old->touching) entry[m++] = (dkMergeEntry){-1, k, alive ? dkEntryEnded : dkEntryEndedLost};
			continue;
		}
		int32_t a = world->pairs[2 * i], b = world->pairs[2 * i + 1];
		if (i + DK_MERGE_AHEAD < r->pairEnd) prefetchShape(&world->shapes[world->pairs[2 * (i + DK_MERGE_AHEAD) + 1]]);
		if (order == 0) {
			if (old->generationA == world->shapes[a].generation && old->generationB == world->shapes[b].generation) {
				entry[m++] = (dkMergeEntry){i++, k, dkEntryUpdate};
				continue;
			}
			// a slot reused by a new shape: the old contact ends, a new one starts
			if (old->touching) entry[m++] = (dkMergeEntry){-1, k, dkEntryEnded};
		}
		if (cover || !outOfReach(world, a, b, pairReach(world, a, b, dt)))
			entry[m++] = (dkMergeEntry){i, -1, dkEntryUpdate}; // a new pair: its contact begins
		++i;
	}
	return m;
}

// An old contact ends: its ended event, and when its shapes went away, the items it touched wake.
static void endContact(const dkWorld* world, dkMergeRange* r, const dkContact* c, bool lost)
{
	dkContactEvent e;
	event(c, false, &e);
	r->ok = append(world, (void**)&r->events, &r->eventCount, &r->eventCapacity, &e, sizeof e) && r->ok;
	if (lost) r->ok = append(world, (void**)&r->lost, &r->lostCount, &r->lostCapacity, c, sizeof *c) && r->ok;
}

// A new contact of shapes a and b.
static void newContact(const dkWorld* world, int32_t a, int32_t b, dkContact* c)
{
	memset(c, 0, sizeof *c);
	c->shapeA = a;
	c->shapeB = b;
	c->generationA = world->shapes[a].generation;
	c->generationB = world->shapes[b].generation;
	c->bodyA = world->shapes[a].body;
	c->bodyB = world->shapes[b].body;
	c->itemA = itemId(world, a);
	c->itemB = itemId(world, b);
	c->tagA = world->shapes[a].tag;
	c->tagB = world->shapes[b].tag;
}

// A contact of this step's pairs (`touching` still last step's): its manifold and its began or ended event.
// Without memory for the event, `touching` stays as it was, so the next step finds the change again.
static void settle(const dkWorld* world, dkMergeRange* r, dkContact* c, float dt)
{
	dkContact_UpdateManifold(world, c, dt);
	bool touching = isTouching(&c->manifold);
	if (touching == c->touching) return;
	dkContactEvent e;
	event(c, touching, &e);
	if (append(world, (void**)&r->events, &r->eventCount, &r->eventCapacity, &e, sizeof e)) c->touching = touching;
	else r->ok = false;
}

// Whether a contact between two items may wake one (it has points and an item rests) or link their
// islands (it touches, and its items are not both awake in one island already).
static bool mayLink(const dkWorld* world, const dkContact* c)
{
	if (c->manifold.count == 0 || c->bodyA < 0 || c->bodyB < 0) return false;
	int32_t ra = world->slots[c->bodyA].dense, rb = world->slots[c->bodyB].dense;
	if (ra < 0 || rb < 0) return false;
	if (ra >= world->awake || rb >= world->awake) return true;
	if (!c->touching) return false;
	int32_t ia = world->islandOf[c->bodyA];
	return ia < 0 || ia != world->islandOf[c->bodyB];
}

// Whether an awake item wakes the resting one of a contact: touching, when A's point moves relative to B's
// (at the contact's first point) faster than restSpeed; about to touch (a point within reach, farther than
// the speculative distance), when they close faster than restSpeed and fast enough to touch within the
// step. (Without the second rule a fast item stopped at the speculative distance, as at an anchored item,
// and touched at no speed at all: a resting wall stopped a thrown ball dead.)
static bool wakes(const dkWorld* world, const dkContact* c, int32_t ra, int32_t rb, float dt)
{
	float* const* col = world->col;
	float px = c->originX + (c->manifold.count > 0 ? c->manifold.points[0].px : 0.0f);
	float py = c->originY + (c->manifold.count > 0 ? c->manifold.points[0].py : 0.0f);
	float v[2][2];
	int32_t rows[2] = {ra, rb};
	for (int k = 0; k < 2; ++k) {
		int32_t r = rows[k];
		float w = col[dkColumnAngularVelocity][r];
		v[k][0] = col[dkColumnVelocityX][r] - w * (py - col[dkColumnPositionY][r]);
		v[k][1] = col[dkColumnVelocityY][r] + w * (px - col[dkColumnPositionX][r]);
	}
	float dx = v[0][0] - v[1][0], dy = v[0][1] - v[1][1], limit = world->def.restSpeed;
	if (c->touching) return dx * dx + dy * dy > limit * limit;
	float closing = dx * c->manifold.nx + dy * c->manifold.ny, nearest = INFINITY;
	for (int32_t i = 0; i < c->manifold.count; ++i) nearest = fminf(nearest, c->manifold.points[i].separation);
	return closing > limit && closing * dt >= nearest - DK_SPECULATIVE_DISTANCE;
}

// Lists the kept contacts, `n` from `work`, that may link islands or wake a resting item (by their index
// from `work`), and counts those with points. Waking and linking only ever add awake items and join
// islands, so contacts whose items are both awake in one island now stay so.
static void listWaking(const dkWorld* world, dkMergeRange* r, const dkContact* work, int32_t n)
{
	r->withPoints = 0;
	for (int32_t k = 0; k < n; ++k) {
		r->withPoints += work[k].manifold.count > 0;
		if (mayLink(world, &work[k]))
			r->ok = append(world, (void**)&r->waking, &r->wakingCount, &r->wakingCapacity, &k, sizeof k) && r->ok;
	}
	r->kept = n;
}

// One range of a merge: lists its entries, then settles them in list order (manifolds, events, lost
// supports), writing the kept ones to the start of its region and the resting ones (a sorting merge) down
// from its end. Each old contact and each pair gives at most one of either, so they never meet. Reads the
// world and writes only the range's region and lists; what changes the world (events, waking) is applied
// after all ranges.
static void mergeAndSettle(const dkWorld* world, dkMergeRange* r, dkContact* spare, dkMergeEntry* entries, float dt,
						   bool cover, bool sorts)
{
	dkContact *work = spare + r->offset, *rest = spare + r->end - 1; // rest[-k]: the k-th resting contact
	dkMergeEntry* entry = entries + r->offset;
	int32_t m = mergeRange(world, r, entry, dt, cover, sorts), n = 0, nr = 0;
	r->restWithPoints = 0;
	for (int32_t k = 0; k < m; ++k) {
		if (k + DK_MERGE_AHEAD < m && entry[k + DK_MERGE_AHEAD].pair >= 0)
			prefetchShape(&world->shapes[world->pairs[2 * entry[k + DK_MERGE_AHEAD].pair + 1]]);
		const dkMergeEntry* e = &entry[k];
		switch (e->kind) {
		case dkEntryCarry: work[n++] = *oldContact(world, e->contact); break;
		case dkEntryRest:
			rest[-nr] = *oldContact(world, e->contact);
			r->restWithPoints += rest[-nr++].manifold.count > 0;
			break;
		case dkEntryEnded: endContact(world, r, oldContact(world, e->contact), false); break;
		case dkEntryEndedLost: endContact(world, r, oldContact(world, e->contact), true); break;
		default:
			if (e->contact >= 0) work[n] = *oldContact(world, e->contact);
			else newContact(world, world->pairs[2 * e->pair], world->pairs[2 * e->pair + 1], &work[n]);
			settle(world, r, &work[n], dt);
			n += cover || work[n].manifold.count > 0 || work[n].touching;
		}
	}
	r->restKept = nr;
	listWaking(world, r, work, n);
}

// One range of an update in place (the pairs are last step's, each with its contact): the contacts of
// moving items settle where they are; resting ones stay as they were. Writes only the range's contacts
// and lists.
static void settleInPlace(const dkWorld* world, dkMergeRange* r, dkContact* contacts, float dt)
{
	int32_t b = r->contactBegin, e = r->contactEnd;
	for (int32_t k = b; k < e; ++k) {
		if (k + DK_MERGE_AHEAD < e) prefetchShape(&world->shapes[contacts[k + DK_MERGE_AHEAD].shapeB]);
		// Neither shape moves exactly when the pair list has no pair for them (dkCandidate).
		if (!bothAsleep(world, &contacts[k])) settle(world, r, &contacts[k], dt);
	}
	listWaking(world, r, contacts + b, e - b);
}

static void freeRanges(const dkWorld* world, dkMergeRange* ranges, int32_t count)
{
	for (int32_t g = 0; g < count; ++g) {
		dkFree(world, ranges[g].events);
		dkFree(world, ranges[g].lost);
		dkFree(world, ranges[g].waking);
	}
}

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

static void mergeTask(void* context, int32_t worker)
{
	(void)worker;
	dkMergeTask* t = context;
	for (;;) {
		int32_t g = atomic_fetch_add(&t->claim, 1);
		if (g >= t->rangeCount) return;
		if (t->gather) {
			const dkMergeRange* r = &t->ranges[g];
			memcpy(t->next + r->first, t->spare + r->offset, (size_t)r->kept * sizeof(dkContact));
			for (int32_t k = 0; k < r->restKept; ++k) t->nextResting[r->restFirst + k] = t->spare[r->end - 1 - k];
		} else { // into a copy: neighbouring ranges share cache lines
			dkMergeRange r = t->ranges[g];
			r.eventCount = r.lostCount = r.wakingCount = 0;
			r.ok = true;
			if (t->inPlace) settleInPlace(t->world, &r, t->next, t->dt);
			else mergeAndSettle(t->world, &r, t->spare, t->entries, t->dt, t->cover, t->sorts);
			t->ranges[g] = r;
		}
	}
}

// The first index in [b, e) of the sorted pairs (or contacts) whose first shape is at least `shape`.
static int32_t firstPair(const int32_t* pairs, int32_t b, int32_t e, int32_t shape)
{
	while (b < e) {
		int32_t mid = b + (e - b) / 2;
		if (pairs[2 * mid] < shape) b = mid + 1;
		else e = mid;
	}
	return b;
}

static int32_t firstContact(const dkContact* contacts, int32_t b, int32_t e, int32_t shape)
{
	while (b < e) {
		int32_t mid = b + (e - b) / 2;
		if (contacts[mid].shapeA < shape) b = mid + 1;
		else e = mid;
	}
	return b;
}

static bool reserveContacts(const dkWorld* world, dkContact** list, int32_t* capacity, int32_t need)
{
	if (*capacity >= need) return true;
	int32_t grown = need + need / 2;
	dkContact* p = dkResize(world, *list, (size_t)*capacity * sizeof(dkContact), (size_t)grown * sizeof(dkContact));
	if (!p) return false;
	*list = p;
	*capacity = grown;
	return true;
}

// Splits a merge of np pairs with the list and rc resting contacts into ranges of shape slots, at the
// first shapes of evenly spaced pairs (or contacts, or resting contacts, whichever are most); returns their
// number.
static int32_t mergeRanges(const dkWorld* world, int32_t np, int32_t rc, dkMergeRange* ranges)
{
	int32_t cc = world->contactCount, rangeCount = (np + cc + rc) / DK_MERGE_RANGE_SIZE;
	rangeCount = rangeCount < 1 ? 1 : rangeCount > DK_MERGE_RANGES ? DK_MERGE_RANGES : rangeCount;
	for (int32_t g = 0; g < rangeCount; ++g) {
		dkMergeRange* r = &ranges[g];
		if (g > 0) {
			int32_t split = np >= cc && np >= rc ? world->pairs[2 * (int32_t)((int64_t)np * g / rangeCount)]
							: cc >= rc			  ? world->contacts[(int64_t)cc * g / rangeCount].shapeA
												  : world->restingContacts[(int64_t)rc * g / rangeCount].shapeA;
			r->pairBegin = firstPair(world->pairs, ranges[g - 1].pairBegin, np, split);
			r->contactBegin = firstContact(world->contacts, ranges[g - 1].contactBegin, cc, split);
			r->restingBegin = firstContact(world->restingContacts, ranges[g - 1].restingBegin, rc, split);
			ranges[g - 1].pairEnd = r->pairBegin;
			ranges[g - 1].contactEnd = r->contactBegin;
			ranges[g - 1].restingEnd = r->restingBegin;
		}
		r->offset = r->pairBegin + 2 * (r->contactBegin + r->restingBegin);
		if (g > 0) ranges[g - 1].end = r->offset;
	}
	ranges[rangeCount - 1].pairEnd = np;
	ranges[rangeCount - 1].contactEnd = cc;
	ranges[rangeCount - 1].restingEnd = rc;
	ranges[rangeCount - 1].end = np + 2 * (cc + rc);
	return rangeCount;
}

// Splits an update in place into even ranges of the contact list; returns their number.
static int32_t inPlaceRanges(const dkWorld* world, dkMergeRange* ranges)
{
	int32_t cc = world->contactCount, rangeCount = cc / DK_IN_PLACE_RANGE_SIZE;
	rangeCount = rangeCount < 1 ? 1 : rangeCount > DK_MERGE_RANGES ? DK_MERGE_RANGES : rangeCount;
	for (int32_t g = 0; g < rangeCount; ++g) {
		ranges[g].contactBegin = (int32_t)((int64_t)cc * g / rangeCount);
		ranges[g].contactEnd = (int32_t)((int64_t)cc * (g + 1) / rangeCount);
	}
	return rangeCount;
}

// Makes room for a merge of np pairs with the list and rc resting contacts: the kept entries (at most every
// pair, every contact, and one ended entry per reused slot) and the merge entries.
static bool reserveMerge(dkWorld* world, int32_t np, int32_t rc)
{
	int32_t cap = np + 2 * (world->contactCount + rc) + 1;
	if (!reserveContacts(world, &world->spareContacts, &world->spareCapacity, cap) ||
		!reserveContacts(world, &world->contacts, &world->contactCapacity, cap))
		return false;
	if (world->mergeEntryCapacity < cap) {
		int32_t grown = cap + cap / 2;
		dkMergeEntry* entries = dkResize(world, world->mergeEntries, (size_t)world->mergeEntryCapacity * sizeof *entries, (size_t)grown * sizeof *entries);
		if (!entries) return false;
		world->mergeEntries = entries;
		world->mergeEntryCapacity = grown;
	}
	return true;
}

// After this update woke items (lost supports, touches), the resting contacts of an item that now moves
// join the list, in order, so this step solves them (a pile woken by a drop holds from its first step, as
// it did when the list carried them). The list and these go into the spare buffer, which the update made
// room for before it changed anything, and the buffers swap.
static void takeBackWoken(dkWorld* world)
{
	const dkContact* list = world->contacts;
	dkContact *resting = world->restingContacts, *out = world->spareContacts;
	int32_t n = world->contactCount, i = 0, m = 0, kept = 0;
	for (int32_t q = 0; q < world->restingContactCount; ++q) {
		const dkContact* c = &resting[q];
		if (bothAsleep(world, c)) {
			if (kept != q) resting[kept] = *c;
			++kept;
			continue;
		}
		while (i < n && comparePair(list[i].shapeA, list[i].shapeB, c->shapeA, c->shapeB) < 0) out[m++] = list[i++];
		world->restingWithPoints -= c->manifold.count > 0;
		out[m++] = *c;
	}
	while (i < n) out[m++] = list[i++];
	world->restingContactCount = kept;
	world->spareContacts = world->contacts;
	world->contacts = out;
	int32_t capacity = world->spareCapacity;
	world->spareCapacity = world->contactCapacity;
	world->contactCapacity = capacity;
	world->contactCount = m;
}

bool dkContacts_Update(dkWorld* world, float dt, int32_t substeps)
{
	world->stepEventCount = 0;
	double t0 = world->clockNs, j0 = world->jobNs; // the step's start

	bool settled = world->pairsReused; // last step kept its pairs
	// Items rested, woke, came or went since the pairs were last found (each clears pairsValid): the merge
	// sorts the old contacts anew into the list and the resting ones. Between such steps no item rests or
	// wakes, and the resting contacts stay aside.
	bool sorts = !world->pairsValid;
	int32_t np = dkBroadphase_Pairs(world, dt, false);
	double t1 = dkNowNs(), j1 = world->jobNs;
	world->profile.broadphase = t1 - t0;
	world->profile.broadphaseSerial = world->profile.broadphase - (j1 - j0);
	if (np < 0) return false; // out of memory: keep last step's contacts rather than lose or duplicate some
	// Last step's pairs, each with its contact: the list is updated where it is. Otherwise the merge
	// settles into the spare buffer, and the list's own buffer, read by the merge, then receives the kept
	// contacts. Both buffers persist across steps. A merge gives every pair its contact when the pairs
	// may well be kept next step (they were last step); while they change every step (an item flying
	// through, a scene in motion), only pairs with points get one, which keeps the merge small.
	bool inPlace = world->pairsReused && world->contactsCoverPairs, cover = settled;
	sorts = sorts && !inPlace; // (kept pairs were valid: never both)
	int32_t rc = sorts ? world->restingContactCount : 0, awakeBefore = world->awake;
	if (!inPlace && !reserveMerge(world, np, rc)) return false; // out of memory: keep last step's contacts
	if (!reserveContacts(world, &world->spareContacts, &world->spareCapacity,
						 np + world->contactCount + world->restingContactCount + 1)) // takeBackWoken
		return false;
	dkMergeRange ranges[DK_MERGE_RANGES];
	memset(ranges, 0, sizeof ranges);
	int32_t rangeCount = inPlace ? inPlaceRanges(world, ranges) : mergeRanges(world, np, rc, ranges);
	dkMergeTask task = {.world = world, .ranges = ranges, .spare = world->spareContacts, .entries = world->mergeEntries,
						.next = world->contacts, .rangeCount = rangeCount, .dt = dt, .inPlace = inPlace,
						.cover = cover, .sorts = sorts};
	atomic_init(&task.claim, 0);
	int32_t workers = rangeCount > 1 ? world->def.workerCount : 1;
	dkRunTasks(world, mergeTask, &task, workers);
	bool ok = true;
	int32_t events = 0, restKept = 0, kept = 0;
	for (int32_t g = 0; g < rangeCount; ++g) {
		ok = ok && ranges[g].ok;
		events += ranges[g].eventCount;
		ranges[g].restFirst = restKept;
		restKept += ranges[g].restKept;
		kept += ranges[g].kept;
	}
	// The last point where the update may fail: what the rest of the step needs is reserved here, and from
	// here on the world changes.
	if (!ok || !reserveEvents(world, events) ||
		(sorts && !reserveContacts(world, &world->restingContacts, &world->restingContactCapacity, restKept)) ||
		!dkSolver_ReserveScratch(world, kept + (sorts ? restKept : world->restingContactCount), substeps)) {
		// Out of memory: a merge keeps last step's list; in place, the manifolds are this step's but every
		// contact still touches as it did (settle), and the next step merges again.
		if (inPlace) world->contactsCoverPairs = false;
		freeRanges(world, ranges, rangeCount);
		return false;
	}
	// In list order: events, lost supports wake their items, and the kept entries become the contact list.
	int32_t n = 0, withPoints = 0, restWithPoints = 0;
	for (int32_t g = 0; g < rangeCount; ++g) {
		dkMergeRange* r = &ranges[g];
		if (r->eventCount > 0)
			memcpy(world->stepEvents + world->stepEventCount, r->events, (size_t)r->eventCount * sizeof(dkContactEvent));
		world->stepEventCount += r->eventCount;
		for (int32_t k = 0; k < r->eventCount; ++k) // a link lost: the island may have come apart
			if (!r->events[k].began && r->events[k].itemA.index1 && r->events[k].itemB.index1)
				dkIslands_Unlinked(world, (int32_t)r->events[k].itemA.index1 - 1, (int32_t)r->events[k].itemB.index1 - 1);
		for (int32_t k = 0; k < r->lostCount; ++k) wakePartners(world, &r->lost[k]);
		r->first = n;
		n += r->kept;
		withPoints += r->withPoints;
		restWithPoints += r->restWithPoints;
	}
	if (!inPlace) {
		task.gather = true;
		task.nextResting = world->restingContacts;
		atomic_store(&task.claim, 0);
		dkRunTasks(world, mergeTask, &task, workers);
		world->contactCount = n;
	}
	if (sorts) {
		world->restingContactCount = restKept;
		world->restingWithPoints = restWithPoints;
	}
	world->manifoldCount = withPoints + world->restingWithPoints;
	world->contactsCoverPairs = inPlace || cover;

	// In list order, touching contacts between moving items link their islands (island.c). A resting item
	// touched by an awake one faster than restSpeed (or about to be: wakes) wakes with its island first
	// (which may let it wake the next); touched slower, it stays at rest and the awake item leans on it as
	// on an anchored one.
	for (int32_t g = 0; g < rangeCount; ++g) {
		dkMergeRange* r = &ranges[g];
		for (int32_t w = 0; w < r->wakingCount; ++w) {
			const dkContact* c = &world->contacts[r->first + r->waking[w]];
			int32_t ra = world->slots[c->bodyA].dense, rb = world->slots[c->bodyB].dense;
			if (!dkIslands_Moves(world, ra) || !dkIslands_Moves(world, rb)) continue;
			bool awakeA = ra < world->awake, awakeB = rb < world->awake;
			if (!awakeA && !awakeB) continue;
			if (awakeA != awakeB) {
				if (!wakes(world, c, ra, rb, dt)) continue;
				dkIslands_WakeRow(world, awakeA ? rb : ra);
			}
			if (c->touching) dkIslands_Link(world, c->bodyA, c->bodyB);
		}
	}
	freeRanges(world, ranges, rangeCount);
	if (world->awake > awakeBefore && world->restingContactCount > 0) takeBackWoken(world);
	world->clockNs = dkNowNs();
	world->profile.narrowphase = world->clockNs - t1;
	world->profile.narrowphaseSerial = world->profile.narrowphase - (world->jobNs - j1);
	return true;
}

void dkContacts_Destroy(dkWorld* world)
{
	dkFree(world, world->contacts);
	dkFree(world, world->spareContacts);
	dkFree(world, world->restingContacts);
	dkFree(world, world->mergeEntries);
	dkFree(world, world->events);
	dkFree(world, world->stepEvents);
	dkFree(world, world->pairs);
	dkFree(world, world->aabb);
	dkFree(world, world->fatAabb);
	dkFree(world, world->motion);
	dkPairGrid_Destroy(world, world->grid);
	dkPairGrid_Destroy(world, world->stillGrid);
	dkBroadphase_Destroy(world, world->broadphase);
}

const dkContactEvent* dkWorld_ContactEvents(const dkWorld* world, int32_t* count)
{
	*count = world->eventCount;
	return world->events;
}

int32_t dkWorld_ContactCount(const dkWorld* world) { return world->manifoldCount; }
