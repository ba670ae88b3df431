// SPDX-License-Identifier: Apache-2.0
// Snapshots: checking a world just read (snapshot.c) before anyone steps it. Each value was in range when
// read (snapshot_world.c); here the parts must point at each other as a world's do: rows and slots are each
// other's inverse, id pools free exactly the slots not in use, each contact and joint holds its own place in
// its colour, island and set lists end, and every count a step sizes its memory by is the count of what it
// counts. A checksum already catches a damaged file; this catches a forged or foreign one, so that a step
// never reads past what it was given.
#include "snapshot.h"

#include "broadphase.h"
#include "collision.h"
#include "field.h"
#include "island.h"
#include "joint.h"
#include "solver_set.h"

#include <string.h>

typedef struct dkCheck {
	const char* field;
	double value;
	uint8_t* marks; // scratch, one byte per element of the largest store
} dkCheck;

#define REQUIRE(c, cond, name, v)                                                                                      \
	do {                                                                                                               \
		if (!(cond)) {                                                                                                 \
			(c)->field = (name);                                                                                       \
			(c)->value = (double)(v);                                                                                  \
			return false;                                                                                              \
		}                                                                                                              \
	} while (0)

// An id pool over `next` slots of which `used` are in use: its free ids are in [first, next), each once, and
// not in use (inUse, when given), and they are all the others.
static bool pool(dkCheck* c, const dkIdPool* p, int32_t first, int32_t used, const char* field,
				 bool (*inUse)(const dkWorld*, int32_t), const dkWorld* world)
{
	REQUIRE(c, p->free.count == p->next - used, field, p->free.count);
	memset(c->marks, 0, (size_t)p->next);
	for (int32_t k = 0; k < p->free.count; ++k) {
		int32_t id = p->free.data[k];
		REQUIRE(c, id >= first && id < p->next && !c->marks[id], field, id);
		REQUIRE(c, !inUse || !inUse(world, id), field, id);
		c->marks[id] = 1;
	}
	return true;
}

static bool slotInUse(const dkWorld* world, int32_t id) { return world->slots.data[id].dense >= 0; }
static bool shapeInUse(const dkWorld* world, int32_t id) { return world->shapes.data[id].alive; }
static bool jointInUse(const dkWorld* world, int32_t id) { return world->joints.data[id].alive; }

static bool items(dkCheck* c, const dkWorld* world)
{
	int32_t next = world->itemIds.next, kinematic = 0;
	for (int32_t r = 0; r < world->count; ++r) {
		uint32_t slot = world->slotOf[r];
		REQUIRE(c, slot < (uint32_t)next && world->slots.data[slot].dense == r, "items.slotOf", r);
		kinematic += (world->flags[r] & dkItemKinematic) != 0;
	}
	int32_t used = 0;
	for (int32_t i = 0; i < next; ++i) {
		int32_t dense = world->slots.data[i].dense;
		REQUIRE(c, dense >= -1 && dense < world->count, "items.dense", dense);
		used += dense >= 0;
	}
	REQUIRE(c, used == world->count, "items.count", world->count);
	REQUIRE(c, kinematic == world->kinematicItems, "items.kinematic", world->kinematicItems);
	return pool(c, &world->itemIds, 0, used, "items.free", slotInUse, world);
}

static bool shapes(dkCheck* c, const dkWorld* world)
{
	int32_t live = 0;
	for (int32_t i = 0; i < world->shapeIds.next; ++i) {
		const dkShape* s = &world->shapes.data[i];
		if (!s->alive) continue;
		live++;
		REQUIRE(c, s->body < 0 || world->slots.data[s->body].dense >= 0, "shapes.body", s->body);
		bool count = s->kind == dkGeometryCircle	? s->count == 1
					 : s->kind == dkGeometrySegment ? s->count == 2
													: s->count >= 2;
		REQUIRE(c, count, "shapes.count", s->count);
	}
	REQUIRE(c, live == world->liveShapes, "shapes.live", world->liveShapes);
	return pool(c, &world->shapeIds, 0, live, "shapes.free", shapeInUse, world);
}

