// SPDX-License-Identifier: Apache-2.0
// Narrowphase geometry: contact manifolds (up to two points with feature ids) for circles, convex
// polygons and segments, after the separating-axis and reference-face clipping method of Box2D.
// Shapes arrive placed relative to a common origin; the normal points from shape A to shape B.
#include "collision.h"

#include <math.h>
#include <string.h>

#define DK_MAKE_ID(a, b) (((uint32_t)(uint8_t)(a) << 8) | (uint8_t)(b))

// The vertex after i of a polygon of `count` (no division: this runs for every pair every step).
static inline int32_t nextVertex(int32_t i, int32_t count) { return i + 1 < count ? i + 1 : 0; }

// Lane by lane b < a ? b : a, as the scalar tree of minima below.
static inline dkF4 min4(dkF4 a, dkF4 b)
{
	dkM4 m = b < a;
	return (dkF4)(((dkM4)b & m) | ((dkM4)a & ~m));
}

// Largest separation of `b` from the edges of `a`: max over a's edges of min over b's vertices.
float dkMaxSeparation(const dkPlaced* a, const dkPlaced* b, int32_t* edge)
{
	float best = -INFINITY;
	*edge = 0;
	if (a->count == 4 && b->count == 4) { // two boxes, the common case: a's four edges in lanes
		dkF4 ax = dkLoad4(a->x), ay = dkLoad4(a->y), nx = dkLoad4(a->nx), ny = dkLoad4(a->ny);
		dkF4 d[4];
		for (int32_t j = 0; j < 4; ++j) {
			float bx = b->x[j], by = b->y[j];
			d[j] = nx * ((dkF4){bx, bx, bx, bx} - ax) + ny * ((dkF4){by, by, by, by} - ay);
		}
		dkF4 si = min4(min4(d[0], d[1]), min4(d[2], d[3]));
		for (int32_t i = 0; i < 4; ++i) {
			if (si[i] > best) {
				best = si[i];
				*edge = i;
			}
		}
		return best;
	}
	for (int32_t i = 0; i < a->count; ++i) {
		float nx = a->nx[i], ny = a->ny[i];
		float si = INFINITY;
		if (b->count == 4) { // boxes: a tree of minima instead of a chain
			float d0 = nx * (b->x[0] - a->x[i]) + ny * (b->y[0] - a->y[i]);
			float d1 = nx * (b->x[1] - a->x[i]) + ny * (b->y[1] - a->y[i]);
			float d2 = nx * (b->x[2] - a->x[i]) + ny * (b->y[2] - a->y[i]);
			float d3 = nx * (b->x[3] - a->x[i]) + ny * (b->y[3] - a->y[i]);
			float m01 = d1 < d0 ? d1 : d0, m23 = d3 < d2 ? d3 : d2;
			si = m23 < m01 ? m23 : m01;
		} else {
			for (int32_t j = 0; j < b->count; ++j) {
				float d = nx * (b->x[j] - a->x[i]) + ny * (b->y[j] - a->y[i]);
				if (d < si) si = d;
			}
		}
		if (si > best) {
			best = si;
			*edge = i;
		}
	}
	return best;
}

static void collideCircles(const dkPlaced* a, const dkPlaced* b, float speculative, dkManifold* m)
{
	float dx = b->x[0] - a->x[0], dy = b->y[0] - a->y[0];
	float dist = sqrtf(dx * dx + dy * dy);
	float separation = dist - a->radius - b->radius;
	if (separation > speculative) return;
	float nx = 1.0f, ny = 0.0f;
	if (dist > 1e-6f) {
		nx = dx / dist;
		ny = dy / dist;
	}
	float cax = a->x[0] + a->radius * nx, cay = a->y[0] + a->radius * ny;
	float cbx = b->x[0] - b->radius * nx, cby = b->y[0] - b->radius * ny;
	m->nx = nx;
	m->ny = ny;
	m->count = 1;
	m->points[0] = (dkManifoldPoint){.px = 0.5f * (cax + cbx), .py = 0.5f * (cay + cby), .separation = separation};
}

