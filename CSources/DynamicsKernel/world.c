// SPDX-License-Identifier: Apache-2.0
// The world: lifetime, configuration and the top-level step. Stages and their order live in step.c.
#include "collision.h"
#include "field.h"
#include "island.h"
#include "joint.h"
#include "kernels.h"
#include "query_index.h"
#include "solver_set.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

dkWorldDef dkDefaultWorldDef(void)
{
	return (dkWorldDef){
		.workerCount = 1,
		.simdLimit = dkSimdAVX512,
		.integrator = dkIntegratorFused,
		.restEnabled = true,
		.adaptiveSubsteps = true,
		.restSpeed = 5.0f,
		.restAngularSpeed = 2.0f * 3.14159265358979f / 180.0f,
		.restTime = 0.5f,
		.contactHertz = DK_CONTACT_HERTZ,
		.solverIterations = 1,
		.initialCapacity = 0,
		.runTasks = NULL,
		.hostContext = NULL,
	};
}

dkItemDef dkDefaultItemDef(void)
{
	return (dkItemDef){.shape = dkShapeRectangle, .width = 100.0f, .height = 100.0f, .density = 1.0f};
}

// The fields dkWorld_Configure may change.
static dkResult validateConfiguration(const dkWorldDef* def, dkError* error)
{
	if (def->workerCount < 1 || def->workerCount > DK_MAX_WORKERS) {
		dkSetError(error, dkResultInvalidValue, -1, "workerCount", def->workerCount);
		return dkResultInvalidValue;
	}
	if (def->simdLimit < dkSimdScalar || def->simdLimit > dkSimdAVX512) {
		dkSetError(error, dkResultInvalidValue, -1, "simdLimit", def->simdLimit);
		return dkResultInvalidValue;
	}
	if (def->integrator < dkIntegratorFused || def->integrator > dkIntegratorScalar) {
		dkSetError(error, dkResultInvalidValue, -1, "integrator", def->integrator);
		return dkResultInvalidValue;
	}
	if (!isfinite(def->contactHertz) || def->contactHertz <= 0.0f) {
		dkSetError(error, dkResultInvalidValue, -1, "contactHertz", def->contactHertz);
		return dkResultInvalidValue;
	}
	if (def->solverIterations < 1 || def->solverIterations > DK_MAX_SOLVER_ITERATIONS) {
		dkSetError(error, dkResultInvalidValue, -1, "solverIterations", def->solverIterations);
		return dkResultInvalidValue;
	}
	return dkResultOK;
}

dkWorld* dkWorld_Create(const dkWorldDef* def, dkError* error)
{
	if (validateConfiguration(def, error) != dkResultOK) return NULL;
	struct {
		const char* name;
		float v;
	} rest[] = {{"restSpeed", def->restSpeed}, {"restAngularSpeed", def->restAngularSpeed}, {"restTime", def->restTime}};
	for (int k = 0; k < 3; ++k) {
		if (!isfinite(rest[k].v) || rest[k].v < 0) {
			dkSetError(error, dkResultInvalidValue, -1, rest[k].name, rest[k].v);
			return NULL;
		}
	}
	if (def->initialCapacity < 0) {
		dkSetError(error, dkResultInvalidValue, -1, "initialCapacity", def->initialCapacity);
		return NULL;
	}
	if ((def->allocator.allocate == NULL) != (def->allocator.release == NULL)) {
		dkSetError(error, dkResultInvalidValue, -1, def->allocator.allocate ? "allocator.release" : "allocator.allocate", 0);
		return NULL;
	}
	dkWorld* world = dkAllocWith(&def->allocator, sizeof *world);
	if (!world) {
		dkSetError(error, dkResultOutOfMemory, -1, "world", 0);
		return NULL;
	}
	memset(world, 0, sizeof *world);
	world->returningSets = -1;
	world->def = *def;
	world->kernels = dkKernelsFor(def->simdLimit);
	int32_t cap = def->initialCapacity > DK_PAD ? def->initialCapacity : DK_PAD;
	cap = (cap + DK_PAD - 1) / DK_PAD * DK_PAD;
	bool ok = true;
	for (int c = 0; c < dkColumnTotal && ok; ++c) ok = (world->col[c] = dkAllocColumn(world, cap)) != NULL;
	ok = ok && (world->flags = (uint32_t*)dkAllocColumn(world, cap)) &&
		 (world->slotOf = (uint32_t*)dkAllocColumn(world, cap)) && (world->fieldLo = (uint32_t*)dkAllocColumn(world, cap)) &&
		 (world->fieldHi = (uint32_t*)dkAllocColumn(world, cap));
	if (!ok) {
		dkStore_Destroy(world);
		dkFreeWith(&def->allocator, world);
		dkSetError(error, dkResultOutOfMemory, -1, "initialCapacity", cap);
		return NULL;
	}
	world->capacity = cap;
	return world;
}