// The places of a layout's group g: each held by one constraint or one hole (marks[place] counts them).
static bool holes(dkCheck* c, const dkConstraintLayout* l, const char* field)
{
	int64_t holeCount = 0, live = 0;
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		holeCount += l->holes[g].count;
		live += l->used[g];
	}
	REQUIRE(c, !l->kept || (holeCount == l->holeCount && live - holeCount == l->live), field, l->live);
	REQUIRE(c, l->joined >= 0 && l->joined <= INT32_MAX / 128 && l->holeCount >= 0 && l->holeCount <= INT32_MAX / 8 &&
				   l->live >= 0 && l->live <= INT32_MAX / 8 && l->laidOut >= 0 && l->laidOut < INT32_MAX / 2,
			field, l->joined); // (dkLayout_Stale multiplies them, and joins and lays out go on counting)
	return true;
}

// A layout whose groups' places are each held once by the constraints (places[k] in colours[k]) or a hole.
static bool places(dkCheck* c, const dkConstraintLayout* l, int32_t n, const uint8_t* colour, const int32_t* place,
				   size_t stride, const char* field)
{
	if (!holes(c, l, field)) return false;
	if (!l->kept) return true; // laid out again by the next step: the places are not read
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		memset(c->marks, 0, (size_t)l->used[g]);
		for (int32_t h = 0; h < l->holes[g].count; ++h) {
			int32_t p = l->holes[g].data[h];
			REQUIRE(c, p >= 0 && p < l->used[g] && !c->marks[p], field, p);
			c->marks[p] = 1;
		}
		for (int32_t k = 0; k < n; ++k) {
			uint8_t colourK = *(const uint8_t*)((const char*)colour + k * stride);
			int32_t p = *(const int32_t*)((const char*)place + k * stride);
			if (colourK != g) continue;
			REQUIRE(c, p >= 0 && p < l->used[g] && !c->marks[p], field, p);
			c->marks[p] = 1;
		}
		for (int32_t p = 0; p < l->used[g]; ++p) REQUIRE(c, c->marks[p], field, p);
	}
	return true;
}

// A constraint's colour sides (dkGraph_Add), which dkGraph_Remove reads while it has a colour: an item side
// only for an item. (Outside the colours they are not read, and may be what they were.)
static bool sides(dkCheck* c, uint8_t colour, uint8_t colourSides, int32_t bodyA, int32_t bodyB, const char* field)
{
	if (colour >= DK_GRAPH_COLOURS) return true;
	REQUIRE(c, colourSides <= 3 && (!(colourSides & 1) || bodyA >= 0) && (!(colourSides & 2) || bodyB >= 0), field, colourSides);
	return true;
}

// The contacts with points in a list.
static int64_t withPoints(const dkContactArray* a)
{
	int64_t n = 0;
	for (int32_t k = 0; k < a->count; ++k) n += a->data[k].manifold.count > 0;
	return n;
}

static bool contactsOf(dkCheck* c, const dkWorld* world, const dkContactArray* a, const char* field)
{
	for (int32_t k = 0; k < a->count; ++k) {
		const dkContact* ct = &a->data[k];
		if (!sides(c, ct->colour, ct->colourSides, ct->bodyA, ct->bodyB, field)) return false;
		REQUIRE(c, ct->shapeA < ct->shapeB, field, ct->shapeA);
		// The items' ids name the items' slots (the events and the islands read them).
		REQUIRE(c, ct->itemA.index1 == (uint32_t)(ct->bodyA + 1) && ct->itemB.index1 == (uint32_t)(ct->bodyB + 1), field,
				ct->itemA.index1);
		REQUIRE(c, ct->bodyA == world->shapes.data[ct->shapeA].body || !world->shapes.data[ct->shapeA].alive ||
					   world->shapes.data[ct->shapeA].generation != ct->generationA,
				field, ct->bodyA);
		REQUIRE(c, ct->bodyB == world->shapes.data[ct->shapeB].body || !world->shapes.data[ct->shapeB].alive ||
					   world->shapes.data[ct->shapeB].generation != ct->generationB,
				field, ct->bodyB);
	}
	return true;
}

