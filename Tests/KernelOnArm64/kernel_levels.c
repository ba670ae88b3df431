// SPDX-License-Identifier: Apache-2.0
// The C kernel on another architecture. `make test-arm64` builds the kernel and this program twice, for
// this machine and for arm64, runs the first natively (`--write-states FILE`) and the second under
// qemu-aarch64 (`--compare-states FILE`), so the NEON path, which the x86 machines we test on never take,
// is checked on every CI run, and so is the claim that a state's bits do not depend on the CPU.
//
// Checks, each against the scalar level in the same run, the other machine's run, or a law:
//   - the best SIMD level is the one the architecture promises (NEON on arm64);
//   - six scene runs (a box pyramid, balls and boxes in a V, joints, every field kind with each of the
//     three integrators) give bitwise-identical poses and velocities at the best level and at the scalar
//     level, and with one or two workers, also when the host runs the two workers one after another;
//   - with --compare-states: the same bits as the other machine's run, except the BLAS integrator's,
//     which depend on the BLAS library (Debian's reference BLAS fuses multiply-adds on arm64);
//   - the column oracles (integration, rest detection, pose packing) agree bitwise between levels;
//   - the kernel's sine and cosine (trig.h) are correctly rounded, against long double sinl and cosl;
//   - the radix sort (radix_sort.c) orders keys and payloads as a stable sort does, against qsort;
//   - the constraint colouring (constraint_graph.c) is the greedy colouring, against a brute-force one,
//     overflow group included;
//   - the separating-axis test of two boxes (four edges in vector lanes, manifold.c) gives the bits and
//     the edge of the scalar definition;
//   - the narrowphase (dkCollide) for each pair of shape kinds (box–box, box–circle, circle–circle,
//     segment–circle, segment–box, a chained segment's joint): the number of points (at most 2), the
//     normal and each separation against closed forms; two-point manifolds have distinct feature ids that
//     survive a 1 pt shift; a resting box keeps its points' ids from step to step, and their warm-started
//     impulses carry its weight (m·g·h per substep);
//   - free fall follows the semi-implicit Euler law, and a resting 10-box column sinks by the soft-contact
//     law 115.625·g/ω² (Units and semantics, §Contacts: Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md; as
//     CollisionTests.contactLaw) within 1 %.
// Prints one line per check and exits non-zero when any fails.
#include "DynamicsKernel.h"
#include "collision.h" // internal: built with -ICSources/DynamicsKernel
#include "constraint_graph.h"
#include "radix_sort.h"
#include "trig.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G 1000.0f // pt/s²: GravityBehavior magnitude 1
#define FLOOR 2000.0f

#define MAX_STATES 16

typedef struct Report {
	int failures, checks;
	int states;
	char stateName[MAX_STATES][64];
	unsigned long long stateHash[MAX_STATES];
} Report;

static void check(Report* r, int ok, const char* what, const char* detail)
{
	r->checks++;
	if (!ok) r->failures++;
	printf("%s  %s%s%s\n", ok ? "ok  " : "FAIL", what, detail[0] ? ": " : "", detail);
}

// Runs the kernel's tasks on real threads, one per worker.
typedef struct TaskCall {
	dkTaskFn* task;
	void* context;
	int32_t worker;
} TaskCall;

static void* runOne(void* p)
{
	TaskCall* call = p;
	call->task(call->context, call->worker);
	return NULL;
}

// A host that runs every worker on real threads; with a non-null host context, one after another on the
// caller's thread, last worker first: the kernel must not wait for a worker to arrive.
static void runTasks(dkTaskFn* task, void* context, int32_t workers, void* host)
{
	if (host) {
		for (int32_t w = workers - 1; w >= 0; --w) task(context, w);
		return;
	}
	pthread_t threads[8];
	TaskCall calls[8];
	int32_t n = workers < 8 ? workers : 8;
	for (int32_t w = 0; w < n; ++w) calls[w] = (TaskCall){task, context, w};
	for (int32_t w = 1; w < n; ++w) pthread_create(&threads[w], NULL, runOne, &calls[w]);
	runOne(&calls[0]);
	for (int32_t w = 1; w < n; ++w) pthread_join(threads[w], NULL);
}

