// SPDX-License-Identifier: Apache-2.0
// Data structure: the constraint graph, as Box2D v3 keeps it. A contact takes a colour when it gains
// manifold points and keeps it until it loses them or ends; a joint takes one when it is made and keeps it
// until it is destroyed. No two constraints of a colour share an item that can move, so a colour's
// constraints are solved side by side in SIMD lanes. Each item slot keeps a mask of the colours it is in, and
// a constraint takes the lowest colour clear in both its items' masks (items that cannot move, and
// boundaries, take no bit: they never conflict); with none clear it goes to the overflow group, solved last
// one at a time. Colours are taken and given back only in a step's serial part and in the API's calls, in
// list order, so they do not depend on the worker count.
#include "constraint_graph.h"
#include "collision.h"
#include "joint.h"
#include "solver_set.h"


bool dkGraph_Reserve(dkWorld* world, int32_t capacity)
{
	if (capacity <= world->graphCapacity) return true;
	uint32_t* masks = dkResize(world, world->colourMask, (size_t)world->graphCapacity * sizeof(uint32_t),
							   (size_t)capacity * sizeof(uint32_t));
	if (!masks) return false;
	memset(masks + world->graphCapacity, 0, (size_t)(capacity - world->graphCapacity) * sizeof(uint32_t));
	world->colourMask = masks;
	world->graphCapacity = capacity;
	return true;
}

void dkGraph_Destroy(dkWorld* world) { dkFree(world, world->colourMask); }

// Whether the item in a slot can move: it has a row and is not anchored (a boundary has no slot).
static bool canMove(const dkWorld* world, int32_t slot)
{
	if (slot < 0) return false;
	int32_t row = world->slots.data[slot].dense;
	return row >= 0 && (world->col[dkColumnInverseMass][row] > 0.0f || world->col[dkColumnInverseInertia][row] > 0.0f);
}

uint8_t dkGraph_Add(dkWorld* world, int32_t a, int32_t b, uint8_t* sides)
{
	_Static_assert(DK_GRAPH_COLOURS < 32, "an item's colours fit a 32-bit mask");
	bool movesA = canMove(world, a), movesB = canMove(world, b);
	uint32_t used = (movesA ? world->colourMask[a] : 0) | (movesB ? world->colourMask[b] : 0);
	uint32_t open = (((uint32_t)1 << DK_GRAPH_COLOURS) - 1) & ~used;
	if (open == 0) {
		*sides = 0;
		return DK_GRAPH_OVERFLOW;
	}
	int32_t c = __builtin_ctz(open);
	if (movesA) world->colourMask[a] |= (uint32_t)1 << c;
	if (movesB) world->colourMask[b] |= (uint32_t)1 << c;
	*sides = (uint8_t)((movesA ? 1 : 0) | (movesB ? 2 : 0));
	return (uint8_t)c;
}

void dkGraph_Remove(dkWorld* world, uint8_t colour, uint8_t sides, int32_t a, int32_t b)
{
	if (colour >= DK_GRAPH_COLOURS) return; // overflow, or none: no bits
	uint32_t bit = (uint32_t)1 << colour;
	if (sides & 1) world->colourMask[a] &= ~bit;
	if (sides & 2) world->colourMask[b] &= ~bit;
}

// Whether a constraint between slots a and b (-1: none) has a marked item.
static inline bool touchesMarked(const uint8_t* marked, int32_t a, int32_t b)
{
	return (a >= 0 && marked[a]) || (b >= 0 && marked[b]);
}

static void removeContacts(dkWorld* world, const dkContactArray* contacts, const uint8_t* marked)
{
	for (int32_t k = 0; k < contacts->count; ++k) {
		const dkContact* c = &contacts->data[k];
		if (c->colour != DK_GRAPH_NONE && touchesMarked(marked, c->bodyA, c->bodyB))
			dkGraph_Remove(world, c->colour, c->colourSides, c->bodyA, c->bodyB);
	}
}

static void addContacts(dkWorld* world, dkContactArray* contacts, const uint8_t* marked)
{
	for (int32_t k = 0; k < contacts->count; ++k) {
		dkContact* c = &contacts->data[k];
		if (c->colour != DK_GRAPH_NONE && touchesMarked(marked, c->bodyA, c->bodyB))
			c->colour = dkGraph_Add(world, c->bodyA, c->bodyB, &c->colourSides);
	}
}

void dkGraph_Recolour(dkWorld* world, const uint8_t* marked)
{
	dkLayout_Forget(&world->contactLayout); // contacts and joints change colour: their places are laid out again
	dkLayout_Forget(&world->jointLayout);
	for (int32_t s = 0; s < world->jointIds.next; ++s) {
		const dkJoint* j = &world->joints.data[s];
		if (j->alive && touchesMarked(marked, j->bodyA, j->bodyB))
			dkGraph_Remove(world, j->colour, j->colourSides, j->bodyA, j->bodyB);
	}
	removeContacts(world, &world->contacts, marked);
	removeContacts(world, &world->restingContacts, marked);
	for (int32_t s = 0; s < world->sets.count; ++s)
		if (world->sets.data[s].alive) removeContacts(world, &world->sets.data[s].contacts, marked);
	for (int32_t s = 0; s < world->jointIds.next; ++s) {
		dkJoint* j = &world->joints.data[s];
		if (j->alive && touchesMarked(marked, j->bodyA, j->bodyB))
			j->colour = dkGraph_Add(world, j->bodyA, j->bodyB, &j->colourSides);
	}
	addContacts(world, &world->contacts, marked);
	addContacts(world, &world->restingContacts, marked);
	for (int32_t s = 0; s < world->sets.count; ++s)
		if (world->sets.data[s].alive) addContacts(world, &world->sets.data[s].contacts, marked);
}

int32_t dkGraph_Places(const int32_t* starts, int32_t pad, int32_t* place)
{
	int32_t total = 0;
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) {
		int32_t size = starts[c + 1] - starts[c];
		place[c] = total;
		total += c < DK_GRAPH_COLOURS ? (size + pad - 1) / pad * pad : size;
	}
	place[DK_GRAPH_COLOURS + 1] = total;
	return total;
}