static bool contacts(dkCheck* c, const dkWorld* world)
{
	const dkContactArray* list = &world->contacts;
	if (!contactsOf(c, world, list, "contacts") || !contactsOf(c, world, &world->restingContacts, "contacts.resting"))
		return false;
	if (list->count > 0 && !places(c, &world->contactLayout, list->count, &list->data[0].colour, &list->data[0].place,
								   sizeof(dkContact), "contacts.place"))
		return false;
	if (list->count == 0 && !holes(c, &world->contactLayout, "contacts.place")) return false;
	int64_t setContacts = 0, setWithPoints = 0;
	for (int32_t s = 0; s < world->sets.count; ++s) {
		const dkSolverSet* set = &world->sets.data[s];
		if (!contactsOf(c, world, &set->contacts, "sets.contacts")) return false;
		if (!set->alive) continue;
		REQUIRE(c, set->withPoints == withPoints(&set->contacts), "sets.withPoints", set->withPoints);
		setContacts += set->contacts.count;
		setWithPoints += set->withPoints;
	}
	REQUIRE(c, world->restingWithPoints == withPoints(&world->restingContacts), "contacts.restingWithPoints", world->restingWithPoints);
	int64_t all = (int64_t)list->count + world->restingContacts.count + setContacts;
	REQUIRE(c, world->manifoldCount >= 0 && world->manifoldCount <= all, "contacts.manifoldCount", world->manifoldCount);
	REQUIRE(c, setContacts == world->setContacts, "sets.contacts", world->setContacts);
	REQUIRE(c, setWithPoints == world->setWithPoints, "sets.withPoints", world->setWithPoints);
	return true;
}

static bool joints(dkCheck* c, const dkWorld* world)
{
	int32_t next = world->jointIds.next, sets = world->setIds.next, live = 0, extra = 0;
	for (int32_t i = 0; i < next; ++i) {
		const dkJoint* j = &world->joints.data[i];
		if (!j->alive) continue;
		live++;
		extra += dkJointHasExtraRows(&j->def);
		REQUIRE(c, j->bodyA < 0 || world->slots.data[j->bodyA].dense >= 0, "joints.bodyA", j->bodyA);
		REQUIRE(c, j->bodyB >= 0 && j->bodyB != j->bodyA && world->slots.data[j->bodyB].dense >= 0, "joints.bodyB", j->bodyB);
		REQUIRE(c, j->colour < DK_LAYOUT_GROUPS, "joints.colour", j->colour);
		if (!sides(c, j->colour, j->colourSides, j->bodyA, j->bodyB, "joints.colourSides")) return false;
		REQUIRE(c, j->set >= 0 && j->set < sets, "joints.set", j->set);
		REQUIRE(c, j->prevInSet >= -1 && j->prevInSet < next && j->nextInSet >= -1 && j->nextInSet < next, "joints.list", i);
		if (j->set == dkSetAwake)
			REQUIRE(c, j->awakeIndex >= 0 && j->awakeIndex < world->awakeJoints.count &&
						   world->awakeJoints.data[j->awakeIndex] == i,
					"joints.awakeIndex", j->awakeIndex);
	}
	REQUIRE(c, live == world->liveJoints, "joints.live", world->liveJoints);
	REQUIRE(c, extra == world->extraJoints, "joints.extra", world->extraJoints);
	for (int32_t k = 0; k < world->awakeJoints.count; ++k) {
		int32_t j = world->awakeJoints.data[k];
		REQUIRE(c, j >= 0 && j < next && world->joints.data[j].alive && world->joints.data[j].set == dkSetAwake &&
					   world->joints.data[j].awakeIndex == k,
				"joints.awake", j);
	}
	// The awake joints' places (the others hold none).
	const dkConstraintLayout* l = &world->jointLayout;
	if (!holes(c, l, "joints.place")) return false;
	if (l->kept) {
		for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
			memset(c->marks, 0, (size_t)l->used[g]);
			for (int32_t h = 0; h < l->holes[g].count; ++h) {
				int32_t p = l->holes[g].data[h];
				REQUIRE(c, p >= 0 && p < l->used[g] && !c->marks[p], "joints.place", p);
				c->marks[p] = 1;
			}
			for (int32_t k = 0; k < world->awakeJoints.count; ++k) {
				const dkJoint* j = &world->joints.data[world->awakeJoints.data[k]];
				if (j->colour != g) continue;
				REQUIRE(c, j->place >= 0 && j->place < l->used[g] && !c->marks[j->place], "joints.place", j->place);
				c->marks[j->place] = 1;
			}
			for (int32_t p = 0; p < l->used[g]; ++p) REQUIRE(c, c->marks[p], "joints.place", p);
		}
	}
	return pool(c, &world->jointIds, 0, live, "joints.free", jointInUse, world);
}

