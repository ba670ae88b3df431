// SPDX-License-Identifier: Apache-2.0
// The world's queries (query.c): what the query grid answers is what testing every shape answers, in a world
// of every shape kind, boundaries included, before any step, after steps (some items at rest) and after poses
// are set; and the exact tests against closed forms (two circles, a ray into a circle and into a box).
#include "check.h"
#include "collision.h" // internal: built with -ICSources/DynamicsKernel
#include "query_geometry.h"
#include "query_index.h"
#include "trig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t nextRandom(uint32_t* s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static float uniform(uint32_t* s, float lo, float hi) { return lo + (hi - lo) * (float)nextRandom(s) / 16777216.0f; }

static void placeNow(const dkWorld* w, const dkShape* s, dkPlaced* out)
{
	float x = 0, y = 0, c = 1, sn = 0;
	if (s->body >= 0) {
		int32_t row = w->slots.data[s->body].dense;
		x = w->col[dkColumnPositionX][row];
		y = w->col[dkColumnPositionY][row];
		dkSinCos(w->col[dkColumnAngle][row], &sn, &c);
	}
	dkPlaceShape(s, x, y, c, sn, 0, 0, out);
}

// Every group bit set sees every shape, one in no group included.
static bool sees(const dkShape* s, dkQueryFilter f)
{
	return s->alive && (f.groups == ~0ull || (s->itemGroups & f.groups) != 0) && (s->body >= 0 ? f.items : f.boundaries);
}

// A pit of boundaries, and items of every kind: boxes, ellipses, and items with a capsule, a rounded triangle
// or a circle added; a few in collision group 2 only, and a few in no group (they meet only boundaries).
static void buildWorld(dkWorld* w, uint32_t* seed, dkItemId* items, int32_t n)
{
	segment(w, -1200, 1000, 1200, 1000);
	segment(w, -1200, -600, -1200, 1000);
	segment(w, 1200, -600, 1200, 1000);
	dkError e;
	for (int32_t i = 0; i < n; ++i) {
		float x = uniform(seed, -1100, 1100), y = uniform(seed, -500, 900), a = uniform(seed, -3, 3);
		float wd = uniform(seed, 10, 60), ht = uniform(seed, 10, 60);
		int kind = (int)(nextRandom(seed) % 5);
		if (kind == 0) {
			items[i] = box(w, x, y, a, wd, ht);
			continue;
		}
		items[i] = item(w, kind == 1 ? dkShapeEllipse : dkShapeRectangle, x, y, a, wd, ht, 0.1f);
		dkShapeDef d = dkDefaultShapeDef();
		d.item = items[i];
		d.itemGroups = i % 11 == 0 ? 0u : i % 7 == 0 ? 2u : 1u;
		if (kind == 1 || kind == 4) {
			d.kind = dkGeometryCircle, d.count = 1, d.radius = wd / 2;
		} else if (kind == 2) { // a capsule
			d.kind = dkGeometryPolygon, d.count = 2, d.radius = ht / 4;
			d.x[0] = -wd / 2, d.x[1] = wd / 2;
		} else { // a rounded triangle
			d.kind = dkGeometryPolygon, d.count = 3, d.radius = 4;
			float xs[3] = {-wd / 2, wd / 2, 0}, ys[3] = {-ht / 2, -ht / 2, ht / 2};
			memcpy(d.x, xs, sizeof xs), memcpy(d.y, ys, sizeof ys);
		}
		dkShapeId sid;
		must(dkWorld_CreateShape(w, &d, &sid, &e), &e, "dkWorld_CreateShape");
	}
}

