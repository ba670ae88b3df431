// SPDX-License-Identifier: Apache-2.0
// The constraint graph (constraint_graph.c): colours taken and given back against a brute-force search over
// the live constraints, and a world's colours checked after every step while contacts begin and end, items
// rest, wake, are anchored, set free and removed, and joints come and go.
#include "check.h"
#include "collision.h"
#include "joint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool movesSlot(const dkWorld* w, int32_t slot)
{
	if (slot < 0) return false;
	int32_t row = w->slots.data[slot].dense;
	return row >= 0 && (w->col[dkColumnInverseMass][row] > 0.0f || w->col[dkColumnInverseInertia][row] > 0.0f);
}

// Random constraints taken and given back among 60 items (every fourth anchored) and boundaries: each one
// taken must get the lowest colour that no live constraint sharing one of its moving items has (or the
// overflow group), found by brute force. Then an item in 40 constraints: 24 colours, 16 in overflow.
static void againstBruteForce(Report* r)
{
	enum { items = 60, steps = 4000, live = 400 };
	dkWorld* w = makeWorld(dkCpuBestSimdLevel(), 1, dkIntegratorFused);
	dkItemDef def = dkDefaultItemDef();
	int32_t slots[items];
	for (int32_t i = 0; i < items; ++i) {
		def.flags = i % 4 == 0 ? dkItemAnchored : 0;
		float x = 100.0f * (float)i, y = 0.0f, angle = 0.0f;
		dkItemId id;
		dkError e;
		must(dkWorld_CreateItems(w, &def, &x, &y, &angle, 1, &id, &e), &e, "dkWorld_CreateItems");
		slots[i] = (int32_t)id.index1 - 1;
	}
	static int32_t a[live], b[live];
	static uint8_t colour[live], sides[live];
	int32_t n = 0, wrong = 0, overflowed = 0;
	uint32_t state = 11;
	for (int32_t s = 0; s < steps; ++s) {
		state = state * 1664525u + 1013904223u;
		if (n == live || (n > 0 && (state >> 28) < 6)) { // give one back
			int32_t k = (int32_t)((state >> 8) % (uint32_t)n);
			dkGraph_Remove(w, colour[k], sides[k], a[k], b[k]);
			--n;
			a[k] = a[n], b[k] = b[n], colour[k] = colour[n], sides[k] = sides[n];
			continue;
		}
		int32_t ia = (int32_t)((state >> 8) % (items + 6)), ib = (int32_t)((state >> 18) % items);
		int32_t sa = ia < items ? slots[ia] : -1, sb = slots[ib];
		if (sa == sb) continue;
		uint32_t busy = 0;
		for (int32_t k = 0; k < n; ++k) {
			bool shares = (movesSlot(w, sa) && (a[k] == sa || b[k] == sa)) || (movesSlot(w, sb) && (a[k] == sb || b[k] == sb));
			if (shares && colour[k] < DK_GRAPH_COLOURS) busy |= 1u << colour[k];
		}
		int32_t expected = 0;
		while (expected < DK_GRAPH_COLOURS && (busy & (1u << expected))) ++expected;
		a[n] = sa, b[n] = sb;
		colour[n] = dkGraph_Add(w, sa, sb, &sides[n]);
		wrong += colour[n] != expected;
		overflowed += colour[n] == DK_GRAPH_OVERFLOW;
		++n;
	}
	char detail[96];
	snprintf(detail, sizeof detail, "%d of %d colours differ; %d in overflow", wrong, steps, overflowed);
	check(r, wrong == 0, "the constraint graph gives each new constraint the lowest free colour", detail);
	while (n > 0) { // all given back: every mask is clear
		--n;
		dkGraph_Remove(w, colour[n], sides[n], a[n], b[n]);
	}
	uint32_t left = 0;
	for (int32_t i = 0; i < items; ++i) left |= w->colourMask[slots[i]];
	int32_t hub = 0, over = 0;
	for (int32_t k = 0; k < 40; ++k) {
		uint8_t c = dkGraph_Add(w, slots[1], k < 20 ? -1 : slots[2 + (k % 3)], &sides[k]);
		hub += c < DK_GRAPH_COLOURS;
		over += c == DK_GRAPH_OVERFLOW;
	}
	snprintf(detail, sizeof detail, "masks after giving back: %#x; hub: %d coloured, %d in overflow", left, hub, over);
	check(r, left == 0 && hub == 24 && over == 16, "the constraint graph gives back every colour; a hub overflows",
		  detail);
	dkWorld_Destroy(w);
}

