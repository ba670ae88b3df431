// SPDX-License-Identifier: Apache-2.0
// Internal: how the step's parallel stages run. The team of one step's workers (team.c), and the helpers
// every parallel stage uses to run its task on the workers and to split its items between them.
#ifndef DK_TEAM_H
#define DK_TEAM_H

#include "core.h"

#include <stdatomic.h>

// Team (team.c): dkTeam_Step runs lead(context, 0) as the leader of a team of def.workerCount threads from
// one call into the host's pool (inline without a pool, with one worker, or when a team is running).
// dkTeam_Run runs task(context, w) as one job on the leader (w = 0) and on the helpers that have arrived
// (w = 1 … workers − 1); called by the leader only.
void dkTeam_Step(dkWorld* world, dkTaskFn* lead, void* context);
int32_t dkTeam_Run(dkTeam* team, dkTaskFn* task, void* context, int32_t workers);

// Runs task(context, worker) for `workers` workers: as a job of the step's team, on the host's pool, or
// once inline when there is one worker or no host callback. Every task claims its items, so it is complete
// however many workers actually run it. Returns the number of workers asked for. Called by the step's
// leader only (never from inside a task), which times the jobs of a step large enough to have parallel
// stages (dkWorld.timeJobs): the rest of a stage is its serial part.
static inline int32_t dkRunTasks(dkWorld* world, dkTaskFn* task, void* context, int32_t workers)
{
	// A step too small to run stages in parallel runs every job on one thread, and all of it is serial: its
	// jobs are not timed, which saves a step of a few items two clock readings per job.
	double t0 = world->timeJobs ? dkNowNs() : 0.0;
	int32_t ran = 1;
	if (workers > 1 && world->team) {
		ran = dkTeam_Run(world->team, task, context, workers);
	} else if (workers > 1 && world->def.runTasks) {
		world->def.runTasks(task, context, workers, world->def.hostContext);
		ran = workers;
	} else {
		task(context, 0);
	}
	if (world->timeJobs) world->jobNs += dkNowNs() - t0;
	world->jobs++;
	return ran;
}

// Claims the next chunk [*b, *e) of [0, end) for a worker of a parallel task: chunks of `chunk` items in
// the order of a shared counter, the last one short. False when no items are left.
static inline bool dkClaimChunk(atomic_int* next, int32_t chunk, int32_t end, int32_t* b, int32_t* e)
{
	int32_t first = atomic_fetch_add(next, chunk);
	if (first >= end) return false;
	*b = first;
	*e = end - first > chunk ? first + chunk : end;
	return true;
}

// Work that later stages visit again is split into one contiguous share per worker, so each worker keeps
// taking the same items and their data stays in its cache. The first item of worker w's share of `items`:
static inline int32_t dkShareStart(int32_t items, int32_t w, int32_t workers)
{
	return (int32_t)((int64_t)items * w / workers);
}

// Work of `count` rows or constraints in chunks is split the other way round: first into equal shares (to a
// whole `unit`, so a batch of lanes never spans two chunks), then each share into chunks of `chunk` from its
// start, so the shares differ by less than a unit, not by up to a chunk. Every share has the same number of
// items (dkItemsPerShare), the last ones of a short share empty; item j of share w is [b, e).
static inline int32_t dkUnitShareStart(int32_t count, int32_t unit, int32_t w, int32_t workers)
{
	int32_t start = dkShareStart((count + unit - 1) / unit, w, workers) * unit;
	return start < count ? start : count;
}

static inline int32_t dkItemsPerShare(int32_t count, int32_t unit, int32_t chunk, int32_t workers)
{
	int32_t most = 0;
	for (int32_t w = 0; w < workers; ++w) {
		int32_t size = dkUnitShareStart(count, unit, w + 1, workers) - dkUnitShareStart(count, unit, w, workers);
		int32_t items = (size + chunk - 1) / chunk;
		most = items > most ? items : most;
	}
	return most;
}

static inline void dkShareItem(int32_t count, int32_t unit, int32_t chunk, int32_t workers, int32_t w, int32_t j,
							   int32_t* b, int32_t* e)
{
	int32_t from = dkUnitShareStart(count, unit, w, workers) + j * chunk;
	int32_t end = dkUnitShareStart(count, unit, w + 1, workers);
	*b = from < end ? from : end;
	*e = from + chunk < end ? from + chunk : end;
}

// Claims one item of [0, items) split into shares, next[w] holding the next item of share w (initially
// dkShareStart): from the worker's own share while it lasts, then from the next shares in turn, so a
// worker the host runs late never holds up the rest. False when every item is taken.
static inline bool dkClaimShared(atomic_int* next, int32_t items, int32_t worker, int32_t workers, int32_t* item)
{
	for (int32_t k = 0; k < workers; ++k) {
		int32_t w = worker + k < workers ? worker + k : worker + k - workers;
		int32_t end = dkShareStart(items, w + 1, workers);
		if (atomic_load_explicit(&next[w], memory_order_relaxed) >= end) continue;
		int32_t i = atomic_fetch_add(&next[w], 1);
		if (i < end) {
			*item = i;
			return true;
		}
	}
	return false;
}

#endif