static dkQueryShape randomQuery(uint32_t* seed)
{
	dkQueryShape q = {0};
	float x = uniform(seed, -1300, 1300), y = uniform(seed, -700, 1100), size = uniform(seed, 0, 200);
	int kind = (int)(nextRandom(seed) % 5);
	if (kind == 0) { // a point
		q.count = 1, q.x[0] = x, q.y[0] = y;
	} else if (kind == 1) { // a circle
		q.count = 1, q.x[0] = x, q.y[0] = y, q.radius = size / 2;
	} else if (kind == 2) { // a rectangle
		float h = uniform(seed, 1, 300);
		q.count = 4;
		float xs[4] = {x, x + size + 1, x + size + 1, x}, ys[4] = {y, y, y + h, y + h};
		memcpy(q.x, xs, sizeof xs), memcpy(q.y, ys, sizeof ys);
	} else if (kind == 3) { // a clockwise triangle
		q.count = 3;
		float xs[3] = {x, x + size / 2, x + size + 1}, ys[3] = {y, y + size + 1, y};
		memcpy(q.x, xs, sizeof xs), memcpy(q.y, ys, sizeof ys);
	} else { // a capsule
		q.count = 2, q.x[0] = x, q.y[0] = y, q.x[1] = x + size, q.y[1] = y + size / 3, q.radius = 12;
	}
	return q;
}

// Every shape's exact test, in slot order.
static int32_t bruteOverlaps(const dkWorld* w, const dkQueryShape* q, dkQueryFilter f, int32_t* out)
{
	dkPlaced p = {.kind = q->count == 1 ? dkGeometryCircle : dkGeometryPolygon, .count = q->count, .radius = q->radius};
	memcpy(p.x, q->x, sizeof p.x), memcpy(p.y, q->y, sizeof p.y);
	double area = 0;
	for (int32_t i = 0; i < q->count; ++i) {
		int32_t j = (i + 1) % q->count;
		area += (double)q->x[i] * q->y[j] - (double)q->x[j] * q->y[i];
	}
	for (int32_t i = 0; q->count >= 3 && i < q->count; ++i) {
		int32_t j = (i + 1) % q->count;
		float ex = q->x[j] - q->x[i], ey = q->y[j] - q->y[i], len = sqrtf(ex * ex + ey * ey);
		p.nx[i] = (area > 0 ? ey : -ey) / len, p.ny[i] = (area > 0 ? -ex : ex) / len;
	}
	int32_t n = 0;
	for (int32_t s = 0; s < w->shapeIds.next; ++s) {
		const dkShape* shape = &w->shapes.data[s];
		if (!sees(shape, f)) continue;
		dkPlaced placed;
		placeNow(w, shape, &placed);
		if (dkQuery_Overlaps(&p, &placed)) out[n++] = s;
	}
	return n;
}

// The rays' answers against every shape's: the first hit (fraction, then slot) and every hit.
static bool raysAgree(dkWorld* w, uint32_t* seed, dkQueryFilter f, int32_t rays, char* detail, size_t size)
{
	static dkRayHit hits[4096], first;
	for (int32_t k = 0; k < rays; ++k) {
		float x0 = uniform(seed, -1400, 1400), y0 = uniform(seed, -800, 1200);
		float x1 = uniform(seed, -1400, 1400), y1 = uniform(seed, -800, 1200);
		if (k % 4 == 0) x1 = x0; // vertical
		if (k % 4 == 1) y1 = y0; // horizontal
		dkError e;
		int32_t got = dkWorld_RayCast(w, x0, y0, x1, y1, f, true, hits, 4096, &e);
		int32_t one = dkWorld_RayCast(w, x0, y0, x1, y1, f, false, &first, 1, &e);
		int32_t n = 0;
		float bestFraction = INFINITY;
		int32_t bestSlot = -1;
		for (int32_t s = 0; s < w->shapeIds.next; ++s) {
			const dkShape* shape = &w->shapes.data[s];
			if (!sees(shape, f)) continue;
			dkPlaced placed;
			placeNow(w, shape, &placed);
			dkRayResult r;
			if (!dkQuery_RayCast(&placed, x0, y0, x1 - x0, y1 - y0, 1.0f, &r)) continue;
			bool listed = false;
			for (int32_t h = 0; h < got && !listed; ++h) listed = hits[h].shape.index1 == (uint32_t)s + 1 && hits[h].fraction == r.fraction;
			if (!listed) {
				snprintf(detail, size, "ray %d: shape %d at %.4f not listed (%d hits)", k, s, r.fraction, got);
				return false;
			}
			n++;
			if (r.fraction < bestFraction) bestFraction = r.fraction, bestSlot = s;
		}
		bool sorted = true;
		for (int32_t h = 1; h < got; ++h) sorted = sorted && hits[h - 1].fraction <= hits[h].fraction;
		if (got != n || !sorted || one != (n > 0) ||
			(n > 0 && (first.shape.index1 != (uint32_t)bestSlot + 1 || first.fraction != bestFraction))) {
			snprintf(detail, size, "ray %d: %d hits (brute force %d), first %u at %.4f (brute force %d at %.4f)", k, got, n,
					 first.shape.index1 - 1, first.fraction, bestSlot, bestFraction);
			return false;
		}
	}
	return true;
}

