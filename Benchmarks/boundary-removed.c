// SPDX-License-Identifier: Apache-2.0
// A boundary destroyed under one of many resting columns, through the kernel's C API (the Swift API has no
// scene-file form of it): COLUMNS columns of five 40 pt boxes, each on a floor of its own, rest; then, 20
// times, one column's floor is destroyed (mode `destroy`, the default) or its top box woken by the host
// (mode `wake`, dkWorld_Wake: the column wakes whole, and rests again before the next). Prints one JSON line:
// the mean time of a resting step, of the call, and of the step after it (ms), and a hash of the final state.
// Built and run by compare-boundary-removed.sh.
//   boundary-removed [COLUMNS [destroy|wake]]
#include "DynamicsKernel.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double nowMs(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void must(dkResult r, const dkError* e, const char* call)
{
	if (r == dkResultOK) return;
	fprintf(stderr, "%s failed: %d (%s)\n", call, (int)r, e->field ? e->field : "?");
	exit(2);
}

static void floorAt(dkWorld* w, float x0, float x1, float y, dkShapeId* id)
{
	dkShapeDef s = dkDefaultShapeDef();
	dkError e;
	s.kind = dkGeometrySegment;
	s.count = 2;
	s.x[0] = x0, s.y[0] = y, s.x[1] = x1, s.y[1] = y;
	must(dkWorld_CreateShape(w, &s, id, &e), &e, "dkWorld_CreateShape");
}

static dkItemId boxAt(dkWorld* w, float x, float y)
{
	dkItemDef def = dkDefaultItemDef();
	def.shape = dkShapeRectangle;
	def.width = def.height = 40.0f;
	def.friction = 0.6f;
	float angle = 0.0f;
	dkItemId id;
	dkError e;
	must(dkWorld_CreateItems(w, &def, &x, &y, &angle, 1, &id, &e), &e, "dkWorld_CreateItems");
	must(dkWorld_FillFloats(w, dkColumnGravityY, &id, 1000.0f, 1, &e), &e, "dkWorld_FillFloats");
	dkShapeDef s = dkDefaultShapeDef();
	s.item = id;
	s.kind = dkGeometryPolygon;
	s.count = 4;
	float xs[4] = {-20, 20, 20, -20}, ys[4] = {-20, -20, 20, 20};
	memcpy(s.x, xs, sizeof xs);
	memcpy(s.y, ys, sizeof ys);
	dkShapeId sid;
	must(dkWorld_CreateShape(w, &s, &sid, &e), &e, "dkWorld_CreateShape");
	return id;
}

static void steps(dkWorld* w, int n)
{
	dkError e;
	for (int i = 0; i < n; ++i) must(dkWorld_Step(w, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
}

int main(int argc, char** argv)
{
	int columns = argc > 1 ? atoi(argv[1]) : 2000, events = 20;
	bool wake = argc > 2 && strcmp(argv[2], "wake") == 0;
	if (argc > 2 && !wake && strcmp(argv[2], "destroy") != 0) {
		fprintf(stderr, "mode must be destroy or wake, not %s\n", argv[2]);
		return 64;
	}
	dkWorldDef def = dkDefaultWorldDef();
	def.workerCount = 1;
	def.restEnabled = true;
	dkWorld* w = dkWorld_Create(&def, NULL);
	if (!w || columns < events) return 2;
	dkShapeId catcher, *floors = malloc(sizeof(dkShapeId) * (size_t)columns);
	dkItemId* tops = malloc(sizeof(dkItemId) * (size_t)columns);
	if (!floors || !tops) return 2;
	floorAt(w, -1e6f, 1e6f, 2600.0f, &catcher); // catches what falls
	for (int k = 0; k < columns; ++k) {
		float x = 100.0f * (float)(k - columns / 2);
		floorAt(w, x - 30.0f, x + 30.0f, 2000.0f, &floors[k]);
		for (int j = 0; j < 5; ++j) tops[k] = boxAt(w, x, 1979.0f - 42.0f * (float)j);
	}
	steps(w, 600);
	int resting = dkWorld_ItemCount(w) - dkWorld_AwakeCount(w);
	double idle = 0, call = 0, after = 0;
	for (int i = 0; i < events; ++i) {
		dkError e;
		double t0 = nowMs();
		steps(w, 1);
		double t1 = nowMs();
		int k = (i * 97) % columns;
		if (wake) {
			dkWorld_Wake(w, &tops[k], 1);
		} else {
			must(dkWorld_DestroyShape(w, floors[k], &e), &e, "dkWorld_DestroyShape");
		}
		double t2 = nowMs();
		steps(w, 1);
		double t3 = nowMs();
		idle += t1 - t0, call += t2 - t1, after += t3 - t2;
		steps(w, wake ? 45 : 30); // (a woken column rests again after 0.5 s, 30 steps, of stillness)
	}
	uint64_t hash = 1469598103934665603ull; // FNV-1a over the position columns
	for (int c = dkColumnPositionX; c <= dkColumnPositionY; ++c) {
		const unsigned char* bytes = (const unsigned char*)dkWorld_Column(w, (dkColumn)c);
		for (size_t b = 0; b < (size_t)dkWorld_ItemCount(w) * sizeof(float); ++b) hash = (hash ^ bytes[b]) * 1099511628211ull;
	}
	printf("{\"mode\": \"%s\", \"columns\": %d, \"items\": %d, \"resting_before\": %d, \"resting_step_ms\": %.4f, "
		   "\"%s_call_ms\": %.4f, \"step_after_ms\": %.4f, \"state_hash\": \"%016llx\"}\n",
		   wake ? "wake" : "destroy", columns, dkWorld_ItemCount(w), resting, idle / events, wake ? "wake" : "destroy",
		   call / events, after / events, (unsigned long long)hash);
	dkWorld_Destroy(w);
	free(floors);
	free(tops);
	return 0;
}
