// SPDX-License-Identifier: Apache-2.0
// Scene runs at every SIMD level and worker count, and their state hashes across machines.
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- Scenes --------------------------------------------------------------------------------------------

// A pyramid of base 30 (465 boxes of 100 pt) on a floor segment: polygons, colours, warm starting.
static void pyramid(dkWorld* w)
{
	segment(w, -3000, FLOOR, 3000, FLOOR);
	for (int row = 0; row < 30; ++row)
		for (int j = row; j < 30; ++j)
			box(w, 50.0f * (float)(row + 1) + 100.0f * (float)(j - row) - 1500.0f, FLOOR - 50 - 100.0f * (float)row, 0, 100, 100);
}

// Balls of mixed sizes and elasticities with tilted boxes, poured into a V: circles against polygons and
// segments, the restitution pass, speculative contacts.
static void funnel(dkWorld* w)
{
	segment(w, -1200, FLOOR - 900, 0, FLOOR);
	segment(w, 0, FLOOR, 1200, FLOOR - 900);
	for (int i = 0; i < 120; ++i) {
		float x = -500.0f + 90.0f * (float)(i % 12), y = FLOOR - 1200.0f - 90.0f * (float)(i / 12);
		if (i % 3 == 0) box(w, x, y, 0.1f * (float)(i % 7), 60, 40);
		else ball(w, x, y, 30.0f + 5.0f * (float)(i % 9), (i % 2) ? 0.8f : 0.0f);
	}
}

// A pendulum chain of revolute joints from the world, a rigid-rod chain, a weld and a prismatic joint.
static void joints(dkWorld* w)
{
	dkError e;
	dkJointDef d = dkDefaultJointDef();
	dkItemId previous = {0, 0};
	for (int i = 0; i < 15; ++i) {
		dkItemId b = box(w, 40.0f * (float)i, 0, 0, 40, 10);
		d = dkDefaultJointDef();
		d.kind = dkJointRevolute;
		d.itemA = previous;
		d.itemB = b;
		d.anchorAx = i == 0 ? -20.0f : 20.0f;
		d.anchorBx = -20.0f;
		dkJointId j;
		must(dkWorld_CreateJoints(w, &d, 1, &j, &e), &e, "dkWorld_CreateJoints");
		previous = b;
	}
	dkItemId a = ball(w, 1500, 0, 30, 0), b = ball(w, 1600, 0, 30, 0), c = box(w, 1700, 100, 0.3f, 60, 30);
	dkJointDef defs[3] = {dkDefaultJointDef(), dkDefaultJointDef(), dkDefaultJointDef()};
	defs[0].kind = dkJointDistance, defs[0].itemB = a, defs[0].anchorAx = 1450, defs[0].anchorAy = -100;
	defs[0].length = 112, defs[0].rigid = true;
	defs[1].kind = dkJointWeld, defs[1].itemA = a, defs[1].itemB = b, defs[1].anchorAx = 50, defs[1].anchorBx = -50;
	defs[2].kind = dkJointPrismatic, defs[2].itemA = b, defs[2].itemB = c, defs[2].axisX = 1, defs[2].axisY = 1;
	defs[2].enableLimit = true, defs[2].lower = -50, defs[2].upper = 80;
	defs[2].enableMotor = true, defs[2].motorSpeed = 30, defs[2].maxMotorForce = 5.0e4f; // into its upper limit
	dkJointId ids[3];
	must(dkWorld_CreateJoints(w, defs, 3, ids, &e), &e, "dkWorld_CreateJoints");
	// Two wheels on motorised pins to the world: one with a torque limit, friction and a range, one unlimited
	// and reversing, each pin with a bar pinned to its wheel (a motor's load; the second's on an angular spring).
	for (int m = 0; m < 2; ++m) {
		float x = 1900.0f + 300.0f * (float)m;
		dkItemId wheel = ball(w, x, 0, 50, 0), bar = box(w, x + 100.0f, 0, 0, 100, 10);
		dkJointDef motor = dkDefaultJointDef(), load = dkDefaultJointDef();
		motor.kind = dkJointRevolute, motor.itemB = wheel, motor.anchorAx = x;
		motor.enableMotor = true, motor.motorSpeed = m == 0 ? 3.0f : -5.0f;
		motor.maxMotorTorque = m == 0 ? 4.0e6f : INFINITY;
		motor.maxFrictionTorque = m == 0 ? 1.0e6f : 0.0f;
		motor.enableLimit = m == 0, motor.lower = -1.0f, motor.upper = 2.0f;
		load.kind = dkJointRevolute, load.itemA = wheel, load.itemB = bar, load.anchorAx = 50, load.anchorBx = -50;
		load.angularHertz = m == 1 ? 2.0f : 0.0f, load.angularDampingRatio = 0.3f, load.restAngle = 0.5f; // a sprung load
		dkJointId pins[2];
		must(dkWorld_CreateJoints(w, (dkJointDef[]){motor, load}, 2, pins, &e), &e, "dkWorld_CreateJoints");
	}
}