// The graph's invariants in a world between steps: a contact is in the graph exactly while it has points;
// every item's mask is the colours of its constraints on the sides that took a bit, which are its items that
// can move; and no two constraints of a colour share an item that can move. Returns the faults found.
static int32_t graphFaults(const dkWorld* w, char* detail, size_t size)
{
	int32_t slots = w->itemIds.next, faults = 0;
	uint32_t* mask = calloc((size_t)slots + 1, sizeof(uint32_t));
	const char* first = "none";
	// The contact list, the resting lists (the world's and each solver set's), then the joints.
	int32_t max = w->sets.count + 2;
	const dkContact** lists = malloc((size_t)max * sizeof *lists);
	int32_t* counts = malloc((size_t)max * sizeof *counts);
	lists[0] = w->contacts.data;
	counts[0] = w->contacts.count;
	int32_t nl = 1 + restingLists(w, lists + 1, counts + 1, max - 1);
	for (int32_t l = 0; l <= nl; ++l) {
		int32_t n = l < nl ? counts[l] : w->jointIds.next;
		for (int32_t k = 0; k < n; ++k) {
			int32_t ends[2];
			uint8_t colour, sides;
			if (l < nl) {
				const dkContact* c = &lists[l][k];
				if ((c->manifold.count > 0) != (c->colour != DK_GRAPH_NONE)) {
					faults++;
					first = "a contact's points and colour disagree";
				}
				if (c->colour == DK_GRAPH_NONE) continue;
				ends[0] = c->bodyA, ends[1] = c->bodyB, colour = c->colour, sides = c->colourSides;
			} else {
				const dkJoint* j = &w->joints.data[k];
				if (!j->alive) continue;
				ends[0] = j->bodyA, ends[1] = j->bodyB, colour = j->colour, sides = j->colourSides;
			}
			if (colour >= DK_GRAPH_COLOURS) continue;
			for (int e = 0; e < 2; ++e) {
				bool took = (sides >> e) & 1;
				// An item removed since keeps the bit until its contacts end in the next step.
				if (ends[e] >= 0 && w->slots.data[ends[e]].dense >= 0 && took != movesSlot(w, ends[e])) {
					faults++;
					first = "a side took a bit it should not (or did not take one)";
				}
				if (!took) continue;
				if (mask[ends[e]] & (1u << colour)) {
					faults++;
					first = "two constraints of a colour share an item";
				}
				mask[ends[e]] |= 1u << colour;
			}
		}
	}
	for (int32_t s = 0; s < slots; ++s) {
		if (mask[s] != w->colourMask[s]) {
			faults++;
			first = "an item's mask is not the colours of its constraints";
		}
	}
	free(mask);
	free(lists);
	free(counts);
	char sets[160];
	int32_t setFaultCount = setFaults(w, sets, sizeof sets);
	if (setFaultCount > 0 && faults == 0) first = "the solver sets' invariants (below)";
	faults += setFaultCount;
	snprintf(detail, size, "%d faults; first: %s; sets: %s", faults, first, sets);
	return faults;
}

