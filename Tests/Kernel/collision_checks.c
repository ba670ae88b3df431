// SPDX-License-Identifier: Apache-2.0
// The narrowphase (manifold.c, contact.c): separating axes of two boxes and manifolds for each pair of
// shape kinds, against their definitions and closed forms.
#include "check.h"
#include "collision.h" // internal: built with -ICSources/DynamicsKernel
#include "joint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
void separations(Report* r)
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

// A segment of a chain with its neighbours' far vertices (ghost vertices) before vertex 0 and after vertex 1.
static dkPlaced placedChained(float x0, float y0, float x1, float y1, float px, float py, float nx, float ny)
{
	dkPlaced p = placedSegment(x0, y0, x1, y1, dkChainPrevious | dkChainNext);
	p.x[2] = px, p.y[2] = py, p.x[3] = nx, p.y[3] = ny;
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

void manifolds(Report* r)
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
				   placedChained(-100, 0, 0, 0, -200, 0, 100, 0), placedBox(20, 49, 50, 50, 0), 2, 0, 1, -1);
	// A funnel's neck: the slope (-100, -100) → (0, 0) bends into a wall down to (0, 100). The slope's line runs
	// on into the stem (x > 0) and met items there 3.5 pt (the box) and 7.9 pt (the ball) deep.
	expectManifold(r, "box in a stem past a bend: no contact with the slope's line",
				   placedChained(-100, -100, 0, 0, -200, -200, 0, 100), placedBox(15, 30, 10, 10, 0), 0, 0, 0, 0);
	expectManifold(r, "ball in a stem past a bend: no contact with the slope's line",
				   placedChained(-100, -100, 0, 0, -200, -200, 0, 100), placedCircle(12, 15, 10), 0, 0, 0, 0);
	expectManifold(r, "ball outside a bend: the slope's end vertex, 1 point",
				   placedChained(-100, -100, 0, 0, -200, -200, 0, 100), placedCircle(8, -4, 10), 1, 0.89442719f,
				   -0.44721360f, sqrtf(80.0f) - 10.0f);
	expectManifold(r, "ball outside a bend: not again from the wall below it",
				   placedChained(0, 0, 0, 100, -100, -100, 0, 200), placedCircle(8, -4, 10), 0, 0, 0, 0);
	expectManifold(r, "ball in the stem: the wall's face, 1 point",
				   placedChained(0, 0, 0, 100, -100, -100, 0, 200), placedCircle(12, 15, 10), 1, 1, 0, 2);
	// Warm starting: a box at rest on a floor keeps both points (same ids) from step to step, and their
	// accumulated impulses carry its weight: m·g·h = 1 · 1000 · (1/240) N·s per substep.
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	segment(w, -1000, FLOOR, 1000, FLOOR);
	box(w, 0, FLOOR - 50, 0, 100, 100);
	step(w, 120);
	dkManifold before = w->contacts.count == 1 ? w->contacts.data[0].manifold : (dkManifold){0};
	step(w, 1);
	dkManifold after = w->contacts.count == 1 ? w->contacts.data[0].manifold : (dkManifold){0};
	float load = after.impulses[0].normal + after.impulses[1].normal, weight = G / 240.0f;
	bool ok = before.count == 2 && after.count == 2 && before.points[0].id == after.points[0].id &&
			  before.points[1].id == after.points[1].id && fabsf(load - weight) < 0.01f * weight;
	char detail[120];
	snprintf(detail, sizeof detail, "%d then %d points, ids %u %u then %u %u, impulse %.5f of %.5f", before.count,
			 after.count, before.points[0].id, before.points[1].id, after.points[0].id, after.points[1].id, load, weight);
	check(r, ok, "a resting box keeps its points' ids and impulses carry its weight", ok ? "" : detail);
	dkWorld_Destroy(w);
}

// ---- Contacts kept between steps ------------------------------------------------------------------------