static bool islands(dkCheck* c, const dkWorld* world)
{
	int32_t slots = world->itemIds.next, next = world->islandIds.next;
	int64_t members = 0, sizes = 0;
	for (int32_t s = 0; s < slots; ++s) {
		REQUIRE(c, world->islandOf[s] >= -1 && world->islandOf[s] < next, "islands.of", world->islandOf[s]);
		REQUIRE(c, world->islandNext[s] >= -1 && world->islandNext[s] < slots, "islands.next", world->islandNext[s]);
		REQUIRE(c, world->islandPrev[s] >= -1 && world->islandPrev[s] < slots, "islands.prev", world->islandPrev[s]);
		REQUIRE(c, world->islandOf[s] < 0 || world->slots.data[s].dense >= 0, "islands.of", s); // members are items
		members += world->islandOf[s] >= 0;
	}
	REQUIRE(c, world->liveIslands == next - world->islandIds.free.count, "islands.live", world->liveIslands);
	if (!pool(c, &world->islandIds, 0, world->liveIslands, "islands.free", NULL, world)) return false;
	// marks: 1 for a free island. Each live island (two members at least: one is no island) lists its members
	// from its head to its tail, each of them its own.
	for (int32_t i = 0; i < next; ++i) {
		if (c->marks[i]) continue;
		const dkIsland* is = &world->islands.data[i];
		REQUIRE(c, is->size >= 2 && is->size <= slots && is->head >= 0 && is->head < slots && is->removed >= 0 &&
					   is->removed <= INT32_MAX / 2,
				"islands.head", is->head);
		sizes += is->size;
		int32_t s = is->head, prev = -1;
		for (int32_t k = 0; k < is->size; ++k) {
			REQUIRE(c, s >= 0 && world->islandOf[s] == i && world->islandPrev[s] == prev, "islands.list", s);
			prev = s;
			s = world->islandNext[s];
		}
		REQUIRE(c, s == -1 && prev == is->tail, "islands.tail", is->tail);
	}
	REQUIRE(c, sizes == members, "islands.members", (double)members); // no member off its island's list
	for (int32_t s = 0; s < slots; ++s)
		REQUIRE(c, world->islandOf[s] < 0 || !c->marks[world->islandOf[s]], "islands.of", world->islandOf[s]);
	return true;
}

