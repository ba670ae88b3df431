// SPDX-License-Identifier: Apache-2.0
// Contacts: the list of shape pairs near each other, sorted by (shapeA, shapeB), and beside it the contacts
// of items that all rest or do not move, set aside as they were. Each step gives every contact of a moving
// item its manifold, computed again (points inherit the previous step's impulses by feature id: warm
// starting) or reused while the pair moved little (recycle). Touching transitions become began/ended
// events, in list order; touching contacts link their items' islands (island.c), and resting islands
// touched by a moving item wake up.
//
// When this step's pairs are last step's (nothing left its fat box, the common step of a settled scene, or
// the shapes that left theirs kept their partners) and the list holds a contact for every pair, each is
// updated in place, in ranges of the list on any number of workers. Otherwise this step's pairs are merged
// with the list: in ranges of shape slots, each range merges its pairs with its contacts, settles each entry,
// reading the world and writing only its own region and lists, and the kept entries are gathered into the new
// list (a world of one worker merges in one range, whose region becomes the list). A merge keeps a contact for
// every pair, points or none, when last step kept its pairs (the next step may well update in place);
// otherwise only contacts with points, so scenes whose pairs change every step merge no more than needed.
// Which contacts are listed never changes what is solved: the solver, the chains and the islands read points
// and touching contacts only (a kernel check compares both ways bit for bit).
//
// In both cases what changes the world (events, waking) is then applied in range order, which is list
// order, so the result does not depend on the worker count.
//
// Resting contacts stay out of the list, in the solver sets of their items (solver_set.c), so a step that moves
// other items neither copies nor visits them. Items rest, wake, come and go only where the pairs are found
// again, in full or for the shapes of the items that rested or woke (dkSets_NoteChange); the merge after that
// sorts: it reads the list and the resting contacts no set holds, with those of sets woken since, as one
// sorted list, and sets aside the contacts of a pair no longer reported whose items all rest, which then go to
// their sets (dkSets_Distribute). Sets woken during the update itself (touched, or their support removed) give
// their contacts back at its end (dkSets_TakeBackWoken), so the step solves them.
#include "contact_merge.h"
#include "island.h"
#include "solver_set.h"
#include "team.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// Splits a merge of np pairs with the list and rc resting contacts into ranges of shape slots, at the
// first shapes of evenly spaced pairs (or contacts, or resting contacts, whichever are most); returns their
// number. Each range starts empty: the ranges beyond their number are never read, so they are not cleared
// (64 of them were a quarter of a one-item world's step). A world of one worker takes one range, whose kept
// contacts need no gathering: its region becomes the list (the ranges split the work, not the result).
static int32_t mergeRanges(const dkWorld* world, int32_t np, int32_t rc, dkMergeRange* ranges)
{
	int32_t cc = world->contacts.count, rangeCount = (np + cc + rc) / DK_MERGE_RANGE_SIZE;
	if (world->def.workerCount == 1) rangeCount = 1;
	rangeCount = rangeCount < 1 ? 1 : rangeCount > DK_MERGE_RANGES ? DK_MERGE_RANGES : rangeCount;
	for (int32_t g = 0; g < rangeCount; ++g) {
		dkMergeRange* r = &ranges[g];
		*r = (dkMergeRange){0};
		if (g > 0) {
			int32_t split = np >= cc && np >= rc ? world->pairs.data[(int64_t)np * g / rangeCount].a
							: cc >= rc			  ? world->contacts.data[(int64_t)cc * g / rangeCount].shapeA
												  : world->restingContacts.data[(int64_t)rc * g / rangeCount].shapeA;
			r->pairBegin = dkMerge_FirstPair(world->pairs.data, ranges[g - 1].pairBegin, np, split);
			r->contactBegin = dkMerge_FirstContact(world->contacts.data, ranges[g - 1].contactBegin, cc, split);
			r->restingBegin = dkMerge_FirstContact(world->restingContacts.data, ranges[g - 1].restingBegin, rc, split);
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

// Splits an update in place into even ranges of the contact list, each starting empty; returns their number.
static int32_t inPlaceRanges(const dkWorld* world, dkMergeRange* ranges)
{
	int32_t cc = world->contacts.count, rangeCount = cc / DK_IN_PLACE_RANGE_SIZE;
	rangeCount = rangeCount < 1 ? 1 : rangeCount > DK_MERGE_RANGES ? DK_MERGE_RANGES : rangeCount;
	for (int32_t g = 0; g < rangeCount; ++g) {
		ranges[g] = (dkMergeRange){0};
		ranges[g].contactBegin = (int32_t)((int64_t)cc * g / rangeCount);
		ranges[g].contactEnd = (int32_t)((int64_t)cc * (g + 1) / rangeCount);
	}
	return rangeCount;
}

// Makes room for a merge of np pairs with the list and rc resting contacts: the kept entries (at most every
// pair, every contact, and one ended entry per reused slot) and the merge entries.
static bool reserveMerge(dkWorld* world, int32_t np, int32_t rc)
{
	int32_t cap = np + 2 * (world->contacts.count + rc) + 1;
	return dkContactArray_Reserve(world, &world->spareContacts, cap) && dkContactArray_Reserve(world, &world->contacts, cap) &&
		   dkMergeEntryArray_Reserve(world, &world->mergeEntries, cap);
}

// An update in place that fails gives back the touching states its ranges changed, whose events it loses, so
// that the next step finds the same changes and reports them. A range's events are its contacts' changes,
// one each at most, in list order.
static void revertTouching(dkWorld* world, const dkMergeRange* ranges, int32_t rangeCount)
{
	for (int32_t g = 0; g < rangeCount; ++g) {
		const dkMergeRange* r = &ranges[g];
		for (int32_t k = r->contactBegin, q = 0; k < r->contactEnd && q < r->events.count; ++k) {
			dkContact* c = &world->contacts.data[k];
			const dkContactEvent* e = &r->events.data[q];
			if (e->shapeA.index1 == (uint32_t)c->shapeA + 1 && e->shapeB.index1 == (uint32_t)c->shapeB + 1 &&
				c->touching == e->began) {
				c->touching = !e->began;
				++q;
			}
		}
	}
}

// The contacts that entered or left the constraint graph (constraint_graph.c), with their places in the
// contact layout (contact_layout.c): every colour and place given back first, then the new contacts take
// theirs in list order, so neither depends on the worker count. Kept contacts are still in the ranges'
// regions (a merge gathers them afterwards, places and all) or in the list (in place).
static void applyColours(dkWorld* world, dkMergeRange* ranges, int32_t rangeCount, bool inPlace)
{
	for (int32_t pass = 0; pass < 2; ++pass) {
		for (int32_t g = 0; g < rangeCount; ++g) {
			const dkMergeRange* r = &ranges[g];
			dkContact* region = inPlace ? world->contacts.data + r->contactBegin : world->spareContacts.data + r->offset;
			for (int32_t k = 0; k < r->colourChanges.count; ++k) {
				const dkColourChange* change = &r->colourChanges.data[k];
				dkContact* c = change->kept >= 0 ? &region[change->kept] : NULL;
				if (pass == 0) {
					dkGraph_Remove(world, change->colour, change->sides, change->bodyA, change->bodyB);
					dkLayout_Leave(&world->contactLayout, change->colour, change->place);
					if (c && !change->add) c->colour = DK_GRAPH_NONE;
				} else if (change->add) {
					c->colour = dkGraph_Add(world, c->bodyA, c->bodyB, &c->colourSides);
					c->place = dkLayout_Join(&world->contactLayout, c->colour);
				}
			}
		}
	}
}

// An update that fails after the broadphase found the pairs again: when it was to sort (items rested, woke,
// came or went, or sets gave back their contacts), the next one must sort too, so the pairs are not taken as
// valid. Returns false.
static bool unsorted(dkWorld* world, bool sorts)
{
	if (sorts) world->pairsValid = false;
	return false;
}

bool dkContacts_Update(dkWorld* world, float dt, int32_t substeps)
{
	world->stepEvents.count = 0;
	double t0 = world->clockNs, j0 = world->jobNs; // the step's start

	bool settled = world->pairsUnchanged; // last step's pairs were the ones before them
	// Items rested, woke, came or went, or sets gave their contacts back, since the last merge: this one sorts
	// the old contacts anew into the list and the resting ones. Between such steps no item rests or
	// dkMerge_Wakes, and the resting contacts stay aside.
	bool sorts = !world->pairsValid || world->restChangeCount > 0 || world->shapeChangeCount > 0 ||
				 world->returningSets >= 0;
	int32_t np = dkBroadphase_Pairs(world, dt, false);
	double t1 = dkNowNs(), j1 = world->jobNs;
	world->profile.broadphase = t1 - t0;
	world->profile.broadphaseSerial = world->profile.broadphase - (j1 - j0);
	if (np < 0) return false; // out of memory: keep last step's contacts rather than lose or duplicate some
	// Sets woken or returned since the last update give their contacts back to this merge (solver_set.c).
	if (!dkSets_TakeBack(world)) return unsorted(world, sorts);
	// Last step's pairs (kept, or found again the same), each with its contact: the list is updated where it is.
	// Otherwise the merge settles into the spare buffer, and the list's own buffer, read by the merge, then
	// receives the kept contacts. Both buffers persist across steps. A merge gives every pair its contact when
	// the pairs may well be kept next step (they were last step); while they change every step (an item flying
	// through, a scene in motion), only pairs with points get one, which keeps the merge small.
	bool inPlace = world->pairsUnchanged && world->contactsCoverPairs && !sorts, cover = settled;
	int32_t rc = sorts ? world->restingContacts.count : 0, awakeBefore = world->awake;
	if (!inPlace && !reserveMerge(world, np, rc)) return unsorted(world, sorts); // out of memory: keep last step's contacts
	// dkSets_TakeBackWoken merges into the spare buffer, which a merge of one range swaps with the list's.
	int32_t woken = np + world->contacts.count + dkSets_RestingContacts(world) + 1;
	if (!dkContactArray_Reserve(world, &world->spareContacts, woken) ||
		(!inPlace && !dkContactArray_Reserve(world, &world->contacts, woken)))
		return unsorted(world, sorts);
	dkMergeRange ranges[DK_MERGE_RANGES];
	int32_t rangeCount = inPlace ? inPlaceRanges(world, ranges) : mergeRanges(world, np, rc, ranges);
	dkMergeTask task = {.world = world, .ranges = ranges, .spare = world->spareContacts.data, .entries = world->mergeEntries.data,
						.next = world->contacts.data, .rangeCount = rangeCount, .dt = dt, .inPlace = inPlace,
						.cover = cover, .sorts = sorts};
	atomic_init(&task.claim, 0);
	int32_t workers = rangeCount > 1 ? world->def.workerCount : 1;
	dkRunTasks(world, dkMerge_Task, &task, workers);
	bool ok = true;
	int32_t events = 0, restKept = 0, kept = 0, changes = 0;
	for (int32_t g = 0; g < rangeCount; ++g) {
		ok = ok && ranges[g].ok;
		events += ranges[g].events.count;
		changes += ranges[g].colourChanges.count;
		ranges[g].restFirst = restKept;
		restKept += ranges[g].restKept;
		kept += ranges[g].kept;
	}
	// The last point where the update may fail: what the rest of the step needs is reserved here, and from
	// here on the world changes.
	if (!ok || !dkContactEventArray_Reserve(world, &world->stepEvents, events) || !dkLayout_Reserve(world, &world->contactLayout, changes) ||
		(sorts && !dkContactArray_Reserve(world, &world->restingContacts, restKept)) ||
		!dkSolver_ReserveScratch(world, kept + (sorts ? restKept : world->restingContacts.count) + world->setContacts, substeps)) {
		// Out of memory: a merge keeps last step's list; in place, the manifolds are this step's but every
		// contact touches as it did (revertTouching), and the next step merges again.
		if (inPlace) {
			world->contactsCoverPairs = false;
			revertTouching(world, ranges, rangeCount);
		}
		dkMerge_FreeRanges(world, ranges, rangeCount);
		return unsorted(world, sorts);
	}
	// In list order: events, lost supports wake their items, and the kept entries become the contact list.
	int32_t n = 0, withPoints = 0, restWithPoints = 0;
	for (int32_t g = 0; g < rangeCount; ++g) {
		dkMergeRange* r = &ranges[g];
		if (r->events.count > 0)
			memcpy(world->stepEvents.data + world->stepEvents.count, r->events.data, (size_t)r->events.count * sizeof(dkContactEvent));
		world->stepEvents.count += r->events.count;
		for (int32_t k = 0; k < r->events.count; ++k) // a link lost: the island may have come apart
			if (!r->events.data[k].began && r->events.data[k].itemA.index1 && r->events.data[k].itemB.index1)
				dkIslands_Unlinked(world, (int32_t)r->events.data[k].itemA.index1 - 1, (int32_t)r->events.data[k].itemB.index1 - 1);
		for (int32_t k = 0; k < r->lost.count; ++k) dkMerge_WakePartners(world, &r->lost.data[k]);
		r->first = n;
		n += r->kept;
		withPoints += r->withPoints;
		restWithPoints += r->restWithPoints;
	}
	if (sorts) dkLayout_Forget(&world->contactLayout); // contacts leave the list for their sets, or come back
	applyColours(world, ranges, rangeCount, inPlace);
	if (!inPlace && rangeCount == 1) { // the range's region, at the spare buffer's start, is the next list
		const dkMergeRange* r = &ranges[0];
		for (int32_t k = 0; k < r->restKept; ++k) world->restingContacts.data[k] = world->spareContacts.data[r->end - 1 - k];
		dkContactArray list = world->contacts;
		world->contacts = world->spareContacts;
		world->spareContacts = list;
		world->spareContacts.count = 0;
		world->contacts.count = n;
	} else if (!inPlace) {
		task.gather = true;
		task.nextResting = world->restingContacts.data;
		atomic_store(&task.claim, 0);
		dkRunTasks(world, dkMerge_Task, &task, workers);
		world->contacts.count = n;
	}
	if (sorts) {
		world->restingContacts.count = restKept;
		world->restingWithPoints = restWithPoints;
		dkSets_Distribute(world);
	}
	world->manifoldCount = withPoints + world->restingWithPoints + world->setWithPoints;
	world->contactsCoverPairs = inPlace || cover;

	// In list order, touching contacts between moving items link their islands (island.c). A resting item
	// touched by an awake one faster than restSpeed (or about to be: dkMerge_Wakes) wakes with its island first
	// (which may let it wake the next); touched slower, it stays at rest and the awake item leans on it as
	// on an anchored one. A kinematic item links no island (as an anchored one), but wakes what it touches
	// while it moves at all: nothing pushes it back, and slower than restSpeed it would go through.
	for (int32_t g = 0; g < rangeCount; ++g) {
		dkMergeRange* r = &ranges[g];
		for (int32_t w = 0; w < r->waking.count; ++w) {
			const dkContact* c = &world->contacts.data[r->first + r->waking.data[w]];
			int32_t ra = world->slots.data[c->bodyA].dense, rb = world->slots.data[c->bodyB].dense;
			bool movesA = dkIslands_Moves(world, ra), movesB = dkIslands_Moves(world, rb);
			bool kinematicA = !movesA && (world->flags[ra] & dkItemKinematic);
			bool kinematicB = !movesB && (world->flags[rb] & dkItemKinematic);
			if (!(movesA || kinematicA) || !(movesB || kinematicB) || !(movesA || movesB)) continue;
			bool awakeA = ra < world->awake, awakeB = rb < world->awake;
			if (!awakeA && !awakeB) continue;
			if (awakeA != awakeB) {
				int32_t waker = awakeA ? ra : rb;
				if (!(world->flags[waker] & dkItemKinematic && dkStore_RowMoves(world, waker)) &&
					!dkMerge_Wakes(world, c, ra, rb, dt))
					continue;
				dkSets_WakeRow(world, awakeA ? rb : ra);
			}
			if (c->touching && movesA && movesB) dkIslands_Link(world, c->bodyA, c->bodyB);
		}
	}
	dkMerge_FreeRanges(world, ranges, rangeCount);
	if (world->returningSets >= 0 || (world->awake > awakeBefore && world->restingContacts.count > 0))
		dkSets_TakeBackWoken(world);
	world->clockNs = dkNowNs();
	world->profile.narrowphase = world->clockNs - t1;
	world->profile.narrowphaseSerial = world->profile.narrowphase - (world->jobNs - j1);
	return true;
}

void dkContacts_Destroy(dkWorld* world)
{
	dkContactArray_Destroy(world, &world->contacts);
	dkContactArray_Destroy(world, &world->spareContacts);
	dkLayout_Destroy(world, &world->contactLayout);
	dkContactArray_Destroy(world, &world->restingContacts);
	dkMergeEntryArray_Destroy(world, &world->mergeEntries);
	dkContactEventArray_Destroy(world, &world->events);
	dkContactEventArray_Destroy(world, &world->stepEvents);
	dkPairArray_Destroy(world, &world->pairs);
	dkFree(world, world->shapeChanges);
	dkFree(world, world->shapeChanged);
	dkFree(world, world->aabb);
	dkFree(world, world->fatAabb);
	dkFree(world, world->motion);
	dkPairGrid_Destroy(world, world->grid);
	dkPairGrid_Destroy(world, world->stillGrid);
	dkPairGrid_Destroy(world, world->looseGrid);
	dkBroadphase_Destroy(world, world->broadphase);
}

const dkContactEvent* dkWorld_ContactEvents(const dkWorld* world, int32_t* count)
{
	*count = world->events.count;
	return world->events.data;
}
int32_t dkWorld_ContactCount(const dkWorld* world) { return world->manifoldCount; }
