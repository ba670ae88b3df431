// Contacts: the persistent list of shape pairs near each other, sorted by (shapeA, shapeB). Each step
// merges the broadphase pairs into it. Each pair gets a fresh manifold whose points inherit the previous
// step's impulses by feature id (warm starting). Touching transitions become began/ended events, in list
// order, and resting items touched by an awake item wake up.
#include "collision.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static bool rowOf(const dkWorld* world, const dkShape* s, int32_t* row)
{
	*row = s->body >= 0 ? world->slots[s->body].dense : -1;
	return *row >= 0;
}

static bool pushEvent(dkWorld* world, dkContactEvent e)
{
	if (world->eventCount == world->eventCapacity) {
		int32_t cap = world->eventCapacity > 0 ? world->eventCapacity * 2 : 64;
		dkContactEvent* p = realloc(world->events, (size_t)cap * sizeof *p);
		if (!p) return false;
		world->events = p;
		world->eventCapacity = cap;
	}
	world->events[world->eventCount++] = e;
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
static void emit(dkWorld* world, const dkContact* c, bool began)
{
	dkContactEvent e = {.shapeA = {(uint32_t)c->shapeA + 1, c->generationA},
						.shapeB = {(uint32_t)c->shapeB + 1, c->generationB},
						.itemA = c->itemA, .itemB = c->itemB, .tagA = c->tagA, .tagB = c->tagB, .began = began};
	if (began && c->manifold.count > 0) {
		e.x = c->originX + c->manifold.points[0].px;
		e.y = c->originY + c->manifold.points[0].py;
	}
	pushEvent(world, e);
}

static bool isTouching(const dkManifold* m)
{
	for (int32_t i = 0; i < m->count; ++i)
		if (m->points[i].separation < DK_SPECULATIVE_DISTANCE) return true;
	return false;
}

// Recomputes a contact's manifold at the current poses, keeping impulses of matching features.
static void updateManifold(dkWorld* world, dkContact* c, float dt)
{
	const dkShape *sa = &world->shapes[c->shapeA], *sb = &world->shapes[c->shapeB];
	float** col = world->col;
	float pose[2][4] = {{0, 0, 1, 0}, {0, 0, 1, 0}}; // x, y, cos, sin
	float velocity[2][2] = {{0, 0}, {0, 0}};
	const dkShape* s[2] = {sa, sb};
	for (int k = 0; k < 2; ++k) {
		int32_t row;
		if (!rowOf(world, s[k], &row)) continue;
		pose[k][0] = col[dkColumnPositionX][row];
		pose[k][1] = col[dkColumnPositionY][row];
		pose[k][2] = col[dkColumnCos][row];
		pose[k][3] = col[dkColumnSin][row];
		velocity[k][0] = col[dkColumnVelocityX][row];
		velocity[k][1] = col[dkColumnVelocityY][row];
	}
	// Points are kept as far apart as the two can close within the step: the relative speed, so items
	// falling side by side do not become contacts of each other.
	float rvx = velocity[0][0] - velocity[1][0], rvy = velocity[0][1] - velocity[1][1];
	float speed = sqrtf(rvx * rvx + rvy * rvy);
	// This step's tight boxes include each item's speculative reach (2 pt + |v|·dt, at least the pair's
	// 2 pt + |vA − vB|·dt): if they do not meet, no point is close enough and the manifold is empty.
	const float *ba = world->aabb + 4 * c->shapeA, *bb = world->aabb + 4 * c->shapeB;
	if (ba[0] > bb[2] || bb[0] > ba[2] || ba[1] > bb[3] || bb[1] > ba[3]) {
		c->manifold.count = 0;
		return;
	}
	// The origin is an item's centre (a boundary has none), which keeps coordinates small.
	int k0 = sa->body >= 0 ? 0 : 1;
	c->originX = pose[k0][0];
	c->originY = pose[k0][1];
	dkPlaced pa, pb;
	dkPlaceShape(sa, pose[0][0], pose[0][1], pose[0][2], pose[0][3], c->originX, c->originY, &pa);
	dkPlaceShape(sb, pose[1][0], pose[1][1], pose[1][2], pose[1][3], c->originX, c->originY, &pb);
	dkManifold old = c->manifold;
	dkCollide(&pa, &pb, DK_SPECULATIVE_DISTANCE + dt * speed, &c->manifold);
	for (int32_t i = 0; i < c->manifold.count; ++i) {
		dkManifoldPoint* p = &c->manifold.points[i];
		for (int32_t j = 0; j < old.count; ++j) {
			if (old.points[j].id == p->id) {
				p->normalImpulse = old.points[j].normalImpulse;
				p->tangentImpulse = old.points[j].tangentImpulse;
			}
		}
	}
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
			dkStore_WakeRow(world, row);
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

// What the merge decided for each entry of the next contact list.
enum { dkEntryCarry = 0, dkEntryEnded = 1, dkEntryEndedLost = 2, dkEntryUpdate = 3 };

typedef struct dkNarrowTask {
	dkWorld* world;
	dkContact* entries;
	const uint8_t* kind;
	int32_t count;
	float dt;
	atomic_int next;
} dkNarrowTask;

#define DK_NARROW_CHUNK 128

// Manifolds of the update entries; each writes only its own contact, so chunks run on any worker.
static void narrowTask(void* context, int32_t worker)
{
	(void)worker;
	dkNarrowTask* t = context;
	for (;;) {
		int32_t b = atomic_fetch_add(&t->next, DK_NARROW_CHUNK);
		if (b >= t->count) return;
		int32_t e = b + DK_NARROW_CHUNK < t->count ? b + DK_NARROW_CHUNK : t->count;
		for (int32_t k = b; k < e; ++k)
			if (t->kind[k] == dkEntryUpdate) updateManifold(t->world, &t->entries[k], t->dt);
	}
}

// Compacts entry k to position *n (entries before the first dropped one stay where they are).
static inline void keep(dkContact* work, int32_t* n, int32_t k)
{
	if (*n != k) work[*n] = work[k];
	++*n;
}

void dkContacts_Update(dkWorld* world, float dt)
{
	world->eventCount = 0;
	double t0 = dkNowNs();

	int32_t np = dkBroadphase_Pairs(world, dt, false);
	double t1 = dkNowNs();
	world->profile.broadphase = t1 - t0;
	if (np < 0) return; // out of memory: keep last step's contacts rather than lose or duplicate some
	// Pass 1 (serial): merge the sorted pairs with the sorted contacts and decide each entry's fate.
	// Entries go to the spare buffer (at most every pair, every old contact, and one ended entry per
	// reused slot); both buffers persist across steps.
	int32_t cap = np + 2 * world->contactCount + 1;
	if (world->spareCapacity < cap) {
		int32_t grown = cap + cap / 2;
		dkContact* spare = realloc(world->spareContacts, (size_t)grown * sizeof(dkContact));
		if (!spare) return; // out of memory: keep last step's contacts
		world->spareContacts = spare;
		world->spareCapacity = grown;
	}
	if (world->entryCapacity < cap) {
		int32_t grown = cap + cap / 2;
		uint8_t* kinds = realloc(world->entryKinds, (size_t)grown);
		if (!kinds) return;
		world->entryKinds = kinds;
		world->entryCapacity = grown;
	}
	dkContact* work = world->spareContacts;
	uint8_t* kind = world->entryKinds;
	int32_t m = 0, i = 0, j = 0;
	while (i < np || j < world->contactCount) {
		int order;
		if (i == np) order = 1;
		else if (j == world->contactCount) order = -1;
		else order = comparePair(world->pairs[2 * i], world->pairs[2 * i + 1], world->contacts[j].shapeA,
								 world->contacts[j].shapeB);
		if (order > 0) {
			// An old contact the broadphase no longer reports.
			dkContact* old = &world->contacts[j++];
			bool alive = sameShapes(world, old);
			if (alive && bothAsleep(world, old)) {
				work[m] = *old; // a resting pair stays as it was
				kind[m++] = dkEntryCarry;
			} else if (old->touching) {
				work[m] = *old;
				kind[m++] = alive ? dkEntryEnded : dkEntryEndedLost;
			}
			continue;
		}
		dkContact c;
		int32_t a = world->pairs[2 * i], b = world->pairs[2 * i + 1];
		if (order == 0) {
			c = world->contacts[j++];
			if (c.generationA != world->shapes[a].generation || c.generationB != world->shapes[b].generation) {
				if (c.touching) { // a slot reused by a new shape: the old contact ends, a new one starts
					work[m] = c;
					kind[m++] = dkEntryEnded;
				}
				order = -1;
			}
		}
		if (order != 0) {
			// A new pair whose tight boxes do not meet has no points this step and no event: skip it.
			const float *ba = world->aabb + 4 * a, *bb = world->aabb + 4 * b;
			if (ba[0] > bb[2] || bb[0] > ba[2] || ba[1] > bb[3] || bb[1] > ba[3]) {
				++i;
				continue;
			}
			memset(&c, 0, sizeof c);
			c.shapeA = a;
			c.shapeB = b;
			c.generationA = world->shapes[a].generation;
			c.generationB = world->shapes[b].generation;
			c.bodyA = world->shapes[a].body;
			c.bodyB = world->shapes[b].body;
			c.itemA = itemId(world, a);
			c.itemB = itemId(world, b);
			c.tagA = world->shapes[a].tag;
			c.tagB = world->shapes[b].tag;
		}
		++i;
		work[m] = c; // `touching` still holds last step's value
		kind[m++] = dkEntryUpdate;
	}
	// Pass 2 (parallel): manifolds.
	dkNarrowTask task = {.world = world, .entries = work, .kind = kind, .count = m, .dt = dt};
	atomic_init(&task.next, 0);
	dkRunTasks(world, narrowTask, &task, m >= 2 * DK_NARROW_CHUNK ? world->def.workerCount : 1);
	// Pass 3 (serial, in list order): events, waking, and the next contact list.
	int32_t n = 0;
	for (int32_t k = 0; k < m; ++k) {
		dkContact* c = &work[k];
		switch (kind[k]) {
		case dkEntryCarry: keep(work, &n, k); break;
		case dkEntryEnded: emit(world, c, false); break;
		case dkEntryEndedLost:
			emit(world, c, false);
			wakePartners(world, c); // lost support: whatever was resting on it moves again
			break;
		default: {
			bool was = c->touching;
			c->touching = isTouching(&c->manifold);
			if (c->touching != was) emit(world, c, c->touching);
			if (c->manifold.count > 0 || c->touching) keep(work, &n, k);
		}
		}
	}
	world->profile.narrowphase = dkNowNs() - t1;
	// Swap the buffers: the compacted entries are the contact list, the old list is the next spare.
	dkContact* previous = world->contacts;
	int32_t previousCapacity = world->contactCapacity;
	world->contacts = work;
	world->contactCapacity = world->spareCapacity;
	world->contactCount = n;
	world->spareContacts = previous;
	world->spareCapacity = previousCapacity;

	// Touching an awake item wakes a resting one. The contact's item slots are its shapes' (the merge
	// dropped contacts whose shapes went away), read without touching the large shape records.
	for (int32_t k = 0; k < n; ++k) {
		if (!work[k].touching || work[k].bodyA < 0 || work[k].bodyB < 0) continue;
		int32_t ra = world->slots[work[k].bodyA].dense, rb = world->slots[work[k].bodyB].dense;
		if (ra < 0 || rb < 0) continue;
		bool awakeA = ra < world->awake, awakeB = rb < world->awake;
		if (awakeA && !awakeB && world->col[dkColumnInverseMass][rb] > 0.0f) dkStore_WakeRow(world, rb);
		if (awakeB && !awakeA && world->col[dkColumnInverseMass][ra] > 0.0f) dkStore_WakeRow(world, ra);
	}
}

void dkContacts_Destroy(dkWorld* world)
{
	free(world->contacts);
	free(world->spareContacts);
	free(world->entryKinds);
	free(world->events);
	free(world->pairs);
	free(world->aabb);
	free(world->fatAabb);
	dkPairGrid_Destroy(world->grid);
}

const dkContactEvent* dkWorld_ContactEvents(const dkWorld* world, int32_t* count)
{
	*count = world->eventCount;
	return world->events;
}

int32_t dkWorld_ContactCount(const dkWorld* world) { return world->contactCount; }