static bool overlapsAgree(dkWorld* w, uint32_t* seed, dkQueryFilter f, int32_t queries, char* detail, size_t size,
						  int32_t* found)
{
	static int32_t brute[8192];
	static dkShapeId got[8192];
	for (int32_t k = 0; k < queries; ++k) {
		dkQueryShape q = randomQuery(seed);
		dkError e;
		int32_t n = dkWorld_QueryOverlaps(w, &q, f, got, 8192, &e);
		int32_t m = bruteOverlaps(w, &q, f, brute);
		bool same = n == m;
		for (int32_t i = 0; same && i < n; ++i) same = got[i].index1 == (uint32_t)brute[i] + 1;
		if (!same) {
			snprintf(detail, size, "query %d (%d points, radius %.1f): %d shapes, brute force %d", k, q.count, q.radius, n, m);
			return false;
		}
		*found += n;
	}
	return true;
}

// The single point query at (x, y): how many shapes it finds, and in `same` whether a bulk point query's answer
// (its first shape `at` and `count`) is the same.
static int32_t singlePoint(dkWorld* w, float x, float y, dkQueryFilter filter, dkShapeId at, int32_t count, bool* same)
{
	dkQueryShape point = {.count = 1, .x = {x}, .y = {y}};
	dkShapeId ids[64];
	dkError e;
	int32_t m = dkWorld_QueryOverlaps(w, &point, filter, ids, 64, &e);
	*same = m == count && (m > 0 ? ids[0].index1 == at.index1 && ids[0].generation == at.generation : at.index1 == 0);
	return m;
}

// Worlds with nothing to list: no shape at all, and only a boundary too long for any cell.
static bool emptyWorldsAnswer(void)
{
	dkQueryFilter all = {.groups = ~0ull, .items = true, .boundaries = true};
	dkQueryShape point = {.count = 1, .x = {5}, .y = {5}, .radius = 10};
	dkShapeId ids[4];
	dkRayHit hit;
	dkError e;
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	bool ok = dkWorld_QueryOverlaps(w, &point, all, ids, 4, &e) == 0 && dkWorld_RayCast(w, 0, 0, 100, 0, all, false, &hit, 1, &e) == 0;
	segment(w, -1e5f, 0, 1e5f, 0);
	ok = ok && dkWorld_QueryOverlaps(w, &point, all, ids, 4, &e) == 1 && dkWorld_RayCast(w, 0, -50, 0, 50, all, true, &hit, 1, &e) == 1 &&
		 fabsf(hit.fraction - 0.5f) < 1e-6f;
	dkWorld_Destroy(w);
	return ok;
}

