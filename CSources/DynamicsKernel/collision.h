// SPDX-License-Identifier: Apache-2.0
// Internal: shapes, manifolds, contacts and contact constraints, and the constants of contact handling.
// Lengths are points: Box2D's metre-based tolerances scaled by 100 pt/m.
#ifndef DK_COLLISION_INTERNAL_H
#define DK_COLLISION_INTERNAL_H

#include "constraint_graph.h"
#include "core.h"
#include "dk_collision.h"

#include <string.h>

#define DK_LINEAR_SLOP 0.5f				   // pt: allowed overlap
#define DK_SPECULATIVE_DISTANCE 2.0f	   // pt: contact points are kept this far apart (4 × slop)
#define DK_CONTACT_HERTZ 30.0f			   // default stiffness of the soft contact (dkWorldDef.contactHertz)
#define DK_JOINT_HERTZ 60.0f			   // stiffness of rigid joints (at most half the substep rate), as Box2D
#define DK_CONTACT_DAMPING_RATIO 10.0f	   // damping of the soft contact
#define DK_CONTACT_PUSH_MAX_VELOCITY 300.0f // pt/s: the fastest overlap recovery
#define DK_RESTITUTION_THRESHOLD 100.0f	   // pt/s: slower impacts do not bounce
#define DK_AABB_MARGIN 10.0f			   // pt: fat boxes let the pair list survive small movements; an item
#define DK_AABB_MARGIN_FRACTION 0.125f	   // shape's grows by this fraction of its extent, at most DK_AABB_MARGIN
#define DK_RECYCLE_COS 0.999f			   // a manifold is reused while neither item turned more than 2.6°
#define DK_FRAME_STILL_TURN 1e-4f		   // a contact with DK_FRAME_STILL_FRICTION or more keeps the step's
#define DK_FRAME_STILL_MOVE 0.1f		   // frame while its items turn less (sin) and move apart less (pt)
#define DK_FRAME_STILL_FRICTION 0.01f	   // (stage_contact_wide.h)

// Everything but the vertices fits the first cache line, which is all a new contact reads.
typedef struct dkShape {
	int32_t body; // item slot, -1 for a boundary
	uint32_t generation;
	bool alive;
	dkGeometryKind kind;
	int32_t count;
	float radius;
	uint32_t chain; // segments: dkChainPrevious | dkChainNext, with ghost vertices 2 and 3
	int32_t tag;
	float extent; // pt: the farthest the shape reaches from its item's centre (0 for a boundary)
	uint64_t itemGroups, boundaryGroups;
	int32_t exclusionGroup; // nonzero: no pair with a shape of the same exclusion group
	float x[DK_MAX_POLYGON_VERTICES], y[DK_MAX_POLYGON_VERTICES];	// item frame, or world for boundaries
	float nx[DK_MAX_POLYGON_VERTICES], ny[DK_MAX_POLYGON_VERTICES]; // outward edge normals
} dkShape;
DK_ARRAY_FUNCTIONS(dkShape, dkShapeArray)

// A circle about its item's centre: its point of contact lies on the normal through the centre, however the
// item turns (contact.c and the contact solver turn its anchors with the normal, not the item).
static inline bool dkShape_CentredCircle(const dkShape* s)
{
	return s->kind == dkGeometryCircle && s->x[0] == 0 && s->y[0] == 0;
}

// Four floats: SSE2 on x86-64 and NEON on arm64, both baseline, so no dispatch. Lane arithmetic is the
// scalar arithmetic, operation for operation (no contraction: core.h), so the bits are the scalar path's.
// For boxes, the narrowphase's common case (manifold.c, dkPlaceShape).
typedef float dkF4 __attribute__((vector_size(16)));
typedef int32_t dkM4 __attribute__((vector_size(16)));