// Polygon (or segment) A against circle B.
static void collidePolygonCircle(const dkPlaced* a, const dkPlaced* b, float speculative, dkManifold* m)
{
	float cx = b->x[0], cy = b->y[0], r = b->radius;
	int32_t face = 0;
	float separation = -INFINITY;
	for (int32_t i = 0; i < a->count; ++i) {
		float s = a->nx[i] * (cx - a->x[i]) + a->ny[i] * (cy - a->y[i]);
		if (s > separation) {
			separation = s;
			face = i;
		}
	}
	if (separation - r > speculative) return;
	int32_t next = nextVertex(face, a->count);
	float v1x = a->x[face], v1y = a->y[face], v2x = a->x[next], v2y = a->y[next];
	float u1 = (cx - v1x) * (v2x - v1x) + (cy - v1y) * (v2y - v1y);
	float u2 = (cx - v2x) * (v1x - v2x) + (cy - v2y) * (v1y - v2y);
	float nx, ny, pax, pay;
	if ((u1 < 0.0f || u2 < 0.0f) && separation > 1e-6f) {
		// Vertex region: the normal runs from the nearest vertex to the centre.
		float vx = u1 < 0.0f ? v1x : v2x, vy = u1 < 0.0f ? v1y : v2y;
		float dx = cx - vx, dy = cy - vy, d = sqrtf(dx * dx + dy * dy);
		if (d - r > speculative || !(d > 1e-6f)) return;
		nx = dx / d;
		ny = dy / d;
		pax = vx;
		pay = vy;
	} else {
		nx = a->nx[face];
		ny = a->ny[face];
		pax = cx - separation * nx;
		pay = cy - separation * ny;
	}
	float pbx = cx - r * nx, pby = cy - r * ny;
	m->nx = nx;
	m->ny = ny;
	m->count = 1;
	m->owners = dkPoint0OnB;
	m->points[0] = (dkManifoldPoint){.px = 0.5f * (pax + pbx),
									 .py = 0.5f * (pay + pby),
									 .separation = (pbx - pax) * nx + (pby - pay) * ny};
}

// Clips the incident edge of `inc` against the reference edge `edge` of `ref`.
static void clipPolygons(const dkPlaced* ref, const dkPlaced* inc, int32_t edge, bool flip, float speculative,
						 dkManifold* m)
{
	float nx = ref->nx[edge], ny = ref->ny[edge];
	int32_t i11 = edge, i12 = nextVertex(edge, ref->count);
	// Incident edge: the one most anti-parallel to the reference normal.
	int32_t i21 = 0;
	float minDot = INFINITY;
	for (int32_t j = 0; j < inc->count; ++j) {
		float d = nx * inc->nx[j] + ny * inc->ny[j];
		if (d < minDot) {
			minDot = d;
			i21 = j;
		}
	}
	int32_t i22 = nextVertex(i21, inc->count);
	float v11x = ref->x[i11], v11y = ref->y[i11], v12x = ref->x[i12], v12y = ref->y[i12];
	float v21x = inc->x[i21], v21y = inc->y[i21], v22x = inc->x[i22], v22y = inc->y[i22];
	float tx = v12x - v11x, ty = v12y - v11y;
	float tl = sqrtf(tx * tx + ty * ty);
	tx /= tl;
	ty /= tl;
	float lower1 = 0.0f, upper1 = (v12x - v11x) * tx + (v12y - v11y) * ty;
	float upper2 = (v21x - v11x) * tx + (v21y - v11y) * ty; // the incident edge runs against the tangent
	float lower2 = (v22x - v11x) * tx + (v22y - v11y) * ty;
	float span = upper2 - lower2;
	float lx = v22x, ly = v22y, ux = v21x, uy = v21y;
	if (lower2 < lower1 && span > 1e-6f) {
		float t = (lower1 - lower2) / span;
		lx = v22x + t * (v21x - v22x);
		ly = v22y + t * (v21y - v22y);
	}
	if (upper2 > upper1 && span > 1e-6f) {
		float t = (upper1 - lower2) / span;
		ux = v22x + t * (v21x - v22x);
		uy = v22y + t * (v21y - v22y);
	}
	float sl = (lx - v11x) * nx + (ly - v11y) * ny;
	float su = (ux - v11x) * nx + (uy - v11y) * ny;
	// Points halfway between the two surfaces.
	lx -= 0.5f * sl * nx;
	ly -= 0.5f * sl * ny;
	ux -= 0.5f * su * nx;
	uy -= 0.5f * su * ny;
	m->nx = flip ? -nx : nx;
	m->ny = flip ? -ny : ny;
	m->count = 0;
	// The normal goes with the reference polygon; a point with the incident vertex, or, where the incident
	// edge was clipped, with the reference edge's end. The incident polygon is B unless flipped.
	bool lowerOnRef = lower2 < lower1 && span > 1e-6f, upperOnRef = upper2 > upper1 && span > 1e-6f;
	m->owners = flip ? dkNormalOnB : 0;
	if (sl <= speculative) {
		if (lowerOnRef == flip) m->owners |= dkPoint0OnB;
		m->points[m->count++] = (dkManifoldPoint){
			.px = lx, .py = ly, .separation = sl, .id = flip ? DK_MAKE_ID(i22, i11) : DK_MAKE_ID(i11, i22)};
	}
	if (su <= speculative) {
		if (upperOnRef == flip) m->owners |= m->count == 0 ? dkPoint0OnB : dkPoint1OnB;
		m->points[m->count++] = (dkManifoldPoint){
			.px = ux, .py = uy, .separation = su, .id = flip ? DK_MAKE_ID(i21, i12) : DK_MAKE_ID(i12, i21)};
	}
}

