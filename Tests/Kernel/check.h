// SPDX-License-Identifier: Apache-2.0
// The checks of the C kernel (see main.c): the report every check writes to, the shared harness
// (harness.c) and one entry point per group of checks, each in its own file.
#ifndef DK_KERNEL_CHECK_H
#define DK_KERNEL_CHECK_H

#include "DynamicsKernel.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define G 1000.0f // pt/s²: GravityBehavior magnitude 1
#define FLOOR 2000.0f

#define MAX_STATES 16

// Counts checks and failures, and keeps each scene's state hash to compare machines.
typedef struct Report {
	int failures, checks;
	int states;
	char stateName[MAX_STATES][64];
	unsigned long long stateHash[MAX_STATES];
} Report;

// Records one check and prints it: "ok" or "FAIL", what was checked and, when given, the detail.
void check(Report* r, int ok, const char* what, const char* detail);

// Worlds at SIMD level `limit` whose host runs the kernel's tasks on real threads; with `serial`, the
// workers run one after another on the caller's thread, last first.
dkWorld* makeHostWorld(dkSimdLevel limit, int32_t workers, dkIntegrator integrator, bool serial);
dkWorld* makeWorld(dkSimdLevel limit, int32_t workers, dkIntegrator integrator);
// Exits with the kernel's message when a call fails.
void must(dkResult result, const dkError* error, const char* call);

// Builders (pt, rad): an item of any shape, a box, a ball, a static segment (its shape id); and `steps` steps
// of 1/60 s.
dkItemId item(dkWorld* w, dkShapeKind shape, float x, float y, float angle, float width, float height,
			  float elasticity);
dkItemId box(dkWorld* w, float x, float y, float angle, float width, float height);
dkItemId ball(dkWorld* w, float x, float y, float diameter, float elasticity);
dkShapeId segment(dkWorld* w, float x0, float y0, float x1, float y1);
void step(dkWorld* w, int32_t steps);
// Every item's pose and velocity (x, y, angle, vx, vy, ω: each a column of *items floats), malloc'd.
float* packStates(const dkWorld* w, int32_t* items);

// Solver sets (set_checks.c; w is a dkWorld* seen through the kernel's internal headers): the resting contact
// lists (the world's, then each set's) into lists/counts, at most `max`, returning how many; and the sets'
// invariants between steps, returning the faults found (the first described in `detail`).
typedef struct dkContact dkContact;
int32_t restingLists(const dkWorld* w, const dkContact** lists, int32_t* counts, int32_t max);
int32_t setFaults(const dkWorld* w, char* detail, size_t size);

// Whether the world's pair list is what a search of every pair of live shapes finds from its fat boxes
// (collision_checks.c; w is a dkWorld* seen through the kernel's internal headers).
bool pairsAsBruteForce(const dkWorld* w);
// A floor, boxes at rest in mid-air and bouncing balls beside them (collision_checks.c).
void restingGridBesideBalls(dkWorld* w, float floorY, int columns, int boxes, int ballColumns, int balls, dkItemId* grid);

// The groups of checks.
void checkScenes(Report* r);                           // scene_checks.c
int writeStates(const Report* r, const char* path);    // scene_checks.c
void compareStates(Report* r, const char* path);       // scene_checks.c
void compareColumns(Report* r, dkSimdLevel best);      // column_checks.c
void sorts(Report* r);                                 // sort_checks.c
void colourings(Report* r);                            // colouring_checks.c
void separations(Report* r);                           // collision_checks.c
void manifolds(Report* r);                             // collision_checks.c
void persistentContacts(Report* r);                    // collision_checks.c
void recycledManifolds(Report* r);                     // collision_checks.c
void patchedPairs(Report* r);                          // collision_checks.c
void fatBoxes(Report* r);                              // collision_checks.c
void splitGrids(Report* r);                            // collision_checks.c
void churnedPairs(Report* r);                          // churn_checks.c
void contactFrames(Report* r, dkSimdLevel best);      // frame_checks.c
void restingContacts(Report* r);                       // rest_checks.c
void solverSets(Report* r);                            // set_checks.c
void randomSets(Report* r);                            // set_checks.c
void holdingSets(Report* r);                           // set_checks.c
void contactLayouts(Report* r);                        // layout_checks.c
void laws(Report* r);                                  // law_checks.c
void queries(Report* r);                               // query_checks.c
void springs(Report* r, dkSimdLevel best);             // spring_checks.c
void snapshots(Report* r, const char* writePath, const char* comparePath); // snapshot_checks.c

#endif
