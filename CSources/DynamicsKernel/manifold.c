// SPDX-License-Identifier: Apache-2.0
// Narrowphase geometry: contact manifolds (up to two points with feature ids) for circles, convex
// polygons (rounded ones and capsules too) and segments, after the separating-axis and reference-face
// clipping method of Box2D. A rounded polygon is its core polygon grown by its radius: the separations are
// the cores' less the radii, and the points lie halfway between the grown surfaces. Shapes arrive placed
// relative to a common origin; the normal points from shape A to shape B.
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
	float ra = a->radius; // a rounded polygon's surface lies this far out from its core
	if (separation - r - ra > speculative) return;
	int32_t next = nextVertex(face, a->count);
	float v1x = a->x[face], v1y = a->y[face], v2x = a->x[next], v2y = a->y[next];
	float u1 = (cx - v1x) * (v2x - v1x) + (cy - v1y) * (v2y - v1y);
	float u2 = (cx - v2x) * (v1x - v2x) + (cy - v2y) * (v1y - v2y);
	float nx, ny, pax, pay;
	if ((u1 < 0.0f || u2 < 0.0f) && separation > 1e-6f) {
		// Vertex region: the normal runs from the nearest vertex to the centre.
		float vx = u1 < 0.0f ? v1x : v2x, vy = u1 < 0.0f ? v1y : v2y;
		float dx = cx - vx, dy = cy - vy, d = sqrtf(dx * dx + dy * dy);
		if (d - r - ra > speculative || !(d > 1e-6f)) return;
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
	if (ra > 0.0f) {
		pax += ra * nx;
		pay += ra * ny;
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

// The incident edge of `inc` for a reference normal: the one most anti-parallel to it.
static int32_t incidentEdge(const dkPlaced* inc, float nx, float ny)
{
	int32_t edge = 0;
	float minDot = INFINITY;
	for (int32_t j = 0; j < inc->count; ++j) {
		float d = nx * inc->nx[j] + ny * inc->ny[j];
		if (d < minDot) {
			minDot = d;
			edge = j;
		}
	}
	return edge;
}

// Clips the incident edge of `inc` against the reference edge `edge` of `ref`.
static void clipPolygons(const dkPlaced* ref, const dkPlaced* inc, int32_t edge, bool flip, float speculative,
						 dkManifold* m)
{
	float nx = ref->nx[edge], ny = ref->ny[edge];
	int32_t i11 = edge, i12 = nextVertex(edge, ref->count);
	int32_t i21 = incidentEdge(inc, nx, ny), i22 = nextVertex(i21, inc->count);
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
	// Points halfway between the two surfaces (a rounded polygon's lies its radius out from its core).
	float rr = ref->radius, ri = inc->radius;
	if (rr == 0.0f && ri == 0.0f) {
		lx -= 0.5f * sl * nx;
		ly -= 0.5f * sl * ny;
		ux -= 0.5f * su * nx;
		uy -= 0.5f * su * ny;
	} else {
		lx += 0.5f * (rr - ri - sl) * nx;
		ly += 0.5f * (rr - ri - sl) * ny;
		ux += 0.5f * (rr - ri - su) * nx;
		uy += 0.5f * (rr - ri - su) * ny;
		sl -= rr + ri;
		su -= rr + ri;
	}
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

// The closest points of segments p1–q1 and p2–q2: their fractions along each, and the squared distance.
static float segmentDistance(float p1x, float p1y, float q1x, float q1y, float p2x, float p2y, float q2x, float q2y,
							 float* f1, float* f2)
{
	float d1x = q1x - p1x, d1y = q1y - p1y, d2x = q2x - p2x, d2y = q2y - p2y, rx = p1x - p2x, ry = p1y - p2y;
	float a = d1x * d1x + d1y * d1y, e = d2x * d2x + d2y * d2y, f = d2x * rx + d2y * ry;
	float c = d1x * rx + d1y * ry, b = d1x * d2x + d1y * d2y, denom = a * e - b * b;
	float s = 0.0f, t;
	if (denom > 0.0f) { // not parallel: the closest points of the lines, clamped to the first segment
		s = (b * f - c * e) / denom;
		s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
	}
	t = (b * s + f) / e; // then the second segment's point nearest it, and the first's again if clamped
	if (t < 0.0f) {
		t = 0.0f;
		s = -c / a;
		s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
	} else if (t > 1.0f) {
		t = 1.0f;
		s = (b - c) / a;
		s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
	}
	*f1 = s;
	*f2 = t;
	float dx = (p1x + s * d1x) - (p2x + t * d2x), dy = (p1y + s * d1y) - (p2y + t * d2y);
	return dx * dx + dy * dy;
}

// Rounded polygons (or a rounded one and a sharp one or a segment), as Box2D v3 collides them: while their
// cores stand apart by more than a tenth of the slop, the reference edge and the incident edge may be closest
// at two corners, and then they meet there, at one point on the line between the corners (two capsules end
// to end, a rounded box on another's corner), unless clipping the edges finds points nearly as close.
static void collideRounded(const dkPlaced* a, const dkPlaced* b, float sa, float sb, int32_t edgeA, int32_t edgeB,
						   float speculative, dkManifold* m)
{
	bool flip = sb > 0.1f * DK_LINEAR_SLOP + sa;
	const dkPlaced *ref = flip ? b : a, *inc = flip ? a : b;
	int32_t edge = flip ? edgeB : edgeA;
	clipPolygons(ref, inc, edge, flip, speculative, m);
	if (!((flip ? sb : sa) > 0.1f * DK_LINEAR_SLOP)) return;
	int32_t i11 = edge, i12 = nextVertex(edge, ref->count);
	int32_t i21 = incidentEdge(inc, ref->nx[edge], ref->ny[edge]), i22 = nextVertex(i21, inc->count);
	float f1, f2;
	float d2 = segmentDistance(ref->x[i11], ref->y[i11], ref->x[i12], ref->y[i12], inc->x[i21], inc->y[i21], inc->x[i22],
							   inc->y[i22], &f1, &f2);
	float distance = sqrtf(d2), radius = ref->radius + inc->radius, separation = distance - radius;
	if (separation > speculative) {
		m->count = 0;
		return;
	}
	float least = INFINITY;
	for (int32_t i = 0; i < m->count; ++i) least = fminf(least, m->points[i].separation);
	bool corners = (f1 == 0.0f || f1 == 1.0f) && (f2 == 0.0f || f2 == 1.0f);
	if (!(separation + 0.1f * DK_LINEAR_SLOP < least) || !corners || !(distance > 0.0f)) return;
	int32_t vr = f1 == 0.0f ? i11 : i12, vi = f2 == 0.0f ? i21 : i22;
	float ux = (inc->x[vi] - ref->x[vr]) / distance, uy = (inc->y[vi] - ref->y[vr]) / distance; // ref to inc
	float c1x = ref->x[vr] + ref->radius * ux, c1y = ref->y[vr] + ref->radius * uy;
	float c2x = inc->x[vi] - inc->radius * ux, c2y = inc->y[vi] - inc->radius * uy;
	m->nx = flip ? -ux : ux;
	m->ny = flip ? -uy : uy;
	m->count = 1;
	m->owners = flip ? dkNormalOnB : dkPoint0OnB; // the normal with the reference corner, the point with the other
	m->points[0] = (dkManifoldPoint){.px = 0.5f * (c1x + c2x), .py = 0.5f * (c1y + c2y), .separation = separation,
									 .id = flip ? DK_MAKE_ID(vi, vr) : DK_MAKE_ID(vr, vi)};
}

// Two shapes of two vertices, one rounded at least (capsules, or a capsule and a segment), as Box2D's
// b2CollideCapsules: the separating axis test of polygons has no axis along the segments, and two capsules end
// to end would meet along their sides. Near-parallel segments that overlap along A's axis touch at two points,
// B's ends clipped to A's extent; otherwise at one, between the closest points of the two segments.
static void collideCapsules(const dkPlaced* a, const dkPlaced* b, float speculative, dkManifold* m)
{
	float f1, f2, radius = a->radius + b->radius;
	float d2 = segmentDistance(a->x[0], a->y[0], a->x[1], a->y[1], b->x[0], b->y[0], b->x[1], b->y[1], &f1, &f2);
	float distance = sqrtf(d2);
	if (distance - radius > speculative) return;
	float ex = a->x[1] - a->x[0], ey = a->y[1] - a->y[0], fx = b->x[1] - b->x[0], fy = b->y[1] - b->y[0];
	float la = sqrtf(ex * ex + ey * ey), lb = sqrtf(fx * fx + fy * fy), ux = ex / la, uy = ey / la;
	// A's side facing B's middle, and B's ends along A's axis.
	float nx = -uy, ny = ux, mx = 0.5f * (b->x[0] + b->x[1]) - a->x[0], my = 0.5f * (b->y[0] + b->y[1]) - a->y[0];
	if (nx * mx + ny * my < 0.0f) {
		nx = -nx;
		ny = -ny;
	}
	float t0 = (b->x[0] - a->x[0]) * ux + (b->y[0] - a->y[0]) * uy, t1 = (b->x[1] - a->x[0]) * ux + (b->y[1] - a->y[0]) * uy;
	float sine = fabsf(ex * fy - ey * fx) / (la * lb);
	bool overlap = fminf(t0, t1) < la - DK_LINEAR_SLOP && fmaxf(t0, t1) > DK_LINEAR_SLOP;
	m->owners = dkPoint0OnB | dkPoint1OnB; // the normal with A, the points with B
	if (sine < 0.05f && overlap && distance > 0.1f * DK_LINEAR_SLOP) {
		m->nx = nx;
		m->ny = ny;
		m->count = 0;
		for (int32_t k = 0; k < 2; ++k) { // B's end k, moved along B to within A's extent
			float t = k == 0 ? t0 : t1, s = 0.0f;
			if (t < 0.0f) s = -t / (t1 - t0) * (k == 0 ? 1.0f : -1.0f);
			else if (t > la) s = (t - la) / (t1 - t0) * (k == 0 ? -1.0f : 1.0f);
			float frac = k == 0 ? s : 1.0f - s; // where along B, from its vertex 0
			float px = b->x[0] + frac * fx, py = b->y[0] + frac * fy;
			float separation = (px - a->x[0]) * nx + (py - a->y[0]) * ny - radius;
			if (separation > speculative) continue;
			float shift = 0.5f * (a->radius - b->radius - separation - radius);
			m->points[m->count++] = (dkManifoldPoint){.px = px + shift * nx, .py = py + shift * ny, .separation = separation,
													  .id = DK_MAKE_ID(k, 2)};
		}
		return;
	}
	float pax = a->x[0] + f1 * ex, pay = a->y[0] + f1 * ey, pbx = b->x[0] + f2 * fx, pby = b->y[0] + f2 * fy;
	if (distance > 0.1f * DK_LINEAR_SLOP) { // the closest points: the line between them
		nx = (pbx - pax) / distance;
		ny = (pby - pay) / distance;
	}
	float c1x = pax + a->radius * nx, c1y = pay + a->radius * ny, c2x = pbx - b->radius * nx, c2y = pby - b->radius * ny;
	m->nx = nx;
	m->ny = ny;
	m->count = 1;
	m->owners = dkPoint0OnB;
	m->points[0] = (dkManifoldPoint){.px = 0.5f * (c1x + c2x), .py = 0.5f * (c1y + c2y),
									 .separation = (c2x - c1x) * nx + (c2y - c1y) * ny,
									 .id = DK_MAKE_ID(f1 == 0.0f ? 0 : (f1 == 1.0f ? 1 : 2), f2 == 0.0f ? 0 : (f2 == 1.0f ? 1 : 2))};
}

static void collidePolygons(const dkPlaced* a, const dkPlaced* b, float speculative, dkManifold* m)
{
	int32_t edgeA, edgeB;
	float radius = a->radius + b->radius;
	float sa = dkMaxSeparation(a, b, &edgeA);
	if (sa > speculative + radius) return;
	float sb = dkMaxSeparation(b, a, &edgeB);
	if (sb > speculative + radius) return;
	if (radius > 0.0f)
		collideRounded(a, b, sa, sb, edgeA, edgeB, speculative, m);
	else if (sb > 0.1f * DK_LINEAR_SLOP + sa)
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
	if (least > speculative + p->radius) return;
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
		else if (a->count == 2 && b->count == 2 && a->radius + b->radius > 0.0f) collideCapsules(a, b, speculative, m);
		else collidePolygons(a, b, speculative, m);
	}
}