static int serialHost; // its address marks a world whose host runs workers one after another

static dkWorld* makeHostWorld(dkSimdLevel limit, int32_t workers, dkIntegrator integrator, bool serial)
{
	dkWorldDef def = dkDefaultWorldDef();
	def.simdLimit = limit;
	def.workerCount = workers;
	def.integrator = integrator;
	def.restEnabled = false;
	def.runTasks = runTasks;
	def.hostContext = serial ? &serialHost : NULL;
	dkWorld* world = dkWorld_Create(&def, NULL);
	if (!world) {
		fprintf(stderr, "dkWorld_Create failed\n");
		exit(2);
	}
	return world;
}

static dkWorld* makeWorld(dkSimdLevel limit, int32_t workers, dkIntegrator integrator)
{
	return makeHostWorld(limit, workers, integrator, false);
}

static void must(dkResult result, const dkError* error, const char* call)
{
	if (result == dkResultOK) return;
	fprintf(stderr, "%s failed: code %d, field %s, value %g\n", call, (int)result,
			error && error->field ? error->field : "?", error ? error->value : 0.0);
	exit(2);
}

static dkItemId item(dkWorld* w, dkShapeKind shape, float x, float y, float angle, float width, float height,
					 float elasticity)
{
	dkItemDef def = dkDefaultItemDef();
	def.shape = shape;
	def.width = width;
	def.height = height;
	def.friction = 0.6f;
	def.elasticity = elasticity;
	dkItemId id;
	dkError e;
	must(dkWorld_CreateItems(w, &def, &x, &y, &angle, 1, &id, &e), &e, "dkWorld_CreateItems");
	must(dkWorld_FillFloats(w, dkColumnGravityY, &id, G, 1, &e), &e, "dkWorld_FillFloats");
	return id;
}

static dkItemId box(dkWorld* w, float x, float y, float angle, float width, float height)
{
	dkItemId id = item(w, dkShapeRectangle, x, y, angle, width, height, 0.0f);
	dkShapeDef s = dkDefaultShapeDef();
	s.item = id;
	s.kind = dkGeometryPolygon;
	s.count = 4;
	float hx = width / 2, hy = height / 2;
	float xs[4] = {-hx, hx, hx, -hx}, ys[4] = {-hy, -hy, hy, hy};
	memcpy(s.x, xs, sizeof xs);
	memcpy(s.y, ys, sizeof ys);
	dkShapeId sid;
	dkError e;
	must(dkWorld_CreateShape(w, &s, &sid, &e), &e, "dkWorld_CreateShape");
	return id;
}

static dkItemId ball(dkWorld* w, float x, float y, float diameter, float elasticity)
{
	dkItemId id = item(w, dkShapeEllipse, x, y, 0.0f, diameter, diameter, elasticity);
	dkShapeDef s = dkDefaultShapeDef();
	s.item = id;
	s.kind = dkGeometryCircle;
	s.count = 1;
	s.radius = diameter / 2;
	dkShapeId sid;
	dkError e;
	must(dkWorld_CreateShape(w, &s, &sid, &e), &e, "dkWorld_CreateShape");
	return id;
}

static void segment(dkWorld* w, float x0, float y0, float x1, float y1)
{
	dkShapeDef s = dkDefaultShapeDef();
	s.kind = dkGeometrySegment;
	s.count = 2;
	s.x[0] = x0, s.y[0] = y0, s.x[1] = x1, s.y[1] = y1;
	dkShapeId sid;
	dkError e;
	must(dkWorld_CreateShape(w, &s, &sid, &e), &e, "dkWorld_CreateShape");
}

