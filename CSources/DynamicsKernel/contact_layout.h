// SPDX-License-Identifier: Apache-2.0
// Internal: the contact layout (contact_layout.c): the place each contact of the list keeps in its colour's
// part of the solver's wide layout, from the step it takes its colour to the step it gives it back.
#ifndef DK_CONTACT_LAYOUT_H
#define DK_CONTACT_LAYOUT_H

#include "array.h"
#include "constraint_graph.h"

#include <stdbool.h>
#include <stdint.h>

#define DK_LAYOUT_GROUPS (DK_GRAPH_COLOURS + 1) // the colours, then the overflow group
#define DK_LAYOUT_CHUNKS 1024 // laying the places out again: chunks of the list at most (larger for more contacts)

// The places of the contacts of the list with a colour (dkContact.colour, which a contact has exactly while
// it has points; the overflow colour is a group of its own). Group g's places are [0, used[g]); a contact
// keeps its place (dkContact.place) while it keeps its colour and stays in the list, and the places given
// back are `holes`, which the next contacts to take the colour fill first. The solver lays group g out from
// colourStart[g] (each colour padded to a multiple of DK_CONSTRAINT_PAD, the overflow group last and
// unpadded), a hole being an inert constraint. `kept` says every contact of the list holds its place: a
// merge that sorts (items rested or woke: contacts leave the list for their sets and come back), sets giving
// their contacts back, and host calls that recolour contacts (anchoring) forget the places, and the next step
// lays them out again in list order; as it does when holes pass a quarter of the places held.
typedef struct dkContactLayout {
	int32_t used[DK_LAYOUT_GROUPS];
	dkInt32Array holes[DK_LAYOUT_GROUPS];
	int32_t holeCount, live; // holes, and places held
	int32_t colourStart[DK_LAYOUT_GROUPS + 1];
	int32_t liveEnd[DK_LAYOUT_GROUPS]; // colourStart + used: the padding of a colour starts here
	int32_t laidOut; // how many times the places were laid out again (the kernel checks read it)
	bool kept;
} dkContactLayout;

typedef struct dkWorld dkWorld;
typedef struct dkContact dkContact;

// Room for `leaving` contacts to give back their places, where the contact update may still fail; false when
// out of memory (nothing changes).
bool dkLayout_Reserve(dkWorld* world, int32_t leaving);
// A contact of the list gives back its place in `colour` (a hole), while the places are kept.
void dkLayout_Leave(dkWorld* world, uint8_t colour, int32_t place);
// A contact of the list that took its colour takes a place in it: a hole, or the next place.
void dkLayout_Join(dkWorld* world, dkContact* c);
// The layout of this step's contacts: the places kept, or laid out again (on the step's workers, in its
// scratch) when forgotten or too full of holes; then each group's start. With DK_SELF_CHECKS (debug builds,
// the kernel checks), the places kept are checked to be one per contact with a colour, and the holes the rest.
void dkLayout_Update(dkWorld* world);
void dkLayout_Destroy(dkWorld* world);

#endif