// The solver sets: each resting row in a set of its own (its island's, its own, or the static set for what
// cannot move), every live resting set with a member (or woken and returning its contacts), the returning list
// exactly the sets marked returning, and each set's joints a list that ends, through joints of that set only.
static bool sets(dkCheck* c, const dkWorld* world)
{
	int32_t next = world->setIds.next, slots = world->itemIds.next, islands = world->islandIds.next;
	int32_t joints = world->jointIds.next;
	for (int32_t s = 0; s < slots; ++s)
		REQUIRE(c, world->setOf[s] >= 0 && world->setOf[s] < next, "sets.of", world->setOf[s]);
	int32_t live = next - world->setIds.free.count;
	if (!pool(c, &world->setIds, dkSetFirstResting, live, "sets.free", NULL, world)) return false;
	for (int32_t s = 0; s < next; ++s) {
		const dkSolverSet* set = &world->sets.data[s];
		REQUIRE(c, set->alive == !c->marks[s], "sets.alive", s);
		REQUIRE(c, set->island >= -1 && set->island < islands, "sets.island", set->island);
		REQUIRE(c, set->item >= -1 && set->item < slots, "sets.item", set->item);
		REQUIRE(c, set->nextReturning >= -1 && set->nextReturning < next, "sets.returning", set->nextReturning);
		REQUIRE(c, set->jointHead >= -1 && set->jointHead < joints, "sets.joints", set->jointHead);
	}
	// marks: the sets' members among the rows, counted (at most 255 each: more counts as 255).
	memset(c->marks, 0, (size_t)next);
	for (int32_t r = 0; r < world->count; ++r) {
		int32_t slot = (int32_t)world->slotOf[r], s = world->setOf[slot];
		if (r < world->awake) {
			REQUIRE(c, s == dkSetAwake, "sets.of", slot);
			continue;
		}
		REQUIRE(c, s == dkSetStatic || s >= dkSetFirstResting, "sets.of", slot);
		if (s == dkSetStatic) continue;
		const dkSolverSet* set = &world->sets.data[s];
		REQUIRE(c, set->alive && (set->island >= 0 ? set->island == world->islandOf[slot] : set->item == slot), "sets.of", slot);
		if (c->marks[s] < 255) c->marks[s]++;
	}
	// The returning list: the sets marked returning, alive, each once.
	int32_t returning = 0;
	for (int32_t s = world->returningSets, steps = 0; s >= 0; s = world->sets.data[s].nextReturning, ++steps) {
		REQUIRE(c, steps <= next && world->sets.data[s].alive && world->sets.data[s].returning, "sets.returning", s);
		returning++;
	}
	int32_t marked = 0;
	for (int32_t s = 0; s < next; ++s) {
		const dkSolverSet* set = &world->sets.data[s];
		marked += set->returning;
		REQUIRE(c, set->returning || set->nextReturning == -1, "sets.returning", s);
		if (s >= dkSetFirstResting && set->alive)
			REQUIRE(c, c->marks[s] > 0 || (set->woken && set->returning), "sets.members", s);
	}
	REQUIRE(c, returning == marked, "sets.returning", returning);
	// Each set's joints: a list through prevInSet and nextInSet of live joints of that set; together, every live
	// joint not in the awake set.
	int64_t listed = 0, resting = 0;
	for (int32_t j = 0; j < joints; ++j)
		resting += world->joints.data[j].alive && world->joints.data[j].set != dkSetAwake;
	for (int32_t s = 0; s < next; ++s) {
		int32_t j = world->sets.data[s].jointHead, prev = -1, steps = 0;
		for (; j >= 0 && steps <= joints; ++steps) {
			const dkJoint* joint = &world->joints.data[j];
			REQUIRE(c, s != dkSetAwake && joint->alive && joint->set == s && joint->prevInSet == prev, "sets.joints", j);
			prev = j;
			j = joint->nextInSet;
		}
		REQUIRE(c, j < 0, "sets.joints", s);
		listed += steps;
	}
	REQUIRE(c, listed == resting, "sets.joints", (double)listed);
	return true;
}

