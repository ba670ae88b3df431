// SPDX-License-Identifier: Apache-2.0
// Geometry: the exact tests of the world's queries (query.c). Every placed shape is a convex core of 1 to
// DK_MAX_POLYGON_VERTICES points (a point, a segment or a polygon) grown by its radius: a circle, a capsule, a
// boundary segment, a polygon, a rounded polygon. Two such shapes overlap when their cores come within the sum
// of their radii (touching counts), which is when a core point lies inside the other's core polygon, two core
// edges cross, or two core edges come that close. A ray enters such a shape where it first meets one of its edges moved out by the radius
// or one of its corner circles; a bare polygon is clipped by its edges' half-planes, a bare segment is met from
// either side.
#include "query_geometry.h"

#include <math.h>

static inline int32_t nextVertex(int32_t i, int32_t count) { return i + 1 < count ? i + 1 : 0; }

// Whether point (px, py) lies inside (or on) the core polygon p (3 or more points, outward normals).
static bool coreContains(const dkPlaced* p, float px, float py)
{
	if (p->count < 3) return false;
	for (int32_t i = 0; i < p->count; ++i)
		if (p->nx[i] * (px - p->x[i]) + p->ny[i] * (py - p->y[i]) > 0.0f) return false;
	return true;
}

// The squared distance between segments p1q1 and p2q2 (a segment may be a point).
static float segmentDistanceSquared(float p1x, float p1y, float q1x, float q1y, float p2x, float p2y, float q2x, float q2y)
{
	float d1x = q1x - p1x, d1y = q1y - p1y, d2x = q2x - p2x, d2y = q2y - p2y, rx = p1x - p2x, ry = p1y - p2y;
	float a = d1x * d1x + d1y * d1y, e = d2x * d2x + d2y * d2y, f = d2x * rx + d2y * ry;
	float s = 0.0f, t = 0.0f;
	if (a <= 0.0f && e <= 0.0f) {
		// both points
	} else if (a <= 0.0f) {
		t = fminf(fmaxf(f / e, 0.0f), 1.0f);
	} else {
		float c = d1x * rx + d1y * ry;
		if (e <= 0.0f) {
			s = fminf(fmaxf(-c / a, 0.0f), 1.0f);
		} else {
			float b = d1x * d2x + d1y * d2y, denom = a * e - b * b;
			s = denom > 0.0f ? fminf(fmaxf((b * f - c * e) / denom, 0.0f), 1.0f) : 0.0f;
			t = (b * s + f) / e;
			if (t < 0.0f) {
				t = 0.0f;
				s = fminf(fmaxf(-c / a, 0.0f), 1.0f);
			} else if (t > 1.0f) {
				t = 1.0f;
				s = fminf(fmaxf((b - c) / a, 0.0f), 1.0f);
			}
		}
	}
	float dx = (p1x + s * d1x) - (p2x + t * d2x), dy = (p1y + s * d1y) - (p2y + t * d2y);
	return dx * dx + dy * dy;
}