// Boxes dropped in a box of segments, at rest enabled: contacts begin, end, rest and wake; a stack of boxes
// on an anchored plank that is set free and anchored again; twenty boxes anchored and freed in one call each;
// a chain of pins; items and joints removed.
static void worldGraph(Report* r, int32_t workers)
{
	dkWorld* w = makeHostWorld(dkCpuBestSimdLevel(), workers, dkIntegratorFused, false);
	dkWorldDef def = w->def;
	def.restEnabled = true;
	dkError e;
	must(dkWorld_Configure(w, &def, &e), &e, "dkWorld_Configure");
	segment(w, -1000, FLOOR, 1000, FLOOR);
	segment(w, -1000, FLOOR, -1000, 0);
	segment(w, 1000, FLOOR, 1000, 0);
	dkItemId boxes[300];
	for (int32_t i = 0; i < 300; ++i)
		boxes[i] = box(w, -900.0f + 60.0f * (float)(i % 30), FLOOR - 100.0f - 60.0f * (float)(i / 30), 0.1f * (float)(i % 5), 50, 40);
	dkItemId plank = box(w, 0, 0, 0, 600, 20);
	dkItemDef anchored = dkDefaultItemDef(), free = dkDefaultItemDef();
	anchored.shape = free.shape = dkShapeRectangle;
	anchored.width = free.width = 600;
	anchored.height = free.height = 20;
	anchored.flags = dkItemAnchored;
	must(dkWorld_SetMassProperties(w, &plank, 1, &anchored, &e), &e, "dkWorld_SetMassProperties");
	for (int32_t i = 0; i < 20; ++i) box(w, -250.0f + 25.0f * (float)i, -40.0f - 30.0f * (float)(i % 3), 0, 24, 24);
	dkJointDef d = dkDefaultJointDef();
	dkJointId pins[10];
	dkItemId previous = plank;
	for (int32_t i = 0; i < 10; ++i) {
		dkItemId link = box(w, 320.0f + 40.0f * (float)i, 0, 0, 40, 10);
		d.kind = dkJointRevolute;
		d.itemA = previous;
		d.itemB = link;
		d.anchorAx = i == 0 ? 300.0f : 20.0f;
		d.anchorBx = -20.0f;
		must(dkWorld_CreateJoints(w, &d, 1, &pins[i], &e), &e, "dkWorld_CreateJoints");
		previous = link;
	}
	int32_t faults = 0, stepsChecked = 0, inOverflow = 0, coloured = 0;
	char detail[160] = "";
	for (int32_t s = 0; s < 240; ++s) {
		if (s == 60) must(dkWorld_SetMassProperties(w, &plank, 1, &free, &e), &e, "dkWorld_SetMassProperties");
		if (s == 90) must(dkWorld_SetMassProperties(w, &plank, 1, &anchored, &e), &e, "dkWorld_SetMassProperties");
		if (s == 100 || s == 110) { // twenty boxes anchored in one call, then freed in one
			dkItemDef d20 = s == 100 ? anchored : free;
			d20.width = 50, d20.height = 40;
			must(dkWorld_SetMassProperties(w, boxes, 20, &d20, &e), &e, "dkWorld_SetMassProperties");
		}
		if (s == 120) must(dkWorld_RemoveItems(w, boxes + 100, 50, &e), &e, "dkWorld_RemoveItems");
		if (s == 121) for (int32_t i = 0; i < 40; ++i) boxes[100 + i] = box(w, -400.0f + 20.0f * (float)i, 0, 0, 18, 18);
		if (s == 150) must(dkWorld_DestroyJoints(w, pins + 3, 2, &e), &e, "dkWorld_DestroyJoints");
		must(dkWorld_Step(w, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
		char stepDetail[160];
		int32_t f = graphFaults(w, stepDetail, sizeof stepDetail);
		if (f > 0 && faults == 0) snprintf(detail, sizeof detail, "step %d: %s", s, stepDetail);
		faults += f;
		stepsChecked++;
		for (int32_t k = 0; k < w->contacts.count; ++k) {
			coloured += w->contacts.data[k].colour < DK_GRAPH_COLOURS;
			inOverflow += w->contacts.data[k].colour == DK_GRAPH_OVERFLOW;
		}
	}
	if (faults == 0)
		snprintf(detail, sizeof detail, "%d steps; %d contact-steps coloured, %d in overflow", stepsChecked, coloured,
				 inOverflow);
	char what[120];
	snprintf(what, sizeof what, "a world's constraint graph holds after every step (%d workers)", workers);
	check(r, faults == 0 && coloured > 0, what, detail);
	dkWorld_Destroy(w);
}

void colourings(Report* r)
{
	againstBruteForce(r);
	worldGraph(r, 1);
	worldGraph(r, 2);
}
