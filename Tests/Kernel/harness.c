// SPDX-License-Identifier: Apache-2.0
// What every check shares: the report, a host that runs the kernel's tasks on real threads, worlds at a
// chosen SIMD level, and builders for items and floors.
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void check(Report* r, int ok, const char* what, const char* detail)
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

dkWorld* makeHostWorld(dkSimdLevel limit, int32_t workers, dkIntegrator integrator, bool serial)
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

dkWorld* makeWorld(dkSimdLevel limit, int32_t workers, dkIntegrator integrator)
{
	return makeHostWorld(limit, workers, integrator, false);
}

void must(dkResult result, const dkError* error, const char* call)
{
	if (result == dkResultOK) return;
	fprintf(stderr, "%s failed: code %d, field %s, value %g\n", call, (int)result,
			error && error->field ? error->field : "?", error ? error->value : 0.0);
	exit(2);
}

dkItemId item(dkWorld* w, dkShapeKind shape, float x, float y, float angle, float width, float height,
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

dkItemId box(dkWorld* w, float x, float y, float angle, float width, float height)
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

dkItemId ball(dkWorld* w, float x, float y, float diameter, float elasticity)
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

dkShapeId segment(dkWorld* w, float x0, float y0, float x1, float y1)
{
	dkShapeDef s = dkDefaultShapeDef();
	s.kind = dkGeometrySegment;
	s.count = 2;
	s.x[0] = x0, s.y[0] = y0, s.x[1] = x1, s.y[1] = y1;
	dkShapeId sid;
	dkError e;
	must(dkWorld_CreateShape(w, &s, &sid, &e), &e, "dkWorld_CreateShape");
	return sid;
}

float* packStates(const dkWorld* w, int32_t* items)
{
	*items = dkWorld_ItemCount(w);
	float* state = malloc((size_t)*items * 6 * sizeof(float) + 1);
	if (!state) exit(2);
	dkWorld_PackPoses(w, state);
	for (int32_t c = 0; c < 3; ++c)
		memcpy(state + (size_t)*items * (size_t)(3 + c), dkWorld_Column(w, (dkColumn)(dkColumnVelocityX + c)),
			   (size_t)*items * sizeof(float));
	return state;
}

void step(dkWorld* w, int32_t steps)
{
	dkError e;
	for (int32_t i = 0; i < steps; ++i) must(dkWorld_Step(w, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
}