// Whether segments ab and cd cross at a point inside both (by the signs of the four orientations, in double:
// the distance of two crossing segments, computed in float, need not come out as 0).
static bool segmentsCross(float ax, float ay, float bx, float by, float cx, float cy, float dx, float dy)
{
	double o1 = ((double)bx - ax) * ((double)cy - ay) - ((double)by - ay) * ((double)cx - ax);
	double o2 = ((double)bx - ax) * ((double)dy - ay) - ((double)by - ay) * ((double)dx - ax);
	double o3 = ((double)dx - cx) * ((double)ay - cy) - ((double)dy - cy) * ((double)ax - cx);
	double o4 = ((double)dx - cx) * ((double)by - cy) - ((double)dy - cy) * ((double)bx - cx);
	return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

// The number of edges of a core: a point and a segment have one (from its first point to its last).
static inline int32_t edgeCount(const dkPlaced* p) { return p->count >= 3 ? p->count : 1; }

static inline void edge(const dkPlaced* p, int32_t i, float* ax, float* ay, float* bx, float* by)
{
	int32_t j = p->count >= 3 ? nextVertex(i, p->count) : p->count - 1;
	*ax = p->x[i], *ay = p->y[i], *bx = p->x[j], *by = p->y[j];
}

bool dkQuery_Overlaps(const dkPlaced* a, const dkPlaced* b)
{
	if (coreContains(a, b->x[0], b->y[0]) || coreContains(b, a->x[0], a->y[0])) return true;
	float reach = a->radius + b->radius, nearest = INFINITY;
	for (int32_t i = 0; i < edgeCount(a); ++i) {
		float ax, ay, bx, by;
		edge(a, i, &ax, &ay, &bx, &by);
		for (int32_t j = 0; j < edgeCount(b); ++j) {
			float cx, cy, dx, dy;
			edge(b, j, &cx, &cy, &dx, &dy);
			if (segmentsCross(ax, ay, bx, by, cx, cy, dx, dy)) return true;
			nearest = fminf(nearest, segmentDistanceSquared(ax, ay, bx, by, cx, cy, dx, dy));
		}
	}
	return nearest <= reach * reach;
}

// The first t in [0, best) where the ray p + t·d enters the circle (cx, cy, r), with its normal; false if none.
static bool rayCircle(float px, float py, float dx, float dy, float cx, float cy, float r, float* best, float* nx, float* ny)
{
	float mx = px - cx, my = py - cy, a = dx * dx + dy * dy;
	if (a <= 0.0f || r <= 0.0f) return false;
	float b = mx * dx + my * dy, c = mx * mx + my * my - r * r, disc = b * b - a * c;
	if (c <= 0.0f || disc < 0.0f || b > 0.0f) return false; // (c ≤ 0: the ray starts inside or on the circle)
	float t = (-b - sqrtf(disc)) / a;
	if (t < 0.0f || t >= *best) return false;
	*best = t;
	*nx = (mx + t * dx) / r;
	*ny = (my + t * dy) / r;
	return true;
}

// The first t in [0, best) where the ray meets segment ab from the side normal (nx, ny) points to (either side
// when `twoSided`), with the normal it meets; false if none.
static bool raySegment(float px, float py, float dx, float dy, float ax, float ay, float bx, float by, float nx, float ny,
					   bool twoSided, float* best, float* outNx, float* outNy)
{
	float den = nx * dx + ny * dy;
	if (den == 0.0f || (!twoSided && den > 0.0f)) return false;
	float t = (nx * (ax - px) + ny * (ay - py)) / den;
	if (t < 0.0f || t >= *best) return false;
	float qx = px + t * dx, qy = py + t * dy, ex = bx - ax, ey = by - ay, along = ex * (qx - ax) + ey * (qy - ay);
	if (along < 0.0f || along > ex * ex + ey * ey) return false;
	*best = t;
	*outNx = den < 0.0f ? nx : -nx;
	*outNy = den < 0.0f ? ny : -ny;
	return true;
}

bool dkQuery_RayCast(const dkPlaced* s, float px, float py, float dx, float dy, float maxFraction, dkRayResult* out)
{
	// A ray that starts inside a shape (or on it) does not enter it. A bare polygon's clipping and a circle's root
	// find that out themselves, and a bare segment has no inside; a rounded shape is asked.
	if (s->radius > 0.0f && s->count >= 2) {
		dkPlaced origin = {.kind = dkGeometryCircle, .count = 1, .x = {px}, .y = {py}};
		if (dkQuery_Overlaps(s, &origin)) return false;
	}
	float best = maxFraction, nx = 0.0f, ny = 0.0f;
	bool hit = false;
	if (s->count >= 3 && s->radius == 0.0f) { // a polygon: clipped by each edge's half-plane
		float lower = 0.0f, upper = maxFraction;
		int32_t index = -1;
		for (int32_t i = 0; i < s->count; ++i) {
			float num = s->nx[i] * (s->x[i] - px) + s->ny[i] * (s->y[i] - py), den = s->nx[i] * dx + s->ny[i] * dy;
			if (den == 0.0f) {
				if (num < 0.0f) return false;
			} else if (den < 0.0f && num < lower * den) {
				lower = num / den;
				index = i;
			} else if (den > 0.0f && num < upper * den) {
				upper = num / den;
			}
			if (upper < lower) return false;
		}
		if (index < 0 || lower > maxFraction) return false;
		best = lower, nx = s->nx[index], ny = s->ny[index], hit = true;
	} else if (s->count == 1) {
		hit = rayCircle(px, py, dx, dy, s->x[0], s->y[0], s->radius, &best, &nx, &ny);
	} else {
		int32_t edges = s->count >= 3 ? s->count : 2; // a segment: both of its sides
		float r = s->radius;
		for (int32_t i = 0; i < edges; ++i) {
			float ax = s->x[s->count >= 3 ? i : 0], ay = s->y[s->count >= 3 ? i : 0];
			float bx = s->x[s->count >= 3 ? nextVertex(i, s->count) : 1], by = s->y[s->count >= 3 ? nextVertex(i, s->count) : 1];
			float enx, eny;
			if (s->count >= 3) {
				enx = s->nx[i], eny = s->ny[i];
			} else {
				float ex = bx - ax, ey = by - ay, len = sqrtf(ex * ex + ey * ey);
				if (len <= 0.0f) continue;
				enx = (i == 0 ? ey : -ey) / len, eny = (i == 0 ? -ex : ex) / len;
			}
			hit = raySegment(px, py, dx, dy, ax + r * enx, ay + r * eny, bx + r * enx, by + r * eny, enx, eny, r == 0.0f,
							 &best, &nx, &ny) || hit;
		}
		for (int32_t i = 0; i < s->count && r > 0.0f; ++i) hit = rayCircle(px, py, dx, dy, s->x[i], s->y[i], r, &best, &nx, &ny) || hit;
	}
	if (!hit) return false;
	out->fraction = best;
	out->x = px + best * dx;
	out->y = py + best * dy;
	out->nx = nx;
	out->ny = ny;
	return true;
}