static void step(dkWorld* w, int32_t steps)
{
	dkError e;
	for (int32_t i = 0; i < steps; ++i) must(dkWorld_Step(w, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
}

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
	dkJointId ids[3];
	must(dkWorld_CreateJoints(w, defs, 3, ids, &e), &e, "dkWorld_CreateJoints");
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

// ---- Column oracles ------------------------------------------------------------------------------------

typedef struct Columns {
	float data[dkColumnPublicCount][256];
	uint32_t flags[256];
	dkColumnSet set;
} Columns;

static void fillColumns(Columns* c)
{
	uint32_t state = 12345;
	for (int f = 0; f < dkColumnPublicCount; ++f) {
		for (int i = 0; i < 256; ++i) {
			state = state * 1664525u + 1013904223u;
			c->data[f][i] = (float)(state >> 8) / 16777216.0f * 20.0f - 10.0f;
		}
		c->set.column[f] = c->data[f];
	}
	for (int i = 0; i < 256; ++i) {
		c->data[dkColumnInverseMass][i] = fabsf(c->data[dkColumnInverseMass][i]) + 0.1f;
		c->data[dkColumnInverseInertia][i] = fabsf(c->data[dkColumnInverseInertia][i]) * 1e-3f;
		c->data[dkColumnMass][i] = 1.0f / c->data[dkColumnInverseMass][i];
		c->data[dkColumnLinearDamping][i] = fabsf(c->data[dkColumnLinearDamping][i]);
		c->data[dkColumnAngularDamping][i] = fabsf(c->data[dkColumnAngularDamping][i]);
		c->data[dkColumnSnapOmega][i] = (i % 5 == 0) ? 15.7f : 0.0f;
		c->data[dkColumnSnapZeta][i] = 0.5f;
		c->data[dkColumnSleepTime][i] = 0.0f;
		c->flags[i] = (i % 17 == 0) ? dkItemFixedRotation : 0u;
	}
	c->set.flags = c->flags;
	c->set.count = 253; // not a multiple of any width: the tails run too
}

static void compareColumns(Report* r, dkSimdLevel best)
{
	static Columns a, b; // 2 × 32 KiB: off the stack
	for (int integrator = 0; integrator < 3; ++integrator) {
		fillColumns(&a);
		fillColumns(&b);
		dkError e;
		must(dkIntegrateColumns(&a.set, (dkIntegrator)integrator, dkSimdScalar, 1.0f / 60.0f, 4, &e), &e, "dkIntegrateColumns");
		must(dkIntegrateColumns(&b.set, (dkIntegrator)integrator, best, 1.0f / 60.0f, 4, &e), &e, "dkIntegrateColumns");
		int same = memcmp(a.data, b.data, sizeof a.data) == 0;
		char what[120];
		snprintf(what, sizeof what, "integration oracle (integrator %d): %s equals scalar bitwise", integrator, dkSimdLevelName(best));
		check(r, same, what, "");
	}
	// Every other item is slow (speed below 5 pt/s, spin below 2°/s) and has been still for 0.49 s, so one
	// more step of 1/60 s puts it past the 0.5 s rest time; the others start over.
	Columns* both[2] = {&a, &b};
	int32_t resting[2];
	for (int k = 0; k < 2; ++k) {
		fillColumns(both[k]);
		for (int i = 0; i < 256; ++i) {
			float slow = (i % 2) ? 1.0f : 0.3f;
			both[k]->data[dkColumnVelocityX][i] *= slow;
			both[k]->data[dkColumnVelocityY][i] *= slow;
			both[k]->data[dkColumnAngularVelocity][i] *= (i % 2) ? 1.0f : 0.003f;
			both[k]->data[dkColumnSleepTime][i] = 0.49f;
		}
		resting[k] = dkDetectRestColumns(&both[k]->set, k == 0 ? dkSimdScalar : best, 1.0f / 60.0f, 5.0f, 0.0349f, 0.5f);
	}
	char detail[80];
	snprintf(detail, sizeof detail, "%d vs %d of 253 items at rest", resting[0], resting[1]);
	check(r, resting[0] == resting[1] && resting[0] > 50 && resting[0] < 200 && memcmp(a.data, b.data, sizeof a.data) == 0,
		  "rest detection oracle agrees bitwise", detail);
	float packA[3 * 256], packB[3 * 256];
	dkPackPosesColumns(&a.set, dkSimdScalar, packA);
	dkPackPosesColumns(&a.set, best, packB);
	check(r, memcmp(packA, packB, 3 * 253 * sizeof(float)) == 0, "pose packing oracle agrees bitwise", "");
}

// ---- Across machines ------------------------------------------------------------------------------------

static int writeStates(const Report* r, const char* path)
{
	FILE* f = fopen(path, "w");
	if (!f) return 0;
	for (int i = 0; i < r->states; ++i) fprintf(f, "%016llx %s\n", r->stateHash[i], r->stateName[i]);
	return fclose(f) == 0;
}

static void compareStates(Report* r, const char* path)
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

// ---- Sorting -------------------------------------------------------------------------------------------

typedef struct KeyAt {
	uint64_t key;
	int32_t at;
} KeyAt;

static int byKeyThenPlace(const void* a, const void* b)
{
	const KeyAt *x = a, *y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

// The radix sort against qsort on (key, original place), which is the one stable order: keys with many
// repeats in every digit width the broadphase uses (packed cells, packed pairs, full 64 bits), keys that
// differ only in their top digit, all keys equal, and one key.
static void sorts(Report* r)
{
	const int32_t n = 50000;
	uint64_t* keys = malloc((size_t)n * sizeof(uint64_t));
	int32_t* payload = malloc((size_t)n * sizeof(int32_t));
	KeyAt* expected = malloc((size_t)n * sizeof(KeyAt));
	if (!keys || !payload || !expected) {
		check(r, 0, "memory for the sort check", "");
		return;
	}
	const struct { const char* name; int bits; int32_t count; } cases[] = {
		{"20-bit keys", 20, n}, {"34-bit keys", 34, n}, {"64-bit keys", 64, n}, {"top digit only", -1, n},
		{"equal keys", 0, n}, {"one key", 64, 1}};
	uint64_t state = 12345;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
		int32_t count = cases[c].count;
		for (int32_t i = 0; i < count; ++i) {
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t v = (state >> 20) % 3000; // repeats: 3 000 distinct values spread over the bits
			uint64_t key = cases[c].bits < 0 ? v << 52 : cases[c].bits == 0 ? 7 : cases[c].bits == 64 ? v * 0x9e3779b97f4a7c15ull : (v * 0x9e3779b97f4a7c15ull) >> (64 - cases[c].bits);
			keys[i] = key;
			payload[i] = i;
			expected[i] = (KeyAt){key, i};
		}
		qsort(expected, (size_t)count, sizeof(KeyAt), byKeyThenPlace);
		bool sorted = dkRadixSort64(keys, payload, count);
		int32_t wrong = 0;
		for (int32_t i = 0; i < count; ++i) wrong += keys[i] != expected[i].key || payload[i] != expected[i].at;
		char what[96], detail[64];
		snprintf(what, sizeof what, "the radix sort is a stable sort (%s)", cases[c].name);
		snprintf(detail, sizeof detail, "%d of %d places differ", wrong, count);
		check(r, sorted && wrong == 0, what, detail);
	}
	free(keys);
	free(payload);
	free(expected);
}

// The constraint colouring against the greedy colouring found by brute force: in order, each constraint
// takes the lowest colour in which no earlier constraint shares a moving row (-1 never conflicts), or the
// overflow group when all DK_GRAPH_COLOURS are taken. Cases: random constraints among 300 rows with a
// quarter of the sides not moving, a hub row in 40 constraints (16 overflow), and no moving rows at all.
static void colourings(Report* r)
{
	enum { count = 2000, rows = 300 };
	static int32_t rowA[count], rowB[count], order[count], colour[count], expected[count];
	const char* names[] = {"random constraints", "a hub in 40 constraints", "no moving rows"};
	uint32_t state = 7;
	for (int c = 0; c < 3; ++c) {
		int32_t n = c == 1 ? 40 : count;
		for (int32_t k = 0; k < n; ++k) {
			state = state * 1664525u + 1013904223u;
			int32_t a = (int32_t)(state >> 8) % rows, b = (int32_t)(state >> 20) % rows;
			if (c == 1) { // every constraint shares row 0
				rowA[k] = 0;
				rowB[k] = 1 + k;
			} else {
				rowA[k] = c == 2 || (state & 3) == 0 ? -1 : a;
				rowB[k] = c == 2 || (state & 12) == 0 || b == a ? -1 : b;
			}
		}
		int32_t starts[DK_GRAPH_COLOURS + 2], expectedStarts[DK_GRAPH_COLOURS + 2] = {0};
		for (int32_t k = 0; k < n; ++k) {
			int32_t q = 0;
			for (; q < DK_GRAPH_COLOURS; ++q) {
				bool clash = false;
				for (int32_t j = 0; j < k && !clash; ++j)
					clash = colour[j] == q && ((rowA[k] >= 0 && (rowA[k] == rowA[j] || rowA[k] == rowB[j])) ||
											   (rowB[k] >= 0 && (rowB[k] == rowA[j] || rowB[k] == rowB[j])));
				if (!clash) break;
			}
			colour[k] = q;
			expectedStarts[q + 1]++;
		}
		for (int32_t q = 0; q <= DK_GRAPH_COLOURS; ++q) expectedStarts[q + 1] += expectedStarts[q];
		int32_t fill[DK_GRAPH_COLOURS + 1];
		memcpy(fill, expectedStarts, sizeof fill);
		for (int32_t k = 0; k < n; ++k) expected[fill[colour[k]]++] = k;
		bool ok = dkGraph_Colour(rowA, rowB, n, rows, order, starts);
		int32_t wrong = 0;
		for (int32_t k = 0; k < n; ++k) wrong += order[k] != expected[k];
		for (int32_t q = 0; q <= DK_GRAPH_COLOURS + 1; ++q) wrong += starts[q] != expectedStarts[q];
		int32_t used = 0, overflow = expectedStarts[DK_GRAPH_COLOURS + 1] - expectedStarts[DK_GRAPH_COLOURS];
		for (int32_t q = 0; q < DK_GRAPH_COLOURS; ++q) used += expectedStarts[q + 1] > expectedStarts[q];
		char what[96], detail[96];
		snprintf(what, sizeof what, "the constraint colouring is the greedy one (%s)", names[c]);
		snprintf(detail, sizeof detail, "%d places differ; %d colours, %d in overflow", wrong, used, overflow);
		check(r, ok && wrong == 0 && (c != 1 || overflow == 16), what, detail);
	}
}

// A box of half-extents (w, h) at (x, y), turned by `angle`, placed as the narrowphase sees it.
static dkPlaced placedBox(float x, float y, float w, float h, float angle)
{
	dkPlaced p = {.kind = dkGeometryPolygon, .count = 4};
	float c = cosf(angle), s = sinf(angle);
	const float lx[4] = {-w, w, w, -w}, ly[4] = {-h, -h, h, h}, nx[4] = {0, 1, 0, -1}, ny[4] = {-1, 0, 1, 0};
	for (int i = 0; i < 4; ++i) {
		p.x[i] = x + (c * lx[i] - s * ly[i]);
		p.y[i] = y + (s * lx[i] + c * ly[i]);
		p.nx[i] = c * nx[i] - s * ny[i];
		p.ny[i] = s * nx[i] + c * ny[i];
	}
	return p;
}

// dkMaxSeparation of two boxes against its definition, one edge and one vertex at a time: random boxes
// near each other (overlapping, touching, apart), a box against itself, and axis-aligned boxes in
// contact along an edge (ties between edges and zeros of either sign).
static void separations(Report* r)
{
	uint32_t state = 4242;
	int32_t wrong = 0, cases = 0;
	for (int k = 0; k < 20000; ++k) {
		float u[8];
		for (int i = 0; i < 8; ++i) {
			state = state * 1664525u + 1013904223u;
			u[i] = (float)(state >> 8) / 16777216.0f;
		}
		dkPlaced a, b;
		if (k % 10 == 0) { // a box against itself
			a = b = placedBox(u[0] * 50, u[1] * 50, 1 + u[2] * 60, 1 + u[3] * 60, u[4] * 6.3f);
		} else if (k % 10 == 1) { // resting on each other, axis-aligned, maybe shifted sideways
			a = placedBox(0, 0, 50, 50, 0);
			b = placedBox(floorf(u[0] * 8) * 12.5f - 50, 100, 50, 50, 0);
		} else {
			a = placedBox(0, 0, 1 + u[0] * 60, 1 + u[1] * 60, u[2] * 6.3f);
			b = placedBox((u[3] - 0.5f) * 200, (u[4] - 0.5f) * 200, 1 + u[5] * 60, 1 + u[6] * 60, u[7] * 6.3f);
		}
		for (int side = 0; side < 2; ++side) {
			const dkPlaced *p = side ? &b : &a, *q = side ? &a : &b;
			float best = -INFINITY;
			int32_t bestEdge = 0, edge = -1;
			for (int32_t i = 0; i < 4; ++i) {
				float si = INFINITY;
				for (int32_t j = 0; j < 4; ++j) {
					float d = p->nx[i] * (q->x[j] - p->x[i]) + p->ny[i] * (q->y[j] - p->y[i]);
					if (d < si) si = d;
				}
				if (si > best) {
					best = si;
					bestEdge = i;
				}
			}
			float got = dkMaxSeparation(p, q, &edge);
			wrong += memcmp(&got, &best, sizeof got) != 0 || edge != bestEdge;
			cases++;
		}
	}
	char detail[64];
	snprintf(detail, sizeof detail, "%d of %d differ", wrong, cases);
	check(r, wrong == 0, "the box separating-axis test equals its scalar definition", detail);
}

// ---- Manifolds -----------------------------------------------------------------------------------------

static dkPlaced placedCircle(float x, float y, float radius)
{
	dkPlaced p = {.kind = dkGeometryCircle, .count = 1, .radius = radius};
	p.x[0] = x, p.y[0] = y;
	return p;
}

static dkPlaced placedSegment(float x0, float y0, float x1, float y1, uint32_t chain)
{
	dkPlaced p = {.kind = dkGeometrySegment, .count = 2, .chain = chain};
	float ex = x1 - x0, ey = y1 - y0, len = sqrtf(ex * ex + ey * ey);
	p.x[0] = x0, p.y[0] = y0, p.x[1] = x1, p.y[1] = y1;
	p.nx[0] = ey / len, p.ny[0] = -ex / len, p.nx[1] = -p.nx[0], p.ny[1] = -p.ny[0];
	return p;
}

// One pair of shape kinds against its closed form: the number of points, the normal (from A to B) and
// each point's separation; and, for two points, that their feature ids differ and survive a 1 pt shift.
static void expectManifold(Report* r, const char* what, dkPlaced a, dkPlaced b, int32_t count, float nx, float ny,
						   float separation)
{
	dkManifold m, shifted;
	dkCollide(&a, &b, DK_SPECULATIVE_DISTANCE, &m);
	bool ok = m.count == count;
	for (int32_t i = 0; i < m.count && ok; ++i) ok = fabsf(m.points[i].separation - separation) < 1e-3f;
	if (count > 0) ok = ok && fabsf(m.nx - nx) < 1e-5f && fabsf(m.ny - ny) < 1e-5f;
	if (ok && count == 2) {
		for (int32_t i = 0; i < b.count; ++i) b.x[i] += 1.0f;
		dkCollide(&a, &b, DK_SPECULATIVE_DISTANCE, &shifted);
		ok = m.points[0].id != m.points[1].id && shifted.count == 2 && shifted.points[0].id == m.points[0].id &&
			 shifted.points[1].id == m.points[1].id;
	}
	char detail[160];
	snprintf(detail, sizeof detail, "%d points, normal (%.5f, %.5f), separations %.4f %.4f, ids %u %u", m.count, m.nx,
			 m.ny, m.count > 0 ? m.points[0].separation : 0, m.count > 1 ? m.points[1].separation : 0,
			 m.count > 0 ? m.points[0].id : 0, m.count > 1 ? m.points[1].id : 0);
	check(r, ok, what, ok ? "" : detail);
}

static void manifolds(Report* r)
{
	const float k = 0.70710678f; // cos 45°
	// Boxes of half-extent 50 (y down: B below A means B at larger y).
	expectManifold(r, "box on box, faces 1 pt deep: 2 points", placedBox(0, 0, 50, 50, 0), placedBox(10, 99, 50, 50, 0),
				   2, 0, 1, -1);
	expectManifold(r, "box corner 0.5 pt from a face: 1 point", placedBox(0, 0, 50, 50, 0),
				   placedBox(0, 50.5f + 50 * sqrtf(2), 50, 50, 0.78539816f), 1, 0, 1, 0.5f);
	expectManifold(r, "boxes 3 pt apart, beyond the 2 pt speculative distance: none", placedBox(0, 0, 50, 50, 0),
				   placedBox(0, 103, 50, 50, 0), 0, 0, 0, 0);
	expectManifold(r, "circle on a box face: 1 point", placedBox(0, 0, 50, 50, 0), placedCircle(20, 74, 25), 1, 0, 1, -1);
	expectManifold(r, "circle at a box corner: 1 point along the diagonal", placedBox(0, 0, 50, 50, 0),
				   placedCircle(50 + 24 * k, 50 + 24 * k, 25), 1, k, k, -1);
	expectManifold(r, "circle against circle: 1 point", placedCircle(0, 0, 25), placedCircle(54 * 0.6f, 54 * 0.8f, 30), 1,
				   0.6f, 0.8f, -1);
	expectManifold(r, "circle on a segment: 1 point", placedSegment(-100, 0, 100, 0, 0), placedCircle(30, 24, 25), 1, 0,
				   1, -1);
	expectManifold(r, "box on a segment: 2 points", placedSegment(-100, 0, 100, 0, 0), placedBox(0, 49.5f, 50, 50, 0), 2,
				   0, 1, -0.5f);
	expectManifold(r, "box over a chained segment's joint: its face, 2 points",
				   placedSegment(-100, 0, 0, 0, dkChainNext), placedBox(20, 49, 50, 50, 0), 2, 0, 1, -1);
	// Warm starting: a box at rest on a floor keeps both points (same ids) from step to step, and their
	// accumulated impulses carry its weight: m·g·h = 1 · 1000 · (1/240) N·s per substep.
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	segment(w, -1000, FLOOR, 1000, FLOOR);
	box(w, 0, FLOOR - 50, 0, 100, 100);
	step(w, 120);
	dkManifold before = w->contactCount == 1 ? w->contacts[0].manifold : (dkManifold){0};
	step(w, 1);
	dkManifold after = w->contactCount == 1 ? w->contacts[0].manifold : (dkManifold){0};
	float load = after.points[0].normalImpulse + after.points[1].normalImpulse, weight = G / 240.0f;
	bool ok = before.count == 2 && after.count == 2 && before.points[0].id == after.points[0].id &&
			  before.points[1].id == after.points[1].id && fabsf(load - weight) < 0.01f * weight;
	char detail[120];
	snprintf(detail, sizeof detail, "%d then %d points, ids %u %u then %u %u, impulse %.5f of %.5f", before.count,
			 after.count, before.points[0].id, before.points[1].id, after.points[0].id, after.points[1].id, load, weight);
	check(r, ok, "a resting box keeps its points' ids and impulses carry its weight", ok ? "" : detail);
	dkWorld_Destroy(w);
}

// ---- Laws ----------------------------------------------------------------------------------------------

static void laws(Report* r)
{
	char detail[160];
	// The kernel's sine and cosine against long double on angles spread over ±1000 rad (most of them not
	// near a multiple of π/2) and near multiples of π/2, where the reduction matters most.
	int wrong = 0, samples = 0;
	uint32_t state = 99;
	for (int i = 0; i < 200000; ++i) {
		state = state * 1664525u + 1013904223u;
		float u = (float)(state >> 8) / 16777216.0f * 2.0f - 1.0f;
		float x = (i % 4 == 0) ? 1.5707963267948966f * (float)(int)(u * 600.0f) * (1.0f + 1e-7f * u) : u * 1000.0f;
		float sn, cs;
		dkSinCos(x, &sn, &cs);
		wrong += sn != (float)sinl((long double)x) || cs != (float)cosl((long double)x);
		samples++;
	}
	snprintf(detail, sizeof detail, "%d of %d angles off", wrong, samples);
	check(r, wrong == 0, "the kernel's sine and cosine are correctly rounded", detail);
	// Free fall for 1 s in 240 substeps of semi-implicit Euler: y = g·h²·n(n+1)/2 = 502.083 pt.
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	dkItemId id = item(w, dkShapeRectangle, 0, 0, 0, 10, 10, 0);
	step(w, 60);
	int32_t row;
	dkWorld_DenseIndices(w, &id, 1, &row);
	double fell = dkWorld_Column(w, dkColumnPositionY)[row], law = G * 241.0 / 480.0;
	snprintf(detail, sizeof detail, "fell %.4f pt, law %.4f pt", fell, law);
	check(r, fabs(fell - law) < 1e-4 * law, "free fall for 1 s follows semi-implicit Euler", detail);
	dkWorld_Destroy(w);
	// A resting column of 10 boxes on a floor: the top sinks 115.625·g/ω² at 30 Hz (CollisionTests.contactLaw).
	w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	segment(w, -1000, FLOOR, 1000, FLOOR);
	dkItemId top = {0, 0};
	for (int i = 0; i < 10; ++i) top = box(w, 0, FLOOR - 50 - 100.0f * (float)i, 0, 100, 100);
	step(w, 300);
	dkWorld_DenseIndices(w, &top, 1, &row);
	double omega = 2 * 3.14159265358979 * 30, predicted = 115.625 * G / (omega * omega);
	double sink = dkWorld_Column(w, dkColumnPositionY)[row] - (FLOOR - 950);
	snprintf(detail, sizeof detail, "sank %.4f pt, law %.4f pt", sink, predicted);
	check(r, fabs(sink - predicted) < 0.01 * predicted, "a 10-box column sinks by the soft-contact law", detail);
	dkWorld_Destroy(w);
}

int main(int argc, char** argv)
{
	if (argc != 1 && !(argc == 3 && (!strcmp(argv[1], "--write-states") || !strcmp(argv[1], "--compare-states")))) {
		fprintf(stderr, "usage: %s [--write-states FILE | --compare-states FILE]\n", argv[0]);
		return 2;
	}
	static Report r; // zeroed
	dkSimdLevel best = dkCpuBestSimdLevel();
	char detail[80];
	snprintf(detail, sizeof detail, "best level %s", dkSimdLevelName(best));
#if defined(__aarch64__)
	check(&r, best == dkSimdNEON, "arm64 takes the NEON kernels", detail);
#else
	check(&r, best != dkSimdScalar, "this CPU has a wide level", detail);
#endif
	printf("BLAS: %s\n", dkBlasLibraryPath());
	const Scene scenes[] = {{"pyramid", pyramid, 120}, {"funnel", funnel, 150}, {"joints", joints, 120}};
	for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; ++s) compareScene(&r, &scenes[s], dkIntegratorFused, "");
	const Scene field = {"fields", fields, 60};
	compareScene(&r, &field, dkIntegratorFused, " (fused)");
	compareScene(&r, &field, dkIntegratorBLAS, " (BLAS)");
	compareScene(&r, &field, dkIntegratorScalar, " (scalar integrator)");
	compareColumns(&r, best);
	sorts(&r);
	colourings(&r);
	separations(&r);
	manifolds(&r);
	laws(&r);
	if (argc == 3 && !strcmp(argv[1], "--compare-states")) compareStates(&r, argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--write-states")) check(&r, writeStates(&r, argv[2]), "states written", argv[2]);
	printf("%d of %d checks passed\n", r.checks - r.failures, r.checks);
	return r.failures == 0 ? 0 : 1;
}