// A stack of boxes with balls dropped on it between two walls: contacts persist, begin and end. The balls do
// not bounce and the walls stop them rolling, so the later steps keep their pairs.
static void stackAndBalls(dkWorld* w)
{
	segment(w, -2000, FLOOR, 2000, FLOOR);
	segment(w, -700, FLOOR, -700, FLOOR - 2000);
	segment(w, 700, FLOOR, 700, FLOOR - 2000);
	for (int row = 0; row < 12; ++row)
		for (int j = row; j < 12; ++j)
			box(w, 50.0f * (float)row + 100.0f * (float)(j - row) - 600.0f, FLOOR - 50 - 100.0f * (float)row, 0, 100, 100);
	for (int i = 0; i < 8; ++i) ball(w, -500.0f + 130.0f * (float)i, FLOOR - 1500.0f - 40.0f * (float)i, 50, 0.0f);
}

typedef struct ContactRun {
	float* state; // poses and velocities, 6 floats per item
	int32_t items;
	int32_t reused; // steps whose broadphase kept last step's pairs
	uint64_t trace; // FNV-1a of every step's contact count and events
} ContactRun;

// The scene's steps, with every step's pairs found again (a full merge of the contact list) when `merge`.
static ContactRun contactRun(bool merge)
{
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	stackAndBalls(w);
	ContactRun run = {.trace = 1469598103934665603u};
	for (int s = 0; s < 240; ++s) {
		if (merge) w->pairsValid = false;
		step(w, 1);
		run.reused += w->pairsReused;
		int32_t events, count = dkWorld_ContactCount(w);
		const dkContactEvent* e = dkWorld_ContactEvents(w, &events);
		run.trace = (run.trace ^ (uint64_t)count) * 1099511628211u;
		for (int32_t k = 0; k < events; ++k)
			run.trace = (run.trace ^ (e[k].shapeA.index1 * 31u + e[k].shapeB.index1 * 7u + e[k].began)) * 1099511628211u;
	}
	run.state = packStates(w, &run.items);
	dkWorld_Destroy(w);
	return run;
}

// Contacts updated in place (contact.c) give the same steps, bit for bit, as merging the whole list with
// pairs found again every step: a contact's record outlives its points without changing what is solved.
void persistentContacts(Report* r)
{
	ContactRun kept = contactRun(false), merged = contactRun(true);
	char detail[160];
	snprintf(detail, sizeof detail, "%d of 240 steps kept their pairs", kept.reused);
	check(r, kept.reused >= 20 && merged.reused == 0, "the stack's settled steps update contacts in place", detail);
	bool same = kept.items == merged.items && kept.trace == merged.trace &&
				memcmp(kept.state, merged.state, (size_t)kept.items * 6 * sizeof(float)) == 0;
	snprintf(detail, sizeof detail, "trace %016llx vs %016llx", (unsigned long long)kept.trace,
			 (unsigned long long)merged.trace);
	check(r, same, "contacts in place: the same states, contact counts and events as a full merge every step",
		  same ? "" : detail);
	free(kept.state);
	free(merged.state);
}

// A reused manifold (contact.c, recycle) against one computed again at the same poses: a box resting on
// the floor, then on a second box, moved by `dx`, `dy` and turned by `turn` after the first step. Returns
// the largest difference in separation (pt), or -1 when the manifold was not reused or the points differ.
static float recycledAgainstFresh(bool onBox, float dx, float dy, float turn)
{
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	segment(w, -2000, FLOOR, 2000, FLOOR);
	if (onBox) box(w, 0, FLOOR - 50, 0, 100, 100);
	dkItemId top = box(w, 10, FLOOR - (onBox ? 150.0f : 50.0f), 0, 100, 100);
	step(w, 1);
	int32_t row = w->slots.data[top.index1 - 1].dense;
	float angle = atan2f(w->col[dkColumnSin][row], w->col[dkColumnCos][row]) + turn;
	w->col[dkColumnPositionX][row] += dx;
	w->col[dkColumnPositionY][row] += dy;
	w->col[dkColumnCos][row] = cosf(angle);
	w->col[dkColumnSin][row] = sinf(angle);
	// What a step's box pass does first: it copies the poses the narrowphase reads (dkMotionX …).
	for (int32_t s = 0; s < w->shapeIds.next; ++s) {
		if (!w->shapes.data[s].alive || w->shapes.data[s].body != (int32_t)top.index1 - 1) continue;
		float* m = w->motion + dkMotionFloats * s;
		m[dkMotionX] = w->col[dkColumnPositionX][row];
		m[dkMotionY] = w->col[dkColumnPositionY][row];
		m[dkMotionCos] = w->col[dkColumnCos][row];
		m[dkMotionSin] = w->col[dkColumnSin][row];
	}
	float worst = -1;
	for (int32_t k = 0; k < w->contacts.count; ++k) {
		dkContact reused = w->contacts.data[k], fresh = w->contacts.data[k];
		if (reused.bodyB != (int32_t)top.index1 - 1 || !reused.cached) continue;
		fresh.cached = false;
		dkContact_UpdateManifold(w, &reused, 1.0f / 60.0f);
		dkContact_UpdateManifold(w, &fresh, 1.0f / 60.0f);
		// Reused, the base separations stay the first step's; computed again, they are the new separations.
		if (!fresh.cached || reused.manifold.count != fresh.manifold.count ||
			reused.manifold.points[0].baseSeparation == fresh.manifold.points[0].baseSeparation) {
			worst = -1;
			break;
		}
		// Each point against the nearest point computed again (the reference face may have changed sides).
		worst = 0;
		for (int32_t i = 0; i < reused.manifold.count; ++i) {
			const dkManifoldPoint* a = &reused.manifold.points[i];
			float ax = reused.originX + a->px, ay = reused.originY + a->py, nearest = INFINITY, difference = 0;
			for (int32_t j = 0; j < fresh.manifold.count; ++j) {
				const dkManifoldPoint* b = &fresh.manifold.points[j];
				float d = hypotf(fresh.originX + b->px - ax, fresh.originY + b->py - ay);
				if (d < nearest) nearest = d, difference = fabsf(a->separation - b->separation);
			}
			worst = fmaxf(worst, difference);
		}
	}
	dkWorld_Destroy(w);
	return worst;
}

