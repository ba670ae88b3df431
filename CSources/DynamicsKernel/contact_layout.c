// SPDX-License-Identifier: Apache-2.0
// Stage: the places of the contacts of the list in their colours (constraint_layout.h). A contact takes its
// place in the contact update's serial part, in list order (contact.c), so places do not depend on the worker
// count. When contacts leave the list for their solver sets or come back (items rest or wake), holes pass a
// quarter of the places held, or contacts that took places since pass a 64th of them, the places are laid
// out again in list order, in chunks of the list on any worker: work for the contacts of what moves, which
// is all the list holds.
#include "collision.h"
#include "constraint.h"
#include "constraint_layout.h"
#include "team.h"

#include <assert.h>
#include <stdatomic.h>

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

static void layOut(dkWorld* world, int reason)
{
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
	int32_t used[DK_LAYOUT_GROUPS];
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		int32_t place = 0;
		for (int32_t q = 0; q < t.chunks; ++q) {
			int32_t n = t.at[(size_t)q * DK_LAYOUT_GROUPS + g];
			t.at[(size_t)q * DK_LAYOUT_GROUPS + g] = place;
			place += n;
		}
		used[g] = place;
	}
	dkLayout_Reset(&world->contactLayout, used, reason);
	t.assign = true;
	atomic_store(&t.next, 0);
	dkRunTasks(world, layTask, &t, workers);
	dkArena_Release(world, mark);
}

void dkContacts_Places(dkWorld* world)
{
	dkConstraintLayout* layout = &world->contactLayout;
	int reason = dkLayout_Stale(layout);
	if (reason != dkLayoutKept) {
		layOut(world, reason);
	} else {
#ifdef DK_SELF_CHECKS
		dkLayoutCheck check;
		dkLayoutCheck_Begin(&check, layout);
		for (int32_t k = 0; k < world->contacts.count; ++k) {
			const dkContact* c = &world->contacts.data[k];
			if (c->manifold.count > 0 && c->colour == DK_GRAPH_NONE) check.holds = false; // points it would not solve
			dkLayoutCheck_Mark(&check, layout, c->colour, c->place);
		}
		assert(dkLayoutCheck_End(&check, layout) && "the places kept are not the contacts' (dkLayout_Forget missed)");
#endif
	}
	dkLayout_Starts(layout);
}
