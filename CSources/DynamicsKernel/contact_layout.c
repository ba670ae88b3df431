// SPDX-License-Identifier: Apache-2.0
// Data structure: the contact layout, the place each contact keeps in its colour's part of the solver's wide
// layout, as Box2D v3's constraint graph keeps a contact in its colour's array. A contact that gains points
// takes its colour (constraint_graph.c) and a place in it, a hole left by a contact that gave its place back
// or the next one, and keeps both while it has points; so a step whose contacts begin and end neither walks
// the list to find the others nor groups them by colour again, and the solver fills each contact's row where
// its place is (contact_solver.c). Places are taken and given back in the contact update's serial part, in
// list order, so they do not depend on the worker count; and a colour's constraints share no moving item, so
// their order within the colour changes no bit of a step (the overflow group, solved one at a time, is solved
// in the order of its places).
//
// When contacts leave the list for their solver sets or come back (items rest or wake), the places are laid
// out again in list order, in chunks of the list on any worker: work for the contacts of what moves, which is
// all the list holds. The same when holes pass a quarter of the places held, which keeps the layout dense.
#include "collision.h"
#include "constraint.h"
#include "contact_layout.h"
#include "team.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

bool dkLayout_Reserve(dkWorld* world, int32_t leaving)
{
	dkContactLayout* layout = &world->layout;
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		// A group has no more holes than places.
		int32_t room = layout->holes[g].count + leaving < layout->used[g] ? layout->holes[g].count + leaving : layout->used[g];
		if (!dkInt32Array_Reserve(world, &layout->holes[g], room > 0 ? room : 1)) return false;
	}
	return true;
}

void dkLayout_Destroy(dkWorld* world)
{
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) dkInt32Array_Destroy(world, &world->layout.holes[g]);
}

void dkLayout_Leave(dkWorld* world, uint8_t colour, int32_t place)
{
	dkContactLayout* layout = &world->layout;
	if (!layout->kept || colour == DK_GRAPH_NONE) return;
	dkInt32Array* holes = &layout->holes[colour];
	assert(holes->count < holes->capacity && "a place given back beyond dkLayout_Reserve");
	holes->data[holes->count++] = place;
	layout->holeCount++;
	layout->live--;
}

void dkLayout_Join(dkWorld* world, dkContact* c)
{
	dkContactLayout* layout = &world->layout;
	if (!layout->kept || c->colour == DK_GRAPH_NONE) return;
	dkInt32Array* holes = &layout->holes[c->colour];
	if (holes->count > 0) {
		c->place = holes->data[--holes->count];
		layout->holeCount--;
	} else {
		c->place = layout->used[c->colour]++;
	}
	layout->live++;
}

// Laying the places out again: chunks of the list on any worker count the contacts of each colour, then
// each chunk gives its contacts their places from its own start in each colour.
#define DK_LAY_CHUNK 4096

typedef struct dkLayTask {
	dkContact* contacts;
	int32_t* at; // per chunk and group: its contacts, then its first place
	int32_t count, chunk, chunks;
	bool assign;
	atomic_int next;
} dkLayTask;

static void layTask(void* context, int32_t worker)
{
	(void)worker;
	dkLayTask* t = context;
	for (int32_t g; (g = atomic_fetch_add(&t->next, 1)) < t->chunks;) {
		int32_t b = g * t->chunk, e = b + t->chunk < t->count ? b + t->chunk : t->count;
		int32_t* at = t->at + (size_t)g * DK_LAYOUT_GROUPS;
		for (int32_t k = b; k < e; ++k) {
			dkContact* c = &t->contacts[k];
			if (k + 8 < e) __builtin_prefetch(&t->contacts[k + 8].colour, 1);
			if (c->colour == DK_GRAPH_NONE) continue;
			if (t->assign) c->place = at[c->colour]++;
			else at[c->colour]++;
		}
	}
}

