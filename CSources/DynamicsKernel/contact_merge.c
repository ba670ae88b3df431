// SPDX-License-Identifier: Apache-2.0
// Stage: the contact update's merge (contact.c says when it runs). In ranges of shape slots, on any worker,
// each range merges this step's pairs with its contacts (and, when the update sorts, the resting ones),
// settles each entry (its manifold, its touching state and event, whether it wakes a resting item) and
// lists what changes the world, which contact.c then applies in range order; a gather pass copies the kept
// contacts into the new list. Updated in place, a range settles its part of the list where it is.
#include "contact_merge.h"
#include "island.h"
#include "solver_set.h"
#include "team.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// The id of a shape's item, or null for a boundary (read when a contact is created).
static dkItemId itemId(const dkWorld* world, int32_t slot)
{
	int32_t body = world->shapes.data[slot].body;
	if (body < 0) return (dkItemId){0, 0};
	return (dkItemId){(uint32_t)body + 1, world->slots.data[body].generation};
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

// Whether both shape slots still hold the shapes the contact was made with.
static bool sameShapes(const dkWorld* world, const dkContact* c)
{
	const dkShape *a = &world->shapes.data[c->shapeA], *b = &world->shapes.data[c->shapeB];
	return a->alive && b->alive && a->generation == c->generationA && b->generation == c->generationB;
}

// Wakes the items of a contact that still exist (their support or partner went away).
void dkMerge_WakePartners(dkWorld* world, const dkContact* c)
{
	int32_t bodies[2] = {c->bodyA, c->bodyB};
	for (int k = 0; k < 2; ++k) {
		if (bodies[k] < 0) continue;
		int32_t row = world->slots.data[bodies[k]].dense;
		if (row >= 0 && world->slots.data[bodies[k]].generation == (k == 0 ? c->itemA : c->itemB).generation)
			dkSets_WakeRow(world, row);
	}
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

// Old contact k of a merge: the list's, then the resting contacts'.
static inline const dkContact* oldContact(const dkWorld* world, int32_t k)
{
	return k < world->contacts.count ? &world->contacts.data[k] : &world->restingContacts.data[k - world->contacts.count];
}

// Lists a range's entries: merges its sorted pairs with its sorted contacts (and, when it sorts, its
// resting contacts: no pair has a contact in both); returns their number. Unless every pair is to have its
// contact (`cover`), a new pair with no point within reach gets none. An old contact no pair reports stays
// as it was while its items all rest or do not move: among the resting contacts when the merge sorts, in
// the list otherwise.
static int32_t mergeRange(const dkWorld* world, const dkMergeRange* r, dkMergeEntry* entry, float dt, bool cover,
						  bool sorts)
{
	const dkContact *contacts = world->contacts.data, *resting = world->restingContacts.data;
	int32_t m = 0, i = r->pairBegin, j = r->contactBegin, q = r->restingBegin, cc = world->contacts.count;
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
		else order = comparePair(world->pairs.data[i].a, world->pairs.data[i].b, old->shapeA, old->shapeB);
		if (order >= 0) { // the old contact is taken
			if (k < cc) ++j;
			else ++q;
		}
		if (order > 0) {
			// An old contact the broadphase no longer reports.
			bool alive = sameShapes(world, old);
			if (alive && bothAsleep(world, old)) entry[m++] = (dkMergeEntry){-1, k, sorts ? dkEntryRest : dkEntryCarry};
			else if (old->touching) entry[m++] = (dkMergeEntry){-1, k, alive ? dkEntryEnded : dkEntryEndedLost};
			else if (old->colour != DK_GRAPH_NONE) entry[m++] = (dkMergeEntry){-1, k, dkEntryDropped};
			continue;
		}
		int32_t a = world->pairs.data[i].a, b = world->pairs.data[i].b;
		if (i + DK_MERGE_AHEAD < r->pairEnd) prefetchShape(&world->shapes.data[world->pairs.data[i + DK_MERGE_AHEAD].b]);
		if (order == 0) {
			if (old->generationA == world->shapes.data[a].generation && old->generationB == world->shapes.data[b].generation) {
				entry[m++] = (dkMergeEntry){i++, k, dkEntryUpdate};
				continue;
			}
			// a slot reused by a new shape: the old contact ends, a new one starts
			if (old->touching) entry[m++] = (dkMergeEntry){-1, k, dkEntryEnded};
			else if (old->colour != DK_GRAPH_NONE) entry[m++] = (dkMergeEntry){-1, k, dkEntryDropped};
		}
		if (cover || !outOfReach(world, a, b, pairReach(world, a, b, dt)))
			entry[m++] = (dkMergeEntry){i, -1, dkEntryUpdate}; // a new pair: its contact begins
		++i;
	}
	return m;
}

// A contact settled, kept at `kept` among the range's kept contacts (-1: not kept) or ended: whether it enters
// or leaves the constraint graph. It is in the graph exactly while it has points.
static void noteColour(const dkWorld* world, dkMergeRange* r, const dkContact* c, int32_t kept)
{
	bool has = kept >= 0 && c->manifold.count > 0, coloured = c->colour != DK_GRAPH_NONE;
	if (has == coloured) return;
	dkColourChange change = {.kept = kept, .bodyA = c->bodyA, .bodyB = c->bodyB, .place = c->place,
							 .colour = c->colour, .sides = c->colourSides, .add = has};
	r->ok = dkColourChangeArray_Push(world, &r->colourChanges, &change) && r->ok;
}

// An old contact ends: its ended event, and when its shapes went away, the items it touched wake.
static void endContact(const dkWorld* world, dkMergeRange* r, const dkContact* c, bool lost)
{
	noteColour(world, r, c, -1);
	dkContactEvent e;
	event(c, false, &e);
	r->ok = dkContactEventArray_Push(world, &r->events, &e) && r->ok;
	if (lost) r->ok = dkContactArray_Push(world, &r->lost, c) && r->ok;
}

// A new contact of shapes a and b.
static void newContact(const dkWorld* world, int32_t a, int32_t b, dkContact* c)
{
	memset(c, 0, sizeof *c);
	c->shapeA = a;
	c->shapeB = b;
	c->generationA = world->shapes.data[a].generation;
	c->generationB = world->shapes.data[b].generation;
	c->bodyA = world->shapes.data[a].body;
	c->bodyB = world->shapes.data[b].body;
	c->itemA = itemId(world, a);
	c->itemB = itemId(world, b);
	c->tagA = world->shapes.data[a].tag;
	c->tagB = world->shapes.data[b].tag;
	const dkShape *sa = &world->shapes.data[a], *sb = &world->shapes.data[b];
	c->extent = fmaxf(sa->extent, sb->extent);
	c->kinds = (sa->kind == dkGeometryCircle ? dkContactCircleA : 0u) | (sb->kind == dkGeometryCircle ? dkContactCircleB : 0u) |
			   (dkShape_CentredCircle(sa) ? dkContactCentredA : 0u) | (dkShape_CentredCircle(sb) ? dkContactCentredB : 0u);
	c->colour = DK_GRAPH_NONE;
	c->place = -1;
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
	if (dkContactEventArray_Push(world, &r->events, &e)) c->touching = touching;
	else r->ok = false;
}

// Whether a contact between two items may wake one (it has points and an item rests) or link their
// islands (it touches, and its items are not both awake in one island already).
static bool mayLink(const dkWorld* world, const dkContact* c)
{
	if (c->manifold.count == 0 || c->bodyA < 0 || c->bodyB < 0) return false;
	int32_t ra = world->slots.data[c->bodyA].dense, rb = world->slots.data[c->bodyB].dense;
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
bool dkMerge_Wakes(const dkWorld* world, const dkContact* c, int32_t ra, int32_t rb, float dt)
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
static inline void noteWaking(const dkWorld* world, dkMergeRange* r, const dkContact* c, int32_t k)
{
	r->withPoints += c->manifold.count > 0;
	if (mayLink(world, c)) r->ok = dkInt32Array_Push(world, &r->waking, &k) && r->ok;
}

static void listWaking(const dkWorld* world, dkMergeRange* r, const dkContact* work, int32_t n)
{
	r->withPoints = 0;
	for (int32_t k = 0; k < n; ++k) noteWaking(world, r, &work[k], k);
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
			prefetchShape(&world->shapes.data[world->pairs.data[entry[k + DK_MERGE_AHEAD].pair].b]);
		const dkMergeEntry* e = &entry[k];
		switch (e->kind) {
		case dkEntryCarry: work[n++] = *oldContact(world, e->contact); break;
		case dkEntryRest:
			rest[-nr] = *oldContact(world, e->contact);
			r->restWithPoints += rest[-nr++].manifold.count > 0;
			break;
		case dkEntryEnded: endContact(world, r, oldContact(world, e->contact), false); break;
		case dkEntryEndedLost: endContact(world, r, oldContact(world, e->contact), true); break;
		case dkEntryDropped: noteColour(world, r, oldContact(world, e->contact), -1); break;
		default: {
			if (e->contact >= 0) work[n] = *oldContact(world, e->contact);
			else newContact(world, world->pairs.data[e->pair].a, world->pairs.data[e->pair].b, &work[n]);
			settle(world, r, &work[n], dt);
			bool keep = cover || work[n].manifold.count > 0 || work[n].touching;
			noteColour(world, r, &work[n], keep ? n : -1);
			n += keep;
		}
		}
	}
	r->restKept = nr;
	listWaking(world, r, work, n);
}

// One range of an update in place (the pairs are last step's, each with its contact): the contacts of
// moving items settle where they are; resting ones stay as they were. Each is listed for waking while it is
// in cache (as listWaking would after the loop: neither reads what the loop writes of other contacts).
// Writes only the range's contacts and lists.
static void settleInPlace(const dkWorld* world, dkMergeRange* r, dkContact* contacts, float dt)
{
	int32_t b = r->contactBegin, e = r->contactEnd;
	r->withPoints = 0;
	for (int32_t k = b; k < e; ++k) {
		// Neither shape moves exactly when the pair list has no pair for them (dkCandidate).
		if (!bothAsleep(world, &contacts[k])) {
			settle(world, r, &contacts[k], dt);
			noteColour(world, r, &contacts[k], k - b);
		}
		noteWaking(world, r, &contacts[k], k - b);
	}
	r->kept = e - b;
}

void dkMerge_FreeRanges(const dkWorld* world, dkMergeRange* ranges, int32_t count)
{
	for (int32_t g = 0; g < count; ++g) {
		dkContactEventArray_Destroy(world, &ranges[g].events);
		dkContactArray_Destroy(world, &ranges[g].lost);
		dkInt32Array_Destroy(world, &ranges[g].waking);
		dkColourChangeArray_Destroy(world, &ranges[g].colourChanges);
	}
}

void dkMerge_Task(void* context, int32_t worker)
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
			r.events.count = r.lost.count = r.waking.count = r.colourChanges.count = 0;
			r.ok = true;
			if (t->inPlace) settleInPlace(t->world, &r, t->next, t->dt);
			else mergeAndSettle(t->world, &r, t->spare, t->entries, t->dt, t->cover, t->sorts);
			t->ranges[g] = r;
		}
	}
}

// The first index in [b, e) of the sorted pairs (or contacts) whose first shape is at least `shape`.
int32_t dkMerge_FirstPair(const dkPair* pairs, int32_t b, int32_t e, int32_t shape)
{
	while (b < e) {
		int32_t mid = b + (e - b) / 2;
		if (pairs[mid].a < shape) b = mid + 1;
		else e = mid;
	}
	return b;
}

int32_t dkMerge_FirstContact(const dkContact* contacts, int32_t b, int32_t e, int32_t shape)
{
	while (b < e) {
		int32_t mid = b + (e - b) / 2;
		if (contacts[mid].shapeA < shape) b = mid + 1;
		else e = mid;
	}
	return b;
}
