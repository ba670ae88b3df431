// SPDX-License-Identifier: Apache-2.0
// Internal: the exact shape tests of the world's queries (query_geometry.c), on placed shapes (collision.h).
#ifndef DK_QUERY_GEOMETRY_H
#define DK_QUERY_GEOMETRY_H

#include "collision.h"

// Where a ray enters a shape: the fraction of the ray (0 at its start, 1 at its end), the point (pt) and the
// shape's outward unit normal there.
typedef struct dkRayResult {
	float fraction, x, y, nx, ny;
} dkRayResult;

// Whether two placed shapes overlap or touch.
bool dkQuery_Overlaps(const dkPlaced* a, const dkPlaced* b);

// Where the ray from (px, py) along (dx, dy) first enters shape s within [0, maxFraction]; false when it does
// not, or when it starts inside s.
bool dkQuery_RayCast(const dkPlaced* s, float px, float py, float dx, float dy, float maxFraction, dkRayResult* out);

#endif