static void layOut(dkWorld* world)
{
	dkContactLayout* layout = &world->layout;
	int32_t nc = world->contacts.count, chunk = DK_LAY_CHUNK;
	while ((int64_t)chunk * DK_LAYOUT_CHUNKS < nc) chunk *= 2;
	dkLayTask t = {.contacts = world->contacts.data, .count = nc, .chunk = chunk, .chunks = (nc + chunk - 1) / chunk};
	size_t mark = dkArena_Mark(world);
	t.at = dkScratchZeroed(world, (size_t)(t.chunks > 0 ? t.chunks : 1) * DK_LAYOUT_GROUPS * sizeof(int32_t));
	assert(t.at && "laying the contacts out outgrew the step's scratch (dkSolver_ScratchBound)");
	int32_t one[DK_LAYOUT_GROUPS] = {0};
	if (!t.at) { // (never while the bound holds) one chunk, on this worker
		t.at = one;
		t.chunk = nc > 0 ? nc : 1;
		t.chunks = nc > 0 ? 1 : 0;
	}
	int32_t workers = t.chunks > 1 ? world->def.workerCount : 1;
	atomic_init(&t.next, 0);
	dkRunTasks(world, layTask, &t, workers);
	layout->live = 0;
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		int32_t place = 0;
		for (int32_t q = 0; q < t.chunks; ++q) {
			int32_t n = t.at[(size_t)q * DK_LAYOUT_GROUPS + g];
			t.at[(size_t)q * DK_LAYOUT_GROUPS + g] = place;
			place += n;
		}
		layout->used[g] = place;
		layout->holes[g].count = 0;
		layout->live += place;
	}
	layout->holeCount = 0;
	t.assign = true;
	atomic_store(&t.next, 0);
	dkRunTasks(world, layTask, &t, workers);
	dkArena_Release(world, mark);
	layout->laidOut++;
	layout->kept = true;
}

#ifdef DK_SELF_CHECKS
// Whether the places kept are one per contact of the list with a colour, and the holes the rest.
static bool placesHold(const dkWorld* world)
{
	const dkContactLayout* layout = &world->layout;
	uint8_t* taken[DK_LAYOUT_GROUPS];
	bool holds = true;
	int32_t live = 0, holes = 0;
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) taken[g] = calloc((size_t)layout->used[g] + 1, 1);
	for (int32_t k = 0; k < world->contacts.count; ++k) {
		const dkContact* c = &world->contacts.data[k];
		if (c->manifold.count > 0 && c->colour == DK_GRAPH_NONE) holds = false; // points it would not solve
		if (c->colour == DK_GRAPH_NONE) continue;
		holds = holds && c->place >= 0 && c->place < layout->used[c->colour] && !taken[c->colour][c->place];
		if (holds) taken[c->colour][c->place] = 1;
		live++;
	}
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		for (int32_t h = 0; holds && h < layout->holes[g].count; ++h) {
			int32_t place = layout->holes[g].data[h];
			holds = place >= 0 && place < layout->used[g] && !taken[g][place];
			if (holds) taken[g][place] = 1;
		}
		holes += layout->holes[g].count;
		for (int32_t p = 0; holds && p < layout->used[g]; ++p) holds = taken[g][p];
		free(taken[g]);
	}
	return holds && live == layout->live && holes == layout->holeCount;
}
#endif

void dkLayout_Update(dkWorld* world)
{
	dkContactLayout* layout = &world->layout;
	if (layout->kept && 4 * layout->holeCount > layout->live) layout->kept = false;
	if (!layout->kept) layOut(world);
#ifdef DK_SELF_CHECKS
	else assert(placesHold(world) && "the places kept are not the contacts' (dkLayout_Forget missed)");
#endif
	int32_t starts[DK_LAYOUT_GROUPS + 1] = {0};
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) starts[g + 1] = starts[g] + layout->used[g];
	dkGraph_Places(starts, DK_CONSTRAINT_PAD, layout->colourStart);
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) layout->liveEnd[g] = layout->colourStart[g] + layout->used[g];
}
