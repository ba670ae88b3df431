// SPDX-License-Identifier: Apache-2.0
// Dynamics kernel: queries. Which shapes overlap a point, a circle or a convex polygon, and which a ray hits,
// at the items' poses of the moment (after the last step and any poses set since). Answered from a grid of the
// shapes' boxes that the first query after a change builds and later queries reuse (query.c).
#ifndef DK_QUERY_H
#define DK_QUERY_H

#include "dk_collision.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A shape to query with, in world coordinates (pt): the points within `radius` of the convex hull of its
/// 1…16 points (given in order, either winding, when 3 or more). One point with radius 0 is a point; one point
/// with a radius, a circle; two points, a segment or a capsule; four, a rectangle.
typedef struct dkQueryShape {
	int32_t count;
	float x[DK_MAX_POLYGON_VERTICES], y[DK_MAX_POLYGON_VERTICES];
	float radius; ///< ≥ 0
} dkQueryShape;

/// Which shapes a query sees: those whose `itemGroups` share a bit with `groups` (every bit set: every shape, one
/// in no group included), of items (`items`) and of boundaries (`boundaries`).
typedef struct dkQueryFilter {
	uint64_t groups;
	bool items, boundaries;
} dkQueryFilter;

/// A shape a ray enters: the shape, its item (null for a boundary), the fraction of the ray where it enters
/// (0 at the start, 1 at the end), the point (pt) and the shape's outward unit normal there.
typedef struct dkRayHit {
	dkShapeId shape;
	dkItemId item;
	float fraction, x, y, nx, ny;
} dkRayHit;

/// The shapes that overlap or touch `shape`, in ascending slot order: writes the first `capacity` of them to
/// `out` and returns how many there are, or -1 with `error` set (a point not finite, a radius negative, a count
/// outside 1…16, a polygon not convex; out of memory: the world is unchanged).
int32_t dkWorld_QueryOverlaps(dkWorld* world, const dkQueryShape* shape, dkQueryFilter filter, dkShapeId* out,
							  int32_t capacity, dkError* error);

/// Whether two query shapes overlap or touch, by the same exact test as dkWorld_QueryOverlaps: 1 or 0, or -1 with
/// `error` set when either is not a valid query shape. Needs no world.
int32_t dkQueryShapes_Overlap(const dkQueryShape* a, const dkQueryShape* b, dkError* error);

/// The shapes the ray from (x0, y0) to (x1, y1) enters; a shape the ray starts in is not entered. With `all`,
/// every one, by fraction (then slot); otherwise only the first (the lowest slot of equal fractions). Writes the
/// first `capacity` hits to `out` and returns how many there are (0 or 1 without `all`), or -1 with `error` set
/// (a coordinate not finite; out of memory).
int32_t dkWorld_RayCast(dkWorld* world, float x0, float y0, float x1, float y1, dkQueryFilter filter, bool all,
						dkRayHit* out, int32_t capacity, dkError* error);

/// Bulk ray casts: the first shape each of `count` rays, from (x0[i], y0[i]) to (x1[i], y1[i]), enters, into out[i]
/// (a null shape id when none), as dkWorld_RayCast without `all` answers. The rays are split between the world's
/// workers; each answer depends only on its ray. Returns dkResultOK, or an error (a coordinate not finite, with
/// its ray's index; out of memory) with `out` unspecified.
dkResult dkWorld_RayCastMany(dkWorld* world, const float* x0, const float* y0, const float* x1, const float* y1,
							 int32_t count, dkQueryFilter filter, dkRayHit* out, dkError* error);

/// Bulk point queries: for each of `count` points (x[i], y[i]), the first shape (lowest slot) that contains it into
/// out[i] (a null id when none) and, when `counts` is not null, how many shapes contain it. Split between the
/// workers as dkWorld_RayCastMany.
dkResult dkWorld_QueryPointsMany(dkWorld* world, const float* x, const float* y, int32_t count, dkQueryFilter filter,
								 dkShapeId* out, int32_t* counts, dkError* error);

#ifdef __cplusplus
}
#endif

#endif