// The colour masks (constraint_graph.c): each item's bits are those of the colours its constraints took for it,
// and no two constraints took one colour for the same item (they would be solved at once by two workers).
static bool colourMasks(dkCheck* c, const dkWorld* world)
{
	int32_t slots = world->itemIds.next;
	uint32_t* mask = dkAllocZeroed(world, ((size_t)slots + 1) * sizeof(uint32_t));
	if (!mask) {
		c->field = NULL;
		return false;
	}
	bool ok = true;
	const char* field = "contacts.colour";
	double value = 0;
#define TAKE(colour, colourSides, a, b)                                                                                  \
	do {                                                                                                               \
		if ((colour) < DK_GRAPH_COLOURS) {                                                                             \
			uint32_t bit = (uint32_t)1 << (colour);                                                                    \
			if (((colourSides) & 1) && ok) ok = !(mask[a] & bit), mask[a] |= bit, value = (a);                          \
			if (((colourSides) & 2) && ok) ok = !(mask[b] & bit), mask[b] |= bit, value = (b);                          \
		}                                                                                                              \
	} while (0)
	const dkContactArray* lists[2] = {&world->contacts, &world->restingContacts};
	for (int l = 0; l < 2 + world->sets.count && ok; ++l) {
		const dkContactArray* a = l < 2 ? lists[l] : &world->sets.data[l - 2].contacts;
		if (l >= 2 && !world->sets.data[l - 2].alive) continue;
		for (int32_t k = 0; k < a->count && ok; ++k) TAKE(a->data[k].colour, a->data[k].colourSides, a->data[k].bodyA, a->data[k].bodyB);
	}
	for (int32_t j = 0; j < world->jointIds.next && ok; ++j) {
		const dkJoint* joint = &world->joints.data[j];
		field = "joints.colour";
		if (joint->alive) TAKE(joint->colour, joint->colourSides, joint->bodyA, joint->bodyB);
	}
#undef TAKE
	for (int32_t s = 0; s < slots && ok; ++s) {
		field = "graph.mask";
		value = s;
		ok = world->colourMask[s] == mask[s];
	}
	dkFree(world, mask);
	REQUIRE(c, ok, field, value);
	return true;
}

static bool fields(dkCheck* c, const dkWorld* world)
{
	int32_t live = 0;
	for (int32_t slot = 0; world->fields && slot < DK_MAX_FIELDS; ++slot) {
		const dkField* f = &world->fields[slot];
		if (!(f->generation & 1u)) continue;
		live++;
		float bounds[4];
		dkError error;
		REQUIRE(c, dkFields_ValidateDef(&f->def, &error) == dkResultOK, "fields.definition", slot);
		REQUIRE(c, dkFields_CheckRegion(f->region, f->regionCount, bounds, &error), "fields.region", slot);
	}
	REQUIRE(c, live == world->liveFields, "fields.live", world->liveFields);
	return true;
}

int dkSnapshot_Check(const dkWorld* world, const char** field, double* value)
{
	int32_t most = world->itemIds.next;
	const int32_t sizes[] = {world->shapeIds.next, world->jointIds.next, world->islandIds.next, world->setIds.next};
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) most = sizes[k] > most ? sizes[k] : most;
	// A kept layout's places are its constraints' and its holes (places() checks which): no more of them.
	const dkConstraintLayout* layouts[2] = {&world->contactLayout, &world->jointLayout};
	const int32_t constraints[2] = {world->contacts.count, world->awakeJoints.count};
	for (int k = 0; k < 2; ++k) {
		for (int32_t g = 0; layouts[k]->kept && g < DK_LAYOUT_GROUPS; ++g) {
			int32_t used = layouts[k]->used[g];
			if (used > layouts[k]->holes[g].count + constraints[k]) {
				*field = k == 0 ? "contacts.place" : "joints.place";
				*value = used;
				return 0;
			}
			most = used > most ? used : most;
		}
	}
	dkCheck c = {.marks = dkAlloc(world, (size_t)most + 1)};
	if (!c.marks) return -1;
	c.field = "memory";
	bool ok = items(&c, world) && shapes(&c, world) && contacts(&c, world) && joints(&c, world) && islands(&c, world) &&
			  sets(&c, world) && colourMasks(&c, world) && fields(&c, world);
	dkFree(world, c.marks);
	*field = c.field;
	*value = c.value;
	if (!ok && !c.field) return -1; // out of memory
	return ok ? 1 : 0;
}