// 400 items without shapes in every field kind at once (fields, regions, charges, noise).
static void fields(dkWorld* w)
{
	dkError e;
	dkItemDef def = dkDefaultItemDef();
	def.width = def.height = 20;
	def.charge = 1;
	float x[400], y[400];
	for (int i = 0; i < 400; ++i) x[i] = 37.0f * (float)(i % 20) - 350.0f, y[i] = 41.0f * (float)(i / 20) - 400.0f;
	dkItemId ids[400];
	must(dkWorld_CreateItems(w, &def, x, y, NULL, 400, ids, &e), &e, "dkWorld_CreateItems");
	float vx[400];
	for (int i = 0; i < 400; ++i) vx[i] = (float)((i * 37) % 101) - 50.0f;
	must(dkWorld_SetFloats(w, dkColumnVelocityX, ids, vx, 400, &e), &e, "dkWorld_SetFloats");
	dkWorld_SetSeed(w, 7);
	for (int kind = 0; kind < dkFieldKindCount; ++kind) {
		dkFieldDef f = dkDefaultFieldDef((dkFieldKind)kind);
		f.positionX = 50.0f * (float)kind - 200.0f;
		f.positionY = 30.0f;
		f.strength = kind == dkFieldVelocity ? 0.2f : 0.5f;
		f.falloff = (float)(kind % 3) * 0.5f;
		f.minimumRadius = 10;
		dkFieldId id;
		must(dkWorld_CreateField(w, &f, &id, &e), &e, "dkWorld_CreateField");
		// Each field acts on an interleaved quarter of the items, inside a circle minus a rectangle.
		dkItemId members[100];
		for (int i = 0; i < 100; ++i) members[i] = ids[(i * 4 + kind) % 400];
		must(dkWorld_SetFieldMembers(w, id, members, 100, true, &e), &e, "dkWorld_SetFieldMembers");
		dkRegionInstr region[3] = {{dkRegionCircle, 600, 0}, {dkRegionRectangle, 30, 400}, {dkRegionDifference, 0, 0}};
		must(dkWorld_SetFieldRegion(w, id, region, 3, &e), &e, "dkWorld_SetFieldRegion");
	}
}

typedef struct Scene {
	const char* name;
	void (*build)(dkWorld*);
	int32_t steps;
} Scene;

// Poses and velocities after the scene, bit for bit (6 floats per item).
static float* run(const Scene* scene, dkSimdLevel limit, int32_t workers, dkIntegrator integrator, int32_t* count,
				  dkSimdLevel* used, bool serial)
{
	dkWorld* w = makeHostWorld(limit, workers, integrator, serial);
	scene->build(w);
	step(w, scene->steps);
	int32_t n = dkWorld_ItemCount(w);
	float* out = malloc((size_t)n * 6 * sizeof(float));
	if (!out) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	dkWorld_PackPoses(w, out);
	for (int32_t c = 0; c < 3; ++c)
		memcpy(out + (size_t)n * (size_t)(3 + c), dkWorld_Column(w, (dkColumn)(dkColumnVelocityX + c)), (size_t)n * sizeof(float));
	*count = n;
	if (used) *used = dkWorld_SimdLevel(w);
	dkWorld_Destroy(w);
	return out;
}

static int32_t firstDifference(const float* a, const float* b, int32_t n)
{
	for (int32_t i = 0; i < n; ++i)
		if (memcmp(&a[i], &b[i], sizeof(float)) != 0) return i;
	return -1;
}