// Small moves reuse the manifold, with separations within 0.003 pt of those computed again on the floor
// (flat, so a box's corners on it are exact) and 0.02 pt on a box (whose normal is kept as it was); larger
// moves and turns compute it again.
void recycledManifolds(Report* r)
{
	const struct { bool onBox; float dx, dy, turn, within; } cases[] = {
		{false, 0.3f, -0.2f, 0.01f, 0.003f}, {false, -0.5f, 0.4f, -0.015f, 0.003f},
		{true, 0.3f, -0.2f, 0.01f, 0.02f}, {true, -0.4f, 0.3f, -0.015f, 0.02f},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		float worst = recycledAgainstFresh(cases[k].onBox, cases[k].dx, cases[k].dy, cases[k].turn);
		char what[160], detail[80];
		snprintf(what, sizeof what, "a reused manifold (%s, moved %.1f, %.1f pt, turned %.3f rad) matches one computed again",
				 cases[k].onBox ? "box on box" : "box on floor", cases[k].dx, cases[k].dy, cases[k].turn);
		snprintf(detail, sizeof detail, "separations differ by %.2g pt (allowed %.2g)", worst, cases[k].within);
		check(r, worst >= 0 && worst <= cases[k].within, what, detail);
	}
	float far = recycledAgainstFresh(false, 2.5f, 0.0f, 0.0f), turned = recycledAgainstFresh(true, 0.0f, 0.0f, 0.05f);
	check(r, far < 0 && turned < 0, "a move of 2.5 pt or a turn of 0.05 rad computes the manifold again", "");
}

// ---- Pairs found again only where fat boxes changed (broadphase.c, pair_grid.c) ---------------------------

// A floor segment at y = floorY; `boxes` 40 pt boxes, `columns` a row, put to rest in mid-air 300 pt above it;
// beside them `balls` balls of radius 40 and elasticity 0.9, `ballColumns` a row, 200 pt above it. The boxes'
// ids go to grid (room for `boxes`).
void restingGridBesideBalls(dkWorld* w, float floorY, int columns, int boxes, int ballColumns, int balls, dkItemId* grid)
{
	segment(w, -3000, floorY, 3000, floorY);
	for (int i = 0; i < boxes; ++i)
		grid[i] = box(w, -2000.0f + 41.0f * (float)(i % columns), floorY - 300 - 41.0f * (float)(i / columns), 0, 40, 40);
	dkError e;
	must(dkWorld_Rest(w, grid, boxes, &e), &e, "dkWorld_Rest");
	for (int i = 0; i < balls; ++i)
		ball(w, 200.0f + 70.0f * (float)(i % ballColumns), floorY - 200 - 90.0f * (float)(i / ballColumns), 40, 0.9f);
}

