// SPDX-License-Identifier: Apache-2.0
// The step: its stages in their order, each a call into its own file.
//   collide   broadphase and narrowphase: this step's contacts, their events and wakes (contact.c)
//   prepare   the contacts and joints with a moving item, coloured and laid out wide (contact_solver.c)
//   solve     the substeps: velocities, constraints, positions (solver.c)
//   rest      rest timers, then resting islands leave the awake range (rest.c)
// A world without shapes or joints has no constraints: its rest pass integrates each block of rows through
// all substeps before it detects rest, while the block is in cache. Every stage splits its work into pieces
// of a fixed size, whose arithmetic does not depend on which worker runs them, so a step's bits are the
// same for any worker count.
// A coupled step has several parallel stages with serial work between them, so it runs as the leader of a
// team (team.c): the host's pool (dkWorldDef.runTasks) is entered once per step, and each parallel stage is
// a job for the team's workers.
#include "collision.h"
#include "contact_solver.h"
#include "field.h"
#include "solver_set.h"
#include "team.h"

#include <assert.h>

// The stages, run by the leader of the step's team: every dkRunTasks in them is a job of the team. False when
// memory ran out, before the step changed anything.
static bool stepStages(dkWorld* world, float dt, int32_t substeps)
{
	double tc = world->clockNs; // the step's start (dkWorld_Step)
	bool contacts = world->liveShapes > 0 || world->contacts.count > 0 || dkSets_RestingContacts(world) > 0;
	bool coupled = contacts || world->liveJoints > 0;
	if (contacts && !dkContacts_Update(world, dt, substeps)) return false; // collide
	if (coupled) {
		double ts = world->clockNs, js = world->jobNs; // the narrowphase's end
		size_t mark = dkArena_Mark(world);
		dkConstraints constraints;
		bool ok = dkConstraints_Prepare(world, &constraints, dt / (float)substeps) && // prepare
				  dkSolver_Solve(world, &constraints, dt, substeps);					   // solve
		dkArena_Release(world, mark);
		if (!ok) return false;
		world->clockNs = dkNowNs();
		world->profile.contactSolve = world->clockNs - ts;
		world->profile.contactSolveSerial = world->profile.contactSolve - (world->jobNs - js);
	} else {
		world->clockNs = dkNowNs();
		dkSubsteps_Kick(world); // (a coupled solve kicks once it can no longer fail)
	}
	world->profile.collide = world->clockNs - tc;
	dkFields_HoldAnimated(world);
	dkRest_Step(world, dt, coupled ? 0 : substeps); // rest
	return true;
}

typedef struct dkStepRun {
	dkWorld* world;
	float dt;
	int32_t substeps;
	bool ok;
} dkStepRun;

static void stepTask(void* context, int32_t worker)
{
	(void)worker;
	dkStepRun* run = context;
	run->ok = stepStages(run->world, run->dt, run->substeps);
}

// The step's contact events become the world's (the buffers swap, so neither is allocated again).
static void publishEvents(dkWorld* world)
{
	dkContactEventArray last = world->events;
	world->events = world->stepEvents;
	world->stepEvents = last;
	world->stepEvents.count = 0;
}

// Whether a step would change nothing: every item rests and nothing since the last step changed which
// shapes pair (anchoring clears pairsValid; shapes made, freed or refiltered and items that rested or woke
// are noted, and sets that give back their contacts listed), so every contact would be carried as it is and
// no stage has a row to visit.
static bool allAtRest(const dkWorld* world)
{
	bool unchanged = world->pairsValid && world->restChangeCount == 0 && world->shapeChangeCount == 0 &&
					 world->returningSets < 0;
	return world->awake == 0 && (unchanged || (world->liveShapes == 0 && world->contacts.count == 0 &&
											   dkSets_RestingContacts(world) == 0));
}

bool dkStep_Run(dkWorld* world, float dt, int32_t substeps)
{
	world->stepEvents.count = 0;
	if (allAtRest(world)) { // a resting world costs nothing per step
		dkProfile idle = {.workers = 1};
		world->profile = idle;
		world->events.count = 0;
		return true;
	}
	world->rotationsCurrent = false; // until a stage computes this step's
	// With several workers a team runs the coupled step. A world of free items has only the blocks, and
	// enters the pool for them alone. A small coupled world runs every stage on one worker and does not
	// enter the pool at all (last step's contacts stand for this step's: a world that grows past the sizes
	// in one step still runs its stages in parallel, entering the pool per stage for that step).
	bool coupled = world->liveShapes > 0 || world->contacts.count > 0 || dkSets_RestingContacts(world) > 0 ||
				   world->liveJoints > 0;
	bool parallel = coupled ? world->awake + world->contacts.count + world->liveJoints >= DK_MIN_PARALLEL_SOLVE ||
								  world->shapeIds.next >= DK_MIN_PARALLEL_SHAPES
							: world->awake > DK_BLOCK;
	world->timeJobs = parallel;
	dkStepRun run = {.world = world, .dt = dt, .substeps = substeps};
	if (coupled && parallel)
		dkTeam_Step(world, stepTask, &run);
	else
		stepTask(&run, 0);
	dkArena_Release(world, 0);
	assert(!world->arenaShort && "a step's scratch outgrew its reservation (dkSolver_ScratchBound)");
	if (!run.ok) return false; // out of memory: the last step's events stand
	publishEvents(world);
	return true;
}