static void collidePolygons(const dkPlaced* a, const dkPlaced* b, float speculative, dkManifold* m)
{
	int32_t edgeA, edgeB;
	float sa = dkMaxSeparation(a, b, &edgeA);
	if (sa > speculative) return;
	float sb = dkMaxSeparation(b, a, &edgeB);
	if (sb > speculative) return;
	if (sb > 0.1f * DK_LINEAR_SLOP + sa)
		clipPolygons(b, a, edgeB, true, speculative, m);
	else
		clipPolygons(a, b, edgeA, false, speculative, m);
}

// Segment A against circle B: the closest point of the segment, so a centre on the segment's line
// beyond a free end touches the end, not the line. A chained end's region belongs to the neighbour: behind
// vertex 0 the previous segment meets the circle (its face, or its vertex 1); beyond vertex 1, a centre in
// the next segment's band is the next segment's, and one outside the bend meets this vertex once. So a
// circle rolls over flat and valley joints on the faces alone, and the line of a wall does not reach past
// a bend into the space beyond it (at a funnel's neck it met balls in the stem up to 8 pt deep).
static void collideSegmentCircle(const dkPlaced* a, const dkPlaced* b, float speculative, dkManifold* m)
{
	float cx = b->x[0], cy = b->y[0], r = b->radius;
	float ex = a->x[1] - a->x[0], ey = a->y[1] - a->y[0];
	float t = ((cx - a->x[0]) * ex + (cy - a->y[0]) * ey) / (ex * ex + ey * ey);
	if (t < 0.0f && (a->chain & dkChainPrevious)) return;
	if (t > 1.0f && (a->chain & dkChainNext)) {
		float fx = a->x[3] - a->x[1], fy = a->y[3] - a->y[1];
		if ((cx - a->x[1]) * fx + (cy - a->y[1]) * fy >= 0.0f) return; // the next segment's band
	}
	t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
	float px = a->x[0] + t * ex, py = a->y[0] + t * ey;
	float dx = cx - px, dy = cy - py, d = sqrtf(dx * dx + dy * dy);
	if (d - r > speculative) return;
	float nx = a->nx[0], ny = a->ny[0];
	if (d > 1e-6f) {
		nx = dx / d;
		ny = dy / d;
	}
	float bx = cx - r * nx, by = cy - r * ny;
	m->nx = nx;
	m->ny = ny;
	m->count = 1;
	m->owners = dkPoint0OnB;
	m->points[0] = (dkManifoldPoint){.px = 0.5f * (px + bx), .py = 0.5f * (py + by), .separation = d - r};
}

