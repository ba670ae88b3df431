// SPDX-License-Identifier: Apache-2.0
// Data structure: the team of workers of one step. A step enters the host's thread pool once
// (dkTeam_Step) rather than once per parallel stage, because a pool thread takes long to join a call and
// often joins a short one only after it is over, so a stage entered on its own would often run on one
// thread (the dispatch-join measurement in Benchmarks/results). The first thread to arrive, the leader, runs the step as worker 0. Every
// parallel stage it hands to dkRunTasks becomes a job: the leader opens it, runs it itself, closes it and
// waits for the helpers still inside. The other threads, the helpers (workers 1, 2, … in order of
// arrival), wait between jobs and run each open job they see. Every task claims its items, so a job is
// complete whichever helpers arrive in time, a helper that arrives late only joins later jobs, and the
// result does not depend on which thread ran what.
//
// A helper registers in `active` before it checks that the job it saw is still open, and the leader
// closes the job before it reads `active` (both sequentially consistent): either the leader sees the
// helper and waits for it, or the helper sees the job closed and leaves it alone. So no helper runs a
// job whose context the leader has moved on from.
//
// Between jobs a helper spins for DK_TEAM_SPIN_NS, which covers the short serial parts of a step (the
// contact list's bookkeeping, the colouring of a few thousand constraints), then sleeps on a condition
// variable until the next job or the end of the step, so a long serial part (a large world's colouring,
// the joint chains) does not cost a second processor. A sleeper counts itself in `sleepers` before it
// checks the job again, and the leader opens a job before it reads `sleepers`: either the leader wakes
// it, or it sees the new job and does not sleep.
#include "team.h"

#include <pthread.h>
#include <sched.h>

#define DK_TEAM_SPIN_NS 250000.0 // how long a helper waits for the next job before it sleeps

typedef struct dkTeam {
	atomic_uint job;   // generation of the current job: odd while open, even once closed
	atomic_int active; // helpers inside the current job
	atomic_int arrived; // threads that have joined: the next worker index
	atomic_bool over;  // the step is done: helpers leave
	atomic_int sleepers; // helpers asleep on `wake`, or about to be
	pthread_mutex_t lock;
	pthread_cond_t wake; // a job opened or the step ended
	dkTaskFn* task;	   // the current job, written by the leader before it opens it
	void* context;
	int32_t workers;
	dkWorld* world;
	dkTaskFn* lead; // the step, run by the leader
	void* leadContext;
} dkTeam;

// Wakes the helpers that sleep, after a job opened or the step ended.
static void wakeSleepers(dkTeam* team)
{
	if (atomic_load(&team->sleepers) == 0) return;
	pthread_mutex_lock(&team->lock);
	pthread_cond_broadcast(&team->wake);
	pthread_mutex_unlock(&team->lock);
}

int32_t dkTeam_Run(dkTeam* team, dkTaskFn* task, void* context, int32_t workers)
{
	unsigned job = atomic_load_explicit(&team->job, memory_order_relaxed);
	team->task = task;
	team->context = context;
	team->workers = workers;
	atomic_store(&team->job, job + 1); // open: the fields above are visible to whoever sees this
	wakeSleepers(team);
	task(context, 0);
	atomic_store(&team->job, job + 2); // closed
	for (int32_t spins = 0; atomic_load(&team->active) > 0;)
		if (++spins > 20000) sched_yield();
	return workers;
}

// Whether there is nothing for a helper to do: no open job it has not run, and the step goes on.
static bool idle(dkTeam* team, unsigned done)
{
	unsigned job = atomic_load(&team->job);
	return ((job & 1) == 0 || job == done) && !atomic_load(&team->over);
}

static void helper(dkTeam* team, int32_t worker)
{
	unsigned done = 0;		   // the last job this helper ran
	double since = dkNowNs(); // when it last found work
	for (int32_t spins = 0; !atomic_load_explicit(&team->over, memory_order_acquire);) {
		unsigned job = atomic_load(&team->job);
		if ((job & 1) == 0 || job == done) {
			if ((++spins & 63) != 0 || dkNowNs() - since < DK_TEAM_SPIN_NS) continue;
			pthread_mutex_lock(&team->lock);
			atomic_fetch_add(&team->sleepers, 1);
			while (idle(team, done)) pthread_cond_wait(&team->wake, &team->lock);
			atomic_fetch_sub(&team->sleepers, 1);
			pthread_mutex_unlock(&team->lock);
			since = dkNowNs();
			continue;
		}
		atomic_fetch_add(&team->active, 1);
		if (atomic_load(&team->job) == job) {
			if (worker < team->workers) team->task(team->context, worker);
			done = job;
		}
		atomic_fetch_sub(&team->active, 1);
		since = dkNowNs();
	}
}

static void member(void* context, int32_t hostWorker)
{
	(void)hostWorker; // workers are numbered by arrival: the first one leads
	dkTeam* team = context;
	int32_t worker = atomic_fetch_add(&team->arrived, 1);
	if (worker > 0) {
		helper(team, worker);
		return;
	}
	team->world->team = team;
	team->lead(team->leadContext, 0);
	team->world->team = NULL;
	atomic_store(&team->over, true);
	wakeSleepers(team);
}

void dkTeam_Step(dkWorld* world, dkTaskFn* lead, void* context)
{
	int32_t workers = world->def.workerCount;
	if (workers < 2 || !world->def.runTasks || world->team) {
		lead(context, 0);
		return;
	}
	dkTeam team = {.world = world, .lead = lead, .leadContext = context};
	atomic_init(&team.job, 0);
	atomic_init(&team.active, 0);
	atomic_init(&team.arrived, 0);
	atomic_init(&team.over, false);
	atomic_init(&team.sleepers, 0);
	if (pthread_mutex_init(&team.lock, NULL) != 0) {
		lead(context, 0);
		return;
	}
	if (pthread_cond_init(&team.wake, NULL) != 0) {
		pthread_mutex_destroy(&team.lock);
		lead(context, 0);
		return;
	}
	world->def.runTasks(member, &team, workers, world->def.hostContext);
	pthread_cond_destroy(&team.wake);
	pthread_mutex_destroy(&team.lock);
}
