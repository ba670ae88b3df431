// SPDX-License-Identifier: Apache-2.0
// Internal: the constraint layout (constraint_layout.c), the place each contact or joint keeps in its colour's
// part of the solver's wide layout, from the step it takes its colour to the step it gives it back. The world
// has one for the contacts of the list (laid out again by contact_layout.c) and one for the awake set's joints
// (by joint_solver.c).
#ifndef DK_CONSTRAINT_LAYOUT_H
#define DK_CONSTRAINT_LAYOUT_H

#include "array.h"
#include "constraint_graph.h"

#include <stdbool.h>
#include <stdint.h>

#define DK_LAYOUT_GROUPS (DK_GRAPH_COLOURS + 1) // the colours, then the overflow group

// The places of the constraints with a colour (the overflow colour is a group of its own). Group g's places
// are [0, used[g]); a constraint keeps its place while it keeps its colour, and the places given back are
// `holes`, which the next constraints to take the colour fill first. The solver lays group g out from
// colourStart[g] (each colour padded to a multiple of DK_CONSTRAINT_PAD, the overflow group last and
// unpadded), a hole being an inert constraint. `kept` says every constraint holds its place; when it is
// false, when holes pass a quarter of the places held, or when the places taken since the last lay-out pass
// a 64th of those held, the next step lays them out again in the order of their list (dkLayout_Stale). The
// last keeps the rows in list order but for a few: the fill runs over the list in a share per worker, and
// rows taken out of that order put both workers' writes in the same blocks of the layout, which made the
// step of the partly-resting benchmark's awake pile 5-18 % longer at 2 workers (Benchmarks/results).
typedef struct dkConstraintLayout {
	int32_t used[DK_LAYOUT_GROUPS];
	dkInt32Array holes[DK_LAYOUT_GROUPS];
	int32_t holeCount, live; // holes, and places held
	int32_t joined; // places taken since the places were last laid out
	int reason; // why they were last laid out (dkLayout_Stale's reasons)
	int32_t colourStart[DK_LAYOUT_GROUPS + 1];
	int32_t liveEnd[DK_LAYOUT_GROUPS]; // colourStart + used: the padding of a colour starts here
	int32_t laidOut; // how many times the places were laid out again (the kernel checks read it)
	bool kept;
} dkConstraintLayout;

typedef struct dkWorld dkWorld;

// Room for `leaving` constraints to give back their places without allocating; false when out of memory
// (nothing changes).
bool dkLayout_Reserve(dkWorld* world, dkConstraintLayout* layout, int32_t leaving);
// A constraint gives back its place in `colour` (a hole) while the places are kept; without room for the
// hole (dkLayout_Reserve) the places are forgotten instead, to be laid out again.
void dkLayout_Leave(dkConstraintLayout* layout, uint8_t colour, int32_t place);
// A constraint that took `colour` takes a place in it: a hole, or the next place. Returns the place, or -1
// while the places are forgotten (or for no colour).
int32_t dkLayout_Join(dkConstraintLayout* layout, uint8_t colour);
// Whether the places must be laid out again, and why: kept (0), forgotten, holes passing a quarter of the
// places held, or places taken since the last lay-out passing a 64th of them.
enum { dkLayoutKept, dkLayoutForgotten, dkLayoutHoles, dkLayoutJoins };
int dkLayout_Stale(const dkConstraintLayout* layout);
// The places are laid out again (for dkLayout_Stale's `reason`): group g holds count[g] places, without holes.
void dkLayout_Reset(dkConstraintLayout* layout, const int32_t* count, int reason);
// Each group's start in the solver's layout (colourStart, liveEnd), from the places held; returns the total.
int32_t dkLayout_Starts(dkConstraintLayout* layout);
#ifdef DK_SELF_CHECKS
// Checking the places kept (debug builds, the kernel checks): Begin, then Mark each constraint's colour and
// place; End says whether the places were one per constraint with a colour and the holes the rest.
typedef struct dkLayoutCheck {
	uint8_t* taken[DK_LAYOUT_GROUPS];
	int32_t live;
	bool holds;
} dkLayoutCheck;
void dkLayoutCheck_Begin(dkLayoutCheck* check, const dkConstraintLayout* layout);
void dkLayoutCheck_Mark(dkLayoutCheck* check, const dkConstraintLayout* layout, uint8_t colour, int32_t place);
bool dkLayoutCheck_End(dkLayoutCheck* check, const dkConstraintLayout* layout);
#endif
void dkLayout_Destroy(dkWorld* world, dkConstraintLayout* layout);

// The constraints changed colour, or left their list or came back, other than by dkLayout_Leave and
// dkLayout_Join: the next step lays their places out again.
static inline void dkLayout_Forget(dkConstraintLayout* layout) { layout->kept = false; }

#endif