// How a chained segment meets polygon `p`, from where the polygon's centre lies: with its face only (the
// face edge, 0 or 1, whose normal points toward the polygon), so polygons slide over joints without
// catching, or as a whole segment (-1), where its end vertex may matter. The face within the segment's
// band, and beyond a chained end at a flat joint or in a valley (the centre inside the bend's angle, where
// the segment's line runs on behind the neighbour). The whole segment beyond a free end, and beyond a
// chained end outside a bend, where the line runs on into the space past the bend (at a funnel's neck it
// met boxes in the stem several pt deep).
static int32_t chainedFace(const dkPlaced* segment, const dkPlaced* p)
{
	if (segment->kind != dkGeometrySegment || segment->chain == 0) return -1;
	float cx = 0.0f, cy = 0.0f;
	for (int32_t i = 0; i < p->count; ++i) {
		cx += p->x[i];
		cy += p->y[i];
	}
	cx /= (float)p->count;
	cy /= (float)p->count;
	float ex = segment->x[1] - segment->x[0], ey = segment->y[1] - segment->y[0];
	float along = (cx - segment->x[0]) * ex + (cy - segment->y[0]) * ey;
	float side = (cx - segment->x[0]) * segment->nx[0] + (cy - segment->y[0]) * segment->ny[0];
	int32_t face = side >= 0.0f ? 0 : 1;
	int32_t end = along < 0.0f ? 0 : (along > ex * ex + ey * ey ? 1 : -1);
	if (end < 0) return face;
	if (!(segment->chain & (end == 0 ? dkChainPrevious : dkChainNext))) return -1;
	// From the joint v: the centre w, this segment back along u, the neighbour out along f.
	float vx = segment->x[end], vy = segment->y[end], wx = cx - vx, wy = cy - vy;
	float ux = end == 0 ? ex : -ex, uy = end == 0 ? ey : -ey;
	float fx = segment->x[2 + end] - vx, fy = segment->y[2 + end] - vy;
	float k = ux * fy - uy * fx, inU = ux * wy - uy * wx, inF = wx * fy - wy * fx;
	if (k * k <= 1e-8f * (ux * ux + uy * uy) * (fx * fx + fy * fy)) return face; // flat (within 0.006°)
	bool valley = k > 0.0f ? (inU >= 0.0f && inF >= 0.0f) : (inU <= 0.0f && inF <= 0.0f);
	return valley ? face : -1;
}

// A polygon against the face `edge` of a chained segment: no contact when every vertex is farther than
// the speculative distance in front of the face; otherwise the polygon's incident edge clipped to it.
static void collideChainedFace(const dkPlaced* segment, const dkPlaced* p, int32_t edge, bool flip, float speculative,
							   dkManifold* m)
{
	float nx = segment->nx[edge], ny = segment->ny[edge];
	float least = INFINITY;
	for (int32_t j = 0; j < p->count; ++j) {
		float d = nx * (p->x[j] - segment->x[edge]) + ny * (p->y[j] - segment->y[edge]);
		if (d < least) least = d;
	}
	if (least > speculative) return;
	clipPolygons(segment, p, edge, flip, speculative, m);
}

void dkCollide(const dkPlaced* a, const dkPlaced* b, float speculative, dkManifold* m)
{
	m->count = 0;
	m->owners = 0;
	bool circleA = a->kind == dkGeometryCircle, circleB = b->kind == dkGeometryCircle;
	if (circleA && circleB) {
		collideCircles(a, b, speculative, m);
	} else if (circleB) {
		(a->kind == dkGeometrySegment ? collideSegmentCircle : collidePolygonCircle)(a, b, speculative, m);
	} else if (circleA) {
		(b->kind == dkGeometrySegment ? collideSegmentCircle : collidePolygonCircle)(b, a, speculative, m);
		m->nx = -m->nx;
		m->ny = -m->ny;
		m->owners = dkNormalOnB; // the point on the circle, A
	} else {
		int32_t faceA = chainedFace(a, b), faceB = faceA < 0 ? chainedFace(b, a) : -1;
		if (faceA >= 0) collideChainedFace(a, b, faceA, false, speculative, m);
		else if (faceB >= 0) collideChainedFace(b, a, faceB, true, speculative, m);
		else collidePolygons(a, b, speculative, m);
	}
}