// A ball dropped from 3 000 pt lands at about 2 450 pt/s, and its box, grown by |v|·dt on each side, is then
// about 80 pt wider than at rest. Once it has stopped, its fat box is made again around its resting box (at most DK_FAT_SLACK
// margins wider, broadphase.c) rather than kept from the fall, and the pairs are still every pair of the
// fat boxes.
void fatBoxes(Report* r)
{
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	segment(w, -2000, FLOOR, 2000, FLOOR);
	ball(w, 0, FLOOR - 3000, 50, 0.0f);
	ball(w, 100, FLOOR - 25, 50, 0.0f); // beside it on the floor, so that the pairs are not empty
	float widest = 0;
	for (int s = 0; s < 240; ++s) {
		step(w, 1);
		widest = fmaxf(widest, w->aabb[4 + 2] - w->aabb[4]);
	}
	const float *box = w->aabb + 4, *fat = w->fatAabb + 4;
	float width = box[2] - box[0], slack = 4.0f * 0.125f * 25.0f; // DK_FAT_SLACK margins of an eighth of 25 pt
	float excessX = (fat[2] - fat[0]) - width, excessY = (fat[3] - fat[1]) - (box[3] - box[1]);
	bool ok = widest > width + 3 * slack && excessX <= slack && excessY <= slack && w->pairsValid &&
			  pairsAsBruteForce(w);
	char detail[160];
	snprintf(detail, sizeof detail, "box %.1f pt wide at rest, %.1f in the fall; fat box %.1f and %.1f pt wider", width,
			 widest, excessX, excessY);
	check(r, ok, "a fat box left from a fast fall is made again around the resting box", detail);
	dkWorld_Destroy(w);
}

// A grid of boxes put to rest in mid-air, balls bouncing on the floor beside it, and two balls dropped onto
// it late (which wakes part of it): steps whose pairs are patched, found in full and kept all occur.
static dkWorld* restingGridAndBalls(int32_t workers)
{
	dkWorld* w = makeWorld(dkSimdAVX512, workers, dkIntegratorFused);
	dkItemId grid[200];
	restingGridBesideBalls(w, FLOOR, 20, 200, 12, 24, grid);
	ball(w, -1800, FLOOR - 2600, 40, 0.5f);
	ball(w, -1500, FLOOR - 4000, 40, 0.5f);
	return w;
}

bool pairsAsBruteForce(const dkWorld* w)
{
	int32_t n = w->shapeIds.next, found = 0;
	dkFilter* filters = calloc((size_t)n, sizeof(dkFilter));
	if (!filters) exit(2);
	for (int32_t i = 0; i < n; ++i) {
		const dkShape* s = &w->shapes.data[i];
		int32_t row = s->body >= 0 ? w->slots.data[s->body].dense : -1;
		bool dynamic = row >= 0 && (w->col[dkColumnInverseMass][row] > 0.0f || w->col[dkColumnInverseInertia][row] > 0.0f);
		bool kinematic = row >= 0 && (w->flags[row] & dkItemKinematic);
		filters[i] = (dkFilter){s->itemGroups, s->boundaryGroups, s->body, s->alive,
								row >= 0 && row < w->awake && (w->col[dkColumnInverseMass][row] > 0.0f || kinematic),
								dkJointPairs_HasSlot(w, s->body), dynamic, s->exclusionGroup};
	}
	bool same = true;
	for (int32_t a = 0; a < n && same; ++a)
		for (int32_t b = a + 1; b < n && same; ++b) {
			if (!filters[a].alive || !filters[b].alive || !dkCandidate(w, a, b, filters)) continue;
			same = found < w->pairs.count && w->pairs.data[found].a == a && w->pairs.data[found].b == b;
			++found;
		}
	free(filters);
	return same && found == w->pairs.count;
}