void queries(Report* r)
{
	check(r, emptyWorldsAnswer(), "an empty world and one of a lone long boundary answer queries", "");
	uint32_t seed = 12345;
	dkWorld* w = makeWorld(dkSimdAVX512, 2, dkIntegratorFused);
	static dkItemId items[1500];
	buildWorld(w, &seed, items, 1500);
	dkQueryFilter all = {.groups = ~0ull, .items = true, .boundaries = true};
	dkQueryFilter group2 = {.groups = 2u, .items = true, .boundaries = false};
	dkQueryFilter walls = {.groups = ~0ull, .items = false, .boundaries = true};
	const char* phases[3] = {"before any step", "after 90 steps, a fifth of the items resting", "after poses were set"};
	for (int phase = 0; phase < 3; ++phase) {
		if (phase == 1) { // and every fifth item put to rest: resting rows answer as awake ones
			step(w, 90);
			dkError e;
			for (int32_t i = 0; i < 1500; i += 5) must(dkWorld_Rest(w, &items[i], 1, &e), &e, "dkWorld_Rest");
		}
		if (phase == 2) { // every tenth item moved and turned by hand
			dkError e;
			for (int32_t i = 0; i < 1500; i += 10) {
				float x = uniform(&seed, -1000, 1000), a = uniform(&seed, -3, 3);
				must(dkWorld_SetFloats(w, dkColumnPositionX, &items[i], &x, 1, &e), &e, "dkWorld_SetFloats");
				must(dkWorld_SetFloats(w, dkColumnAngle, &items[i], &a, 1, &e), &e, "dkWorld_SetFloats");
			}
		}
		char what[160], detail[200] = "";
		int32_t found = 0;
		bool ok = overlapsAgree(w, &seed, all, 400, detail, sizeof detail, &found) &&
				  overlapsAgree(w, &seed, group2, 100, detail, sizeof detail, &found) &&
				  overlapsAgree(w, &seed, walls, 50, detail, sizeof detail, &found);
		if (ok) snprintf(detail, sizeof detail, "%d shapes found by 550 queries", found);
		snprintf(what, sizeof what, "overlap queries are every shape's exact test, %s", phases[phase]);
		check(r, ok && found > 550, what, detail);
		ok = raysAgree(w, &seed, all, 300, detail, sizeof detail) && raysAgree(w, &seed, group2, 100, detail, sizeof detail);
		if (ok) snprintf(detail, sizeof detail, "400 rays");
		snprintf(what, sizeof what, "ray casts are every shape's exact test, %s", phases[phase]);
		check(r, ok, what, detail);
	}
	// A sparse grid (a few items 10⁶ pt away: far more cells than listings), where cells are found by binary search.
	{
		dkWorld* sparse = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
		static dkItemId few[400];
		buildWorld(sparse, &seed, few, 400);
		for (int k = 0; k < 3; ++k) box(sparse, 1e6f * (float)(k + 1), -1e6f, 0, 40, 40);
		char detail[200] = "";
		int32_t found = 0;
		bool ok = overlapsAgree(sparse, &seed, all, 300, detail, sizeof detail, &found) &&
				  raysAgree(sparse, &seed, all, 200, detail, sizeof detail);
		if (ok) snprintf(detail, sizeof detail, "%d shapes found by 300 queries, 200 rays", found);
		check(r, ok && found > 100, "queries in a sparse grid are every shape's exact test", detail);
		dkWorld_Destroy(sparse);
	}

	// A grid large enough to be built in parallel blocks (over 2 · 4 096 shapes) answers at 2 workers as at 1.
	{
		dkWorld* one = makeWorld(dkSimdAVX512, 1, dkIntegratorFused), *two = makeWorld(dkSimdAVX512, 2, dkIntegratorFused);
		for (int32_t k = 0; k < 12000; ++k) {
			float x = (float)(k % 120) * 30.0f, y = (float)(k / 120) * 30.0f, a = 0.01f * (float)(k % 17);
			box(one, x, y, a, 20, 14);
			box(two, x, y, a, 20, 14);
		}
		enum { Rays = 2000 };
		static float rx0[Rays], ry0[Rays], rx1[Rays], ry1[Rays];
		static dkRayHit h1[Rays], h2[Rays];
		for (int32_t k = 0; k < Rays; ++k)
			rx0[k] = uniform(&seed, -100, 3700), ry0[k] = uniform(&seed, -100, 3100), rx1[k] = uniform(&seed, -100, 3700),
			ry1[k] = uniform(&seed, -100, 3100);
		dkQueryFilter all2 = {.groups = ~0ull, .items = true, .boundaries = true};
		dkError e2;
		must(dkWorld_RayCastMany(one, rx0, ry0, rx1, ry1, Rays, all2, h1, &e2), &e2, "dkWorld_RayCastMany");
		must(dkWorld_RayCastMany(two, rx0, ry0, rx1, ry1, Rays, all2, h2, &e2), &e2, "dkWorld_RayCastMany");
		int32_t differ = 0, hits = 0;
		for (int32_t k = 0; k < Rays; ++k) differ += memcmp(&h1[k], &h2[k], sizeof h1[k]) != 0, hits += h1[k].shape.index1 != 0;
		// The grids themselves: the same listings in the same order.
		const dkQueryIndex *g1 = one->queryIndex, *g2 = two->queryIndex;
		bool same = g1 && g2 && g1->entries == g2->entries && g1->entries > 12000 && g1->largeCount == g2->largeCount &&
					memcmp(g1->keys, g2->keys, (size_t)g1->entries * sizeof(uint64_t)) == 0 &&
					memcmp(g1->slots, g2->slots, (size_t)g1->entries * sizeof(int32_t)) == 0;
		differ += !same;
		char detail[120] = "";
		bool agree = raysAgree(two, &seed, all2, 100, detail, sizeof detail);
		if (agree) snprintf(detail, sizeof detail, "%d of %d rays differ (%d hit); 100 more as every shape's test", differ, Rays, hits);
		check(r, agree && differ == 0 && hits > Rays / 2, "a grid built in parallel blocks answers as one built serially", detail);
		dkWorld_Destroy(one);
		dkWorld_Destroy(two);
	}

	// The bulk forms answer each ray and point as the single queries do (this world runs 2 workers on threads).
	enum { Many = 3000 };
	static float x0[Many], y0[Many], x1[Many], y1[Many];
	static dkRayHit many[Many];
	static dkShapeId at[Many];
	static int32_t counts[Many];
	for (int32_t k = 0; k < Many; ++k) {
		x0[k] = uniform(&seed, -1300, 1300), y0[k] = uniform(&seed, -700, 1100);
		x1[k] = uniform(&seed, -1300, 1300), y1[k] = uniform(&seed, -700, 1100);
	}
	dkError e;
	must(dkWorld_RayCastMany(w, x0, y0, x1, y1, Many, all, many, &e), &e, "dkWorld_RayCastMany");
	must(dkWorld_QueryPointsMany(w, x0, y0, Many, all, at, counts, &e), &e, "dkWorld_QueryPointsMany");
	int32_t differ = 0, hits = 0, inside = 0;
	for (int32_t k = 0; k < Many; ++k) {
		dkRayHit one;
		int32_t n = dkWorld_RayCast(w, x0[k], y0[k], x1[k], y1[k], all, false, &one, 1, &e);
		if ((n == 1) != (many[k].shape.index1 != 0) || (n == 1 && memcmp(&one, &many[k], sizeof one) != 0)) differ++;
		hits += n;
		bool same;
		int32_t m = singlePoint(w, x0[k], y0[k], all, at[k], counts[k], &same);
		differ += !same;
		inside += m > 0;
	}
	char manyDetail[120];
	snprintf(manyDetail, sizeof manyDetail, "%d of %d rays and points differ (%d rays hit, %d points inside)", differ, 2 * Many, hits, inside);
	check(r, differ == 0 && hits > Many / 4 && inside > 50, "bulk ray casts and point queries answer as the single ones", manyDetail);
	// Points on the edges of the shapes' boxes: a sharp polygon's extreme vertex (leftmost, rightmost, lowest or
	// highest in turn), which lies on its box's edge and in the shape, else a corner of the box. There the bulk
	// form's four-wide box test and the single query's must agree to the last comparison (edges are inside).
	const dkQueryIndex* index = w->queryIndex;
	int32_t corners = 0;
	for (int32_t k = 0; index && k < Many; ++k) {
		int32_t slot = (int32_t)(nextRandom(&seed) % (uint32_t)w->shapes.count);
		if (!w->shapes.data[slot].alive) continue;
		const float* box = index->boxes + 4 * slot;
		x0[corners] = box[(k & 1) ? 2 : 0], y0[corners] = box[(k & 2) ? 3 : 1];
		dkPlaced placed;
		dkQueryIndex_Place(w, index, slot, &placed);
		if (placed.kind == dkGeometryPolygon && placed.radius == 0.0f) {
			int32_t best = 0, side = k % 4;
			for (int32_t v = 1; v < placed.count; ++v) {
				float a = side < 2 ? placed.x[v] : placed.y[v], b = side < 2 ? placed.x[best] : placed.y[best];
				if (side % 2 == 0 ? a < b : a > b) best = v;
			}
			x0[corners] = placed.x[best], y0[corners] = placed.y[best];
		}
		++corners;
	}
	must(dkWorld_QueryPointsMany(w, x0, y0, corners, all, at, counts, &e), &e, "dkWorld_QueryPointsMany");
	int32_t cornerDiffer = 0, onCorner = 0;
	for (int32_t k = 0; k < corners; ++k) {
		bool same;
		int32_t m = singlePoint(w, x0[k], y0[k], all, at[k], counts[k], &same);
		cornerDiffer += !same;
		onCorner += m > 0;
	}
	snprintf(manyDetail, sizeof manyDetail, "%d of %d points on box edges differ (%d inside a shape)", cornerDiffer, corners, onCorner);
	check(r, index && corners > Many / 2 && cornerDiffer == 0 && onCorner > 0, "bulk point queries on the edges of the shapes' boxes answer as the single ones", manyDetail);
	dkWorld_Destroy(w);

	// Closed forms: two circles overlap when their centres are at most the sum of the radii apart; a ray enters
	// a circle at the root of |p + t·d − c| = r, and an axis-aligned box at the largest of the slabs' entries.
	int32_t wrong = 0;
	for (int32_t k = 0; k < 2000; ++k) {
		float ra = uniform(&seed, 1, 50), rb = uniform(&seed, 1, 50), dx = uniform(&seed, -120, 120), dy = uniform(&seed, -120, 120);
		dkPlaced a = {.kind = dkGeometryCircle, .count = 1, .radius = ra}, b = {.kind = dkGeometryCircle, .count = 1, .x = {dx}, .y = {dy}, .radius = rb};
		double d = sqrt((double)dx * dx + (double)dy * dy);
		if (fabs(d - (ra + rb)) > 1e-3 && dkQuery_Overlaps(&a, &b) != (d < ra + rb)) wrong++;
		float px = uniform(&seed, -200, 200), py = uniform(&seed, -200, 200), qx = uniform(&seed, -200, 200), qy = uniform(&seed, -200, 200);
		float ux = qx - px, uy = qy - py;
		dkRayResult hit;
		bool got = dkQuery_RayCast(&b, px, py, ux, uy, 1.0f, &hit);
		double mx = px - dx, my = py - dy, A = (double)ux * ux + (double)uy * uy, B = mx * ux + my * uy, C = mx * mx + my * my - (double)rb * rb;
		double disc = B * B - A * C, t = disc >= 0 ? (-B - sqrt(disc)) / A : -1;
		bool expect = C > 0 && disc >= 0 && t >= 0 && t <= 1;
		if (fabs(C) > 1 && fabs(t) > 1e-3 && fabs(t - 1) > 1e-3 && (got != expect || (got && fabs(hit.fraction - t) > 1e-4))) wrong++;
		// An axis-aligned box of half-sides hx, hy at (dx, dy).
		float hx = rb, hy = ra;
		dkPlaced box = {.kind = dkGeometryPolygon, .count = 4, .x = {dx - hx, dx + hx, dx + hx, dx - hx},
						.y = {dy - hy, dy - hy, dy + hy, dy + hy}, .nx = {0, 1, 0, -1}, .ny = {-1, 0, 1, 0}};
		double lo = 0, hi = 1;
		double p0[2] = {px, py}, u[2] = {ux, uy}, bl[2] = {dx - hx, dy - hy}, bh[2] = {dx + hx, dy + hy};
		bool inside = px > bl[0] && px < bh[0] && py > bl[1] && py < bh[1];
		for (int a2 = 0; a2 < 2; ++a2) {
			if (u[a2] == 0) {
				if (p0[a2] < bl[a2] || p0[a2] > bh[a2]) lo = 2;
				continue;
			}
			double ta = (bl[a2] - p0[a2]) / u[a2], tb = (bh[a2] - p0[a2]) / u[a2];
			lo = fmax(lo, fmin(ta, tb)), hi = fmin(hi, fmax(ta, tb));
		}
		expect = !inside && lo <= hi && lo > 0;
		got = dkQuery_RayCast(&box, px, py, ux, uy, 1.0f, &hit);
		if (fabs(lo - hi) > 1e-3 && lo > 1e-3 && fabs(lo - 1) > 1e-3 && (got != expect || (got && fabs(hit.fraction - lo) > 1e-4))) wrong++;
	}
	char detail[80];
	snprintf(detail, sizeof detail, "%d of 6000 disagree", wrong);
	check(r, wrong == 0, "overlaps and ray casts follow the closed forms (circles, boxes)", detail);
}