static void compareScene(Report* r, const Scene* scene, dkIntegrator integrator, const char* label)
{
	int32_t n, n2, n3;
	dkSimdLevel used;
	int32_t n4;
	float* scalar = run(scene, dkSimdScalar, 1, integrator, &n, NULL, false);
	float* wide = run(scene, dkSimdAVX512, 1, integrator, &n2, &used, false);
	float* twoWorkers = run(scene, dkSimdAVX512, 2, integrator, &n3, NULL, false);
	float* oneByOne = run(scene, dkSimdAVX512, 2, integrator, &n4, NULL, true);
	char what[160], detail[200] = "";
	snprintf(what, sizeof what, "%s%s: %s equals scalar bitwise (%d items, %d steps)", scene->name, label,
			 dkSimdLevelName(used), n, scene->steps);
	int32_t at = n == n2 ? firstDifference(scalar, wide, 6 * n) : 0;
	if (at >= 0) snprintf(detail, sizeof detail, "float %d: %.9g vs %.9g", at, scalar[at], wide[at]);
	check(r, at < 0, what, detail);
	uint64_t hash = 1469598103934665603u; // FNV-1a of the bits, to compare machines by eye
	for (size_t i = 0; i < (size_t)n * 6 * sizeof(float); ++i) hash = (hash ^ ((const unsigned char*)wide)[i]) * 1099511628211u;
	if (r->states < MAX_STATES) {
		snprintf(r->stateName[r->states], sizeof r->stateName[0], "%s%s", scene->name, label);
		r->stateHash[r->states++] = (unsigned long long)hash;
	}
	snprintf(what, sizeof what, "%s%s: 2 workers equal 1 worker bitwise", scene->name, label);
	at = n == n3 ? firstDifference(wide, twoWorkers, 6 * n) : 0;
	detail[0] = 0;
	if (at >= 0) snprintf(detail, sizeof detail, "float %d: %.9g vs %.9g", at, wide[at], twoWorkers[at]);
	check(r, at < 0, what, detail);
	snprintf(what, sizeof what, "%s%s: 2 workers run one after another equal 1 worker bitwise", scene->name, label);
	at = n == n4 ? firstDifference(wide, oneByOne, 6 * n) : 0;
	detail[0] = 0;
	if (at >= 0) snprintf(detail, sizeof detail, "float %d: %.9g vs %.9g", at, wide[at], oneByOne[at]);
	check(r, at < 0, what, detail);
	// Something happened: the scene is not at rest where it started.
	double moved = 0;
	for (int32_t i = 0; i < n; ++i) moved += fabs(scalar[3 * n + i]) + fabs(scalar[4 * n + i]);
	snprintf(what, sizeof what, "%s%s: items move", scene->name, label);
	snprintf(detail, sizeof detail, "Σ|v| = %.3g pt/s", moved);
	check(r, moved > 1.0, what, moved > 1.0 ? "" : detail);
	free(scalar), free(wide), free(twoWorkers), free(oneByOne);
}

// ---- Across machines ------------------------------------------------------------------------------------

int writeStates(const Report* r, const char* path)
{
	FILE* f = fopen(path, "w");
	if (!f) return 0;
	for (int i = 0; i < r->states; ++i) fprintf(f, "%016llx %s\n", r->stateHash[i], r->stateName[i]);
	return fclose(f) == 0;
}

void compareStates(Report* r, const char* path)
{
	FILE* f = fopen(path, "r");
	if (!f) {
		check(r, 0, "the other machine's states can be read", path);
		return;
	}
	char name[64], detail[160];
	unsigned long long hash;
	int compared = 0;
	while (fscanf(f, "%llx %63[^\n]", &hash, name) == 2) {
		if (strstr(name, "BLAS")) continue; // the BLAS library's rounding, not ours
		for (int i = 0; i < r->states; ++i) {
			if (strcmp(name, r->stateName[i]) != 0) continue;
			char what[120];
			snprintf(what, sizeof what, "%s: the same bits as the other machine", name);
			snprintf(detail, sizeof detail, "%016llx here, %016llx there", r->stateHash[i], hash);
			check(r, r->stateHash[i] == hash, what, r->stateHash[i] == hash ? "" : detail);
			compared++;
		}
	}
	fclose(f);
	snprintf(detail, sizeof detail, "%d of %d", compared, r->states - 1);
	check(r, compared == r->states - 1, "every state but the BLAS integrator's was compared", detail);
}

// Every scene at the scalar level, the best level, two workers and two workers one after another; the
// fields scene with each integrator.
void checkScenes(Report* r)
{
	const Scene scenes[] = {{"pyramid", pyramid, 120}, {"funnel", funnel, 150}, {"joints", joints, 120}};
	for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; ++s) compareScene(r, &scenes[s], dkIntegratorFused, "");
	const Scene field = {"fields", fields, 60};
	compareScene(r, &field, dkIntegratorFused, " (fused)");
	compareScene(r, &field, dkIntegratorBLAS, " (BLAS)");
	compareScene(r, &field, dkIntegratorScalar, " (scalar integrator)");
}