void dkWorld_Destroy(dkWorld* world)
{
	if (!world) return;
	dkShapes_Destroy(world);
	dkJoints_Destroy(world);
	dkFields_Destroy(world);
	dkContacts_Destroy(world);
	dkQueryIndex_Destroy(world, world->queryIndex);
	dkIslands_Destroy(world);
	dkSets_Destroy(world);
	dkGraph_Destroy(world);
	dkArena_Destroy(world);
	dkStore_Destroy(world);
	dkAllocator allocator = world->def.allocator;
	dkFreeWith(&allocator, world);
}

dkSimdLevel dkWorld_SimdLevel(const dkWorld* world) { return world->kernels->level; }

dkResult dkWorld_Configure(dkWorld* world, const dkWorldDef* def, dkError* error)
{
	dkResult r = validateConfiguration(def, error);
	if (r != dkResultOK) return r;
	world->def.simdLimit = def->simdLimit;
	world->def.integrator = def->integrator;
	world->def.workerCount = def->workerCount;
	world->def.contactHertz = def->contactHertz;
	world->def.solverIterations = def->solverIterations;
	world->def.adaptiveSubsteps = def->adaptiveSubsteps;
	world->kernels = dkKernelsFor(def->simdLimit);
	if (world->def.restEnabled && !def->restEnabled) dkWorld_Wake(world, NULL, 0);
	world->def.restEnabled = def->restEnabled;
	world->allStill = false;
	return dkResultOK;
}

dkResult dkWorld_Step(dkWorld* world, float dt, int32_t substeps, dkError* error)
{
	if (!isfinite(dt) || dt <= 0.0f) {
		dkSetError(error, dkResultInvalidValue, -1, "dt", dt);
		return dkResultInvalidValue;
	}
	if (substeps < 1 || substeps > DK_MAX_SUBSTEPS) {
		dkSetError(error, dkResultInvalidValue, -1, "substeps", substeps);
		return dkResultInvalidValue;
	}
	int32_t configured = substeps;
	substeps = dkSubsteps_Begin(world, dt, configured);
	// The step's scratch for the contacts it has now (a step with contacts reserves again once it knows
	// this step's), before anything changes.
	if (!dkSolver_ReserveScratch(world, world->contacts.count + dkSets_RestingContacts(world), substeps)) {
		dkSetError(error, dkResultOutOfMemory, -1, "step", world->count);
		return dkResultOutOfMemory;
	}
	if (!dkFields_Prepare(world, substeps, dt / (float)substeps)) {
		dkSetError(error, dkResultOutOfMemory, -1, "fields", world->liveFields);
		return dkResultOutOfMemory;
	}
	double t0 = dkNowNs();
	world->clockNs = t0;
	world->revision++; // (a step that fails may still have woken items or moved none: querying anew is right either way)
	world->jobNs = 0;
	world->jobs = 0;
	if (!dkStep_Run(world, dt, substeps)) {
		dkSetError(error, dkResultOutOfMemory, -1, "step", world->count);
		return dkResultOutOfMemory;
	}
	dkSubsteps_End(world, dt, configured, substeps);
	world->time += (double)dt;
	world->profile.step = dkNowNs() - t0;
	world->profile.stepSerial = world->profile.step - world->jobNs;
	world->profile.jobs = world->jobs;
	world->profile.substeps = substeps;
	world->profile.itemCount = world->count;
	world->profile.awakeCount = world->awake;
	return dkResultOK;
}

dkProfile dkWorld_Profile(const dkWorld* world) { return world->profile; }

void dkWorld_PackPoses(const dkWorld* world, float* out)
{
	for (int32_t b = 0; b < world->count; b += DK_BLOCK) {
		int32_t e = b + DK_BLOCK < world->count ? b + DK_BLOCK : world->count;
		world->kernels->packPoses(world->col, b, e, out + 3 * (size_t)b);
	}
}
