// SPDX-License-Identifier: Apache-2.0
// Dynamics kernel: collision shapes, boundaries, filters and contact events.
// Lengths in points; a boundary is a static shape in world coordinates.
#ifndef DK_COLLISION_H
#define DK_COLLISION_H

#include "dk_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dkWorld dkWorld;

/// Most vertices of a polygon shape.
#define DK_MAX_POLYGON_VERTICES 16

/// A shape id: slot index + 1 (zero is the null id) and the slot's generation.
typedef struct dkShapeId {
	uint32_t index1;
	uint32_t generation;
} dkShapeId;

typedef enum dkGeometryKind {
	dkGeometryCircle = 0,  ///< centre (vertex 0) and radius
	/// convex polygon of 3…16 vertices (either winding), rounded by `radius` (≥ 0); with radius > 0, 2 vertices
	/// make a capsule (the points within the radius of the segment between them)
	dkGeometryPolygon = 1,
	dkGeometrySegment = 2, ///< a two-sided line segment (vertices 0 and 1)
} dkGeometryKind;

/// A collision shape. Item shapes are in the item's frame (relative to its centre, angle 0);
/// boundary shapes (null item) are static and in world coordinates.
///
/// Filtering: two item shapes collide when their `itemGroups` share a bit (they are in a common
/// collision behaviour whose mode includes items); an item shape and a boundary collide when the
/// item's `boundaryGroups` contains a bit of the boundary's `itemGroups` (its owning behaviour).
typedef struct dkShapeDef {
	dkItemId item;
	dkGeometryKind kind;
	int32_t count;
	float x[DK_MAX_POLYGON_VERTICES], y[DK_MAX_POLYGON_VERTICES];
	float radius; ///< pt: a circle's; a polygon's rounding (0: sharp corners)
	/// Segments only: dkChainPrevious and/or dkChainNext when the segment continues a chain at that end,
	/// with the neighbour's far vertex (its ghost vertex): the previous segment's start in x[2], y[2], the
	/// next segment's end in x[3], y[3]. Items slide over flat and valley joints on the faces, and meet the
	/// joint's vertex once outside a bend (manifold.c).
	uint32_t chain;
	uint64_t itemGroups, boundaryGroups;
	/// Item shapes only: nonzero, the shape never collides with another item's shape of the same exclusion
	/// group, whatever their groups (Box2D's negative group index: the limbs of one ragdoll). 0: none.
	int32_t exclusionGroup;
	int32_t tag; ///< returned in events (e.g. a boundary identifier's index)
} dkShapeDef;

enum {
	dkChainPrevious = 1u << 0, ///< another segment of the chain ends at vertex 0
	dkChainNext = 1u << 1,	   ///< another segment of the chain starts at vertex 1
};

dkShapeDef dkDefaultShapeDef(void);

/// Creates a shape. A polygon that is not convex (or has collinear or repeated vertices) fails with
/// dkResultInvalidValue naming "collisionBoundingPath".
dkResult dkWorld_CreateShape(dkWorld* world, const dkShapeDef* def, dkShapeId* outId, dkError* error);
dkResult dkWorld_DestroyShape(dkWorld* world, dkShapeId id, dkError* error);
/// Destroys every shape of an item (its shapes also go when the item is removed).
void dkWorld_DestroyItemShapes(dkWorld* world, dkItemId item);
dkResult dkWorld_SetShapeGroups(dkWorld* world, dkShapeId id, uint64_t itemGroups, uint64_t boundaryGroups,
								dkError* error);
/// Sets the groups of every shape of items[i] to itemGroups[i], boundaryGroups[i] and (unless
/// exclusionGroups is null) exclusionGroups[i], in one pass over the shapes (wakes items whose groups
/// change).
dkResult dkWorld_SetItemShapeGroups(dkWorld* world, const dkItemId* items, const uint64_t* itemGroups,
									const uint64_t* boundaryGroups, const int32_t* exclusionGroups, int32_t count,
									dkError* error);
bool dkWorld_ShapeIsValid(dkWorld* world, dkShapeId id);
/// The item a live shape belongs to (the null id for a boundary, or a stale shape id).
dkItemId dkWorld_ShapeItem(const dkWorld* world, dkShapeId id);

/// A touching pair that began or ended during the last step, in a deterministic order.
typedef struct dkContactEvent {
	dkShapeId shapeA, shapeB; ///< shapeA has the smaller slot
	dkItemId itemA, itemB;	  ///< the shapes' items (null for a boundary)
	int32_t tagA, tagB;
	float x, y; ///< contact point (began only), world coordinates, pt
	bool began;
} dkContactEvent;

/// The events of the last step; valid until the next step.
const dkContactEvent* dkWorld_ContactEvents(const dkWorld* world, int32_t* count);
/// Contacts (touching or speculative pairs) after the last step.
int32_t dkWorld_ContactCount(const dkWorld* world);

/// Pairs the broadphase finds for the current positions (for tests): writes up to `capacity` pairs of
/// shape slots (smaller first, sorted) and returns the number found (-1 when out of memory).
int32_t dkWorld_FindPairs(dkWorld* world, int32_t* outPairs, int32_t capacity);
/// The same pairs by testing every pair of AABBs (the broadphase's oracle).
int32_t dkWorld_FindPairsBruteForce(dkWorld* world, int32_t* outPairs, int32_t capacity);

#ifdef __cplusplus
}
#endif
#endif