static inline dkF4 dkLoad4(const float* p)
{
	dkF4 v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline void dkStore4(float* p, dkF4 v) { memcpy(p, &v, sizeof v); }

// A shape placed in the world, relative to an origin near the pair (keeps float precision).
typedef struct dkPlaced {
	dkGeometryKind kind;
	int32_t count;
	float radius;
	uint32_t chain;
	float x[DK_MAX_POLYGON_VERTICES], y[DK_MAX_POLYGON_VERTICES];
	float nx[DK_MAX_POLYGON_VERTICES], ny[DK_MAX_POLYGON_VERTICES];
} dkPlaced;

typedef struct dkManifoldPoint {
	float px, py;		// contact point relative to the pair origin
	float separation;	// negative when overlapping, pt
	uint32_t id;		// feature id for matching across steps
	// When the manifold was computed (contact.c reuses it while the items move little): the point
	// relative to A's centre (world orientation; the world origin for a boundary), and its separation.
	float anchorX, anchorY, baseSeparation;
} dkManifoldPoint;

// Which item a manifold's normal and points go with when contact.c reuses it: the normal with the item whose
// face it is (a circle's with the other item), a point with the item whose vertex or circle it is.
enum { dkNormalOnB = 1u << 0, dkPoint0OnB = 1u << 1, dkPoint1OnB = 1u << 2 };

// A point's accumulated impulses, N·s (warm start).
typedef struct dkPointImpulse {
	float normal, tangent;
} dkPointImpulse;

typedef struct dkManifold {
	float nx, ny; // from A to B
	int32_t count;
	uint32_t owners; // dkNormalOnB | dkPoint0OnB | dkPoint1OnB
	// Each point's impulses, side by side rather than in the points: the solver writes them back to the
	// contacts after each step, in the solver's order (contact_solver.c), and together they lie on one cache
	// line far more often.
	dkPointImpulse impulses[2];
	dkManifoldPoint points[2];
} dkManifold;

// A contact's shapes (dkContact.kinds): circles, and circles about their items' centres (dkShape_CentredCircle).
enum { dkContactCircleA = 1u << 0, dkContactCircleB = 1u << 1, dkContactCentredA = 1u << 2, dkContactCentredB = 1u << 3 };

typedef struct dkContact {
	int32_t shapeA, shapeB; // slots, shapeA < shapeB
	uint32_t generationA, generationB;
	int32_t bodyA, bodyB; // the shapes' item slots (-1 for a boundary)
	dkItemId itemA, itemB; // the items' ids when the contact began (null for a boundary)
	int32_t tagA, tagB;
	float originX, originY; // the pair origin of the manifold, world
	dkManifold manifold;
	// The poses the manifold was computed at: A's and B's rotations, and B's centre less A's (world).
	float cachedCosA, cachedSinA, cachedCosB, cachedSinB, cachedDx, cachedDy, cachedNx, cachedNy;
	// What the step reads of its shapes, which a shape keeps for its lifetime: the farther reach of the two
	// from their items' centres (dkShape.extent), pt, and their kinds (dkContactCircleA …).
	float extent;
	uint8_t kinds;
	bool cached; // the manifold has points and may be reused (contact.c)
	bool fresh;	 // the manifold is as computed at the cached poses: no reuse has moved it since (contact_manifold.c)
	bool touching;
	uint8_t colour;		 // its colour in the constraint graph while it has points, else DK_GRAPH_NONE
	uint8_t colourSides; // which items took the colour's bit (dkGraph_Add)
	int32_t place;		 // with a colour, in the list: its place in the colour (constraint_layout.h)
} dkContact;
DK_ARRAY_FUNCTIONS(dkContact, dkContactArray)
DK_ARRAY_FUNCTIONS(dkContactEvent, dkContactEventArray)

// Narrowphase (manifold.c): collide two placed shapes; points farther apart than `speculative` are dropped.
void dkCollide(const dkPlaced* a, const dkPlaced* b, float speculative, dkManifold* m);
// The largest separation of b from a's edges (max over a's edges of min over b's vertices) and that edge;
// the separating-axis test of two polygons. Two boxes take four edges at once.
float dkMaxSeparation(const dkPlaced* a, const dkPlaced* b, int32_t* edge);
// Places a shape of a body at (x, y, angle) relative to an origin.
void dkPlaceShape(const dkShape* restrict s, float x, float y, float c, float sn, float ox, float oy, dkPlaced* restrict out);

// Shapes (shape_store.c).
void dkShapes_Destroy(dkWorld* world);
void dkShapes_RemoveItem(dkWorld* world, uint32_t slot);
// Destroys the shapes of every item slot marked in `removed` (one byte per item slot) in one pass.
void dkShapes_RemoveItems(dkWorld* world, const uint8_t* removed);

// Broadphase (broadphase.c): candidate pairs for the current positions, fattened for a step of dt;
// -1 when out of memory (the pair list is then incomplete).
int32_t dkBroadphase_Pairs(dkWorld* world, float dt, bool bruteForce);
// Room for `slots` shape slots in the list of changed shapes; false when out of memory.
bool dkBroadphase_ReserveChanges(dkWorld* world, int32_t slots);
// The shape in `slot` was made or freed, or its filter changed: the next pass takes it in (a no-op while the
// pair list is not valid, as the next pass is then full).
void dkBroadphase_NoteShape(dkWorld* world, int32_t slot);
// Every shape of the item in `slot` changed filter (a joint joined or parted it).
void dkBroadphase_NoteItem(dkWorld* world, int32_t slot);
void dkBroadphase_Destroy(const dkWorld* world, dkBroadphase* broadphase);

// What the pair test needs of a shape slot, 24 bytes (the shapes themselves are ~300).
typedef struct dkFilter {
	uint64_t itemGroups, boundaryGroups;
	int32_t body;
	bool alive;
	bool active;   // on an awake item that moves (dynamic, or kinematic: it may wake what it meets)
	bool separate; // the item is joined to some item it must not collide with (joint_pairs.c)
	bool dynamic;  // on an item that constraints move (not anchored, not kinematic; a boundary is not)
	int32_t exclusionGroup; // the shape's (0: none)
} dkFilter;

bool dkJointPairs_Contains(const dkWorld* world, int32_t a, int32_t b);

// Two shapes collide when they are on different items (or one is a boundary), one of those items is
// dynamic, they are not in the same exclusion group, their groups accept each other (items share an item
// group; an item's boundary groups contain the boundary's group), and no joint between their items keeps
// them apart.
static inline bool dkAccepts(const dkWorld* world, const dkFilter* a, const dkFilter* b)
{
	if (a->body >= 0 && a->body == b->body) return false;
	if (a->exclusionGroup != 0 && a->exclusionGroup == b->exclusionGroup) return false;
	if (!a->dynamic && !b->dynamic) return false;
	if (a->body < 0 && b->body < 0) return false;
	if (a->body >= 0 && b->body >= 0)
		return (a->itemGroups & b->itemGroups) != 0 &&
			   !(a->separate && b->separate && dkJointPairs_Contains(world, a->body, b->body));
	const dkFilter* item = a->body >= 0 ? a : b;
	const dkFilter* boundary = a->body >= 0 ? b : a;
	return (item->boundaryGroups & boundary->itemGroups) != 0;
}

// Whether live shapes i and j make a pair: their fat boxes overlap, one of them moves, and they accept
// each other.
static inline bool dkCandidate(const dkWorld* world, int32_t i, int32_t j, const dkFilter* filters)
{
	const float *a = world->fatAabb + 4 * i, *b = world->fatAabb + 4 * j;
	if (a[0] > b[2] || b[0] > a[2] || a[1] > b[3] || b[1] > a[3]) return false;
	if (!filters[i].active && !filters[j].active) return false;
	return dkAccepts(world, &filters[i], &filters[j]);
}

// Pair grid (pair_grid.c): the pairs of the live shapes' fat boxes (`slots` ascending), sorted, into the
// world's pair list; false when out of memory (the list is then incomplete).
bool dkPairGrid_Find(dkWorld* world, const int32_t* slots, int32_t live, const dkFilter* filters);
// The pairs again after the fat boxes of the `loose` shapes (ascending, marked in `isLoose` by shape slot)
// changed since the last dkPairGrid_Find: that build's grid finds their partners, and the pairs of the
// other shapes stay. 0 when done (`unchanged` receives whether the list is pair for pair the one it was:
// the loose shapes kept their partners), 1 when the grid cannot answer for them (a large shape among them:
// find every pair instead), -1 when out of memory (the list is then unchanged).
int dkPairGrid_Update(dkWorld* world, const int32_t* loose, int32_t looseCount, const uint8_t* isLoose,
					  const dkFilter* filters, bool* unchanged);
// The pairs as dkPairGrid_Find would give them, from two grids: one over the `still` shapes (none of which
// can move: resting and anchored items, boundaries), built only when *stillBuilt is false, which then
// holds; and one over the `movers` (the others, ascending), built here, whose shapes look their partners
// up in the first. A step that moves a few shapes beside many still ones then pays for what moves. 0 when
// done; 1 when a mover spans so many of the still grid's cells that one grid of every shape is cheaper;
// -1 when out of memory (the list is then incomplete). Later dkPairGrid_Update calls look in both.
int dkPairGrid_FindSplit(dkWorld* world, const int32_t* movers, int32_t moverCount, const int32_t* still,
						 int32_t stillCount, const uint8_t* isLoose, const dkFilter* filters, bool* stillBuilt);
void dkPairGrid_Destroy(const dkWorld* world, dkPairGrid* grid);

// Contacts (contact.c): pairs → manifolds, warm-start matching, events; wakes touched resting items.
// False when out of memory: the world is then as it was. Before it changes anything, it reserves the scratch
// the rest of a step of `substeps` substeps takes (dkSolver_ReserveScratch).
bool dkContacts_Update(dkWorld* world, float dt, int32_t substeps);
void dkContacts_Destroy(dkWorld* world);
// The places of this step's contacts in their colours (contact_layout.c): those kept, or laid out again
// (on the step's workers, in its scratch: DK_LAYOUT_CHUNKS counts per group at most) when forgotten or too
// full of holes; then each group's start. With DK_SELF_CHECKS (debug builds, the kernel checks), the places
// kept are checked to be one per contact with a colour, and the holes the rest.
#define DK_LAYOUT_CHUNKS 1024
void dkContacts_Places(dkWorld* world);
// A contact's manifold at the current poses (the Cos and Sin columns current), computed again or reused.
void dkContact_UpdateManifold(const dkWorld* world, dkContact* c, float dt);


#endif