// Patched pairs are every pair of the fat boxes, and give the same steps, bit for bit, as a full search
// every step, at 1 and 2 workers.
void patchedPairs(Report* r)
{
	float* state[3];
	int32_t items = 0, patched = 0, full = 0, valid = 0, brute = 0, relisted = 0;
	uint64_t trace[3];
	for (int run = 0; run < 3; ++run) {
		dkWorld* w = restingGridAndBalls(run == 2 ? 2 : 1);
		trace[run] = 1469598103934665603u;
		for (int s = 0; s < 300; ++s) {
			if (run == 1) w->pairsValid = false;
			step(w, 1);
			if (run == 0) {
				patched += w->pairsPatched;
				relisted += w->pairsRelisted;
				full += !w->pairsPatched && !w->pairsReused;
				// Unless the step woke or rested items after its broadphase (then the next step's broadphase
				// moves their shapes between its lists, and finds their pairs again)
				if (w->pairsValid && w->restChangeCount == 0) ++valid, brute += pairsAsBruteForce(w);
			}
			trace[run] = (trace[run] ^ (uint64_t)dkWorld_ContactCount(w) ^ ((uint64_t)w->awake << 32)) * 1099511628211u;
		}
		state[run] = packStates(w, &items);
		dkWorld_Destroy(w);
	}
	char detail[160];
	snprintf(detail, sizeof detail, "%d of 300 steps patched, %d searched in full, %d after items rested or woke; %d of %d matched",
			 patched, full, relisted, brute, valid);
	check(r, patched >= 100 && full >= 2 && relisted >= 2 && valid >= 250 && brute == valid,
		  "patched pairs: each step's list is every pair of the fat boxes, most steps patched", detail);
	bool same = true;
	for (int run = 1; run < 3; ++run)
		same = same && trace[run] == trace[0] && memcmp(state[run], state[0], (size_t)items * 6 * sizeof(float)) == 0;
	check(r, same, "patched pairs: the same states as a full search every step, and at 2 workers", "");
	for (int run = 0; run < 3; ++run) free(state[run]);
}

// Many balls bouncing beside a grid at rest: on a third of the steps or more, too many leave their fat boxes
// for the grid to answer for them (over a quarter of the shapes since the last build), so the pairs are found
// again, and the resting grid's shapes keep a grid of their own (dkPairGrid_FindSplit). Each step's list is every pair of the fat boxes, and the states are those of a
// full pass every step and of 2 workers.
void splitGrids(Report* r)
{
	float* state[3];
	int32_t items = 0, split = 0, valid = 0, brute = 0;
	uint64_t trace[3];
	for (int run = 0; run < 3; ++run) {
		dkWorld* w = makeWorld(dkSimdAVX512, run == 2 ? 2 : 1, dkIntegratorFused);
		segment(w, -3000, FLOOR, 3000, FLOOR);
		dkItemId grid[600];
		for (int i = 0; i < 600; ++i)
			grid[i] = box(w, -2900.0f + 41.0f * (float)(i % 30), FLOOR - 300 - 41.0f * (float)(i / 30), 0, 40, 40);
		dkError e;
		must(dkWorld_Rest(w, grid, 600, &e), &e, "dkWorld_Rest");
		for (int i = 0; i < 300; ++i)
			ball(w, 100.0f + 45.0f * (float)(i % 40), FLOOR - 300 - 80.0f * (float)(i / 40), 40, 1.0f);
		trace[run] = 1469598103934665603u;
		for (int s = 0; s < 240; ++s) {
			if (run == 1) w->pairsValid = false;
			step(w, 1);
			if (run == 0) {
				split += w->pairsSplit;
				// (items that rested or woke after the pairs were found change what a search would find now)
				if (w->pairsValid && w->restChangeCount == 0) ++valid, brute += pairsAsBruteForce(w);
			}
			trace[run] = (trace[run] ^ (uint64_t)dkWorld_ContactCount(w) ^ ((uint64_t)w->awake << 32)) * 1099511628211u;
		}
		state[run] = packStates(w, &items);
		dkWorld_Destroy(w);
	}
	char detail[160];
	snprintf(detail, sizeof detail, "%d of 240 steps searched with the still grid; %d of %d matched", split, brute, valid);
	check(r, split >= 80 && valid >= 200 && brute == valid,
		  "split grids: each step's list is every pair of the fat boxes, the still shapes in a grid of their own", detail);
	bool same = true;
	for (int run = 1; run < 3; ++run)
		same = same && trace[run] == trace[0] && memcmp(state[run], state[0], (size_t)items * 6 * sizeof(float)) == 0;
	check(r, same, "split grids: the same states as a full search every step, and at 2 workers", "");
	for (int run = 0; run < 3; ++run) free(state[run]);
}
