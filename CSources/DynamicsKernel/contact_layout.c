// SPDX-License-Identifier: Apache-2.0
// Data structure: the contact layout, the place each contact's constraint takes in the solver's wide layout.
// A contact with points keeps its colour in the constraint graph for as long as it has them, and its items
// keep their rows while nothing rests, wakes, comes or goes; so in a settled step the contacts the solver
// takes, and their places, are last step's. The layout is then kept, and the step neither walks the contact
// list to find them nor groups them by colour again. Anything that changes what the layout reads forgets it
// (contact_layout.h), and the next step lays it out again, in list order and on any number of workers, with
// the same result as any other worker count.
#include "collision.h"
#include "constraint.h"
#include "contact_layout.h"
#include "team.h"

#include <assert.h>
#include <stdatomic.h>
#include <string.h>

bool dkLayout_Reserve(dkWorld* world, int32_t contacts)
{
	return dkLayoutEntryArray_Reserve(world, &world->layout.entries, contacts > 0 ? contacts : 1);
}

void dkLayout_Destroy(dkWorld* world) { dkLayoutEntryArray_Destroy(world, &world->layout.entries); }

// Listing the contacts to solve (points, and a moving item), in contact order: chunks of contacts on any
// worker, each listing its own at the start of its region of the entries (entry = its first contact), then
// moved down in chunk order. Reading the contact records was most of the contact solver's serial part.
#define DK_LIST_CHUNK 4096
#define DK_LIST_CHUNKS 1024 // more contacts take larger chunks

typedef struct dkListTask {
	const dkWorld* world;
	dkLayoutEntry* entries;
	uint8_t* colour;
	int32_t chunk, chunks;
	int32_t listed[DK_LIST_CHUNKS];
	atomic_int next;
} dkListTask;

static void listTask(void* context, int32_t worker)
{
	(void)worker;
	dkListTask* t = context;
	const dkWorld* world = t->world;
	for (int32_t g; (g = atomic_fetch_add(&t->next, 1)) < t->chunks;) {
		int32_t b = g * t->chunk, e = b + t->chunk < world->contacts.count ? b + t->chunk : world->contacts.count;
		int32_t n = b;
		for (int32_t k = b; k < e; ++k) {
			if (k + 8 < e) __builtin_prefetch(&world->contacts.data[k + 8]);
			const dkContact* c = &world->contacts.data[k];
			if (c->manifold.count == 0) continue;
			int32_t ra = dkMovingRow(world, c->bodyA), rb = dkMovingRow(world, c->bodyB);
			if (ra < 0 && rb < 0) continue;
			t->entries[n] = (dkLayoutEntry){.contact = k, .rowA = ra, .rowB = rb};
			t->colour[n] = c->colour; // (none, after a failed step: the overflow group)
			n++;
		}
		t->listed[g] = n - b;
	}
}

// Lists the contacts to solve into `entries` and their colours; returns how many.
static int32_t listContacts(dkWorld* world, dkLayoutEntry* entries, uint8_t* colour)
{
	int32_t nc = world->contacts.count, chunk = DK_LIST_CHUNK;
	while ((int64_t)chunk * DK_LIST_CHUNKS < nc) chunk *= 2;
	dkListTask t = {.world = world, .entries = entries, .colour = colour, .chunk = chunk, .chunks = (nc + chunk - 1) / chunk};
	atomic_init(&t.next, 0);
	dkRunTasks(world, listTask, &t, t.chunks > 1 ? world->def.workerCount : 1);
	int32_t n = 0;
	for (int32_t g = 0; g < t.chunks; ++g) { // down, in chunk order: a chunk's entries never pass its start
		int32_t from = g * chunk, count = t.listed[g];
		if (from != n) {
			memmove(entries + n, entries + from, (size_t)count * sizeof(dkLayoutEntry));
			memmove(colour + n, colour + from, (size_t)count);
		}
		n += count;
	}
	return n;
}

// Lays the contacts out into `entries` (room for every contact of the list), `colourStart` and `liveEnd`;
// returns how many it took. Within a colour the constraints keep list order.
static int32_t layOut(dkWorld* world, dkLayoutEntry* entries, int32_t* colourStart, int32_t* liveEnd)
{
	int32_t cap = world->contacts.count > 0 ? world->contacts.count : 1;
	uint8_t* colour = dkScratch(world, (size_t)cap);
	int32_t* order = dkScratch(world, (size_t)cap * sizeof(int32_t));
	if (!colour || !order) return 0; // (never, while the step's bound holds: dkSolver_ScratchBound)
	int32_t n = listContacts(world, entries, colour), starts[DK_GRAPH_COLOURS + 2];
	dkGraph_Order(colour, n, order, starts);
	dkGraph_Places(starts, DK_CONSTRAINT_PAD, colourStart);
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) {
		int32_t size = starts[c + 1] - starts[c];
		liveEnd[c] = colourStart[c] + size;
		for (int32_t i = 0; i < size; ++i) entries[order[starts[c] + i]].slot = colourStart[c] + i;
	}
	return n;
}

#ifdef DK_SELF_CHECKS
// Whether a kept layout is the one laid out again now.
static bool sameLayout(dkWorld* world, const dkContactLayout* kept)
{
	size_t mark = dkArena_Mark(world);
	dkLayoutEntry* entries = dkScratch(world, (size_t)(world->contacts.count > 0 ? world->contacts.count : 1) * sizeof(dkLayoutEntry));
	int32_t colourStart[DK_GRAPH_COLOURS + 2], liveEnd[DK_GRAPH_COLOURS + 1];
	bool same = true;
	if (entries) {
		int32_t n = layOut(world, entries, colourStart, liveEnd);
		same = n == kept->entries.count && memcmp(entries, kept->entries.data, (size_t)n * sizeof(dkLayoutEntry)) == 0 &&
			   memcmp(colourStart, kept->colourStart, sizeof colourStart) == 0 &&
			   memcmp(liveEnd, kept->liveEnd, sizeof liveEnd) == 0;
	}
	dkArena_Release(world, mark);
	return same;
}
#endif

void dkLayout_Update(dkWorld* world)
{
	dkContactLayout* layout = &world->layout;
	if (layout->kept) {
#ifdef DK_SELF_CHECKS
		assert(sameLayout(world, layout) && "a kept contact layout differs from the world's (dkLayout_Forget missed)");
#endif
		return;
	}
	size_t mark = dkArena_Mark(world);
	// Room for every contact of the list: reserved with the step's scratch (dkSolver_ReserveScratch).
	assert(layout->entries.capacity >= world->contacts.count);
	layout->entries.count = layOut(world, layout->entries.data, layout->colourStart, layout->liveEnd);
	dkArena_Release(world, mark);
	layout->kept = !world->arenaShort;
}
