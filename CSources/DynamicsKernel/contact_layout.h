// SPDX-License-Identifier: Apache-2.0
// Internal: the contact layout (contact_layout.c): which contacts the solver takes, with their items' rows and
// their places in the wide layout, kept from step to step while nothing it reads changes.
#ifndef DK_CONTACT_LAYOUT_H
#define DK_CONTACT_LAYOUT_H

#include "array.h"
#include "constraint_graph.h"

#include <stdbool.h>
#include <stdint.h>

// A contact the solver takes: its index in the contact list, its items' moving rows (dkMovingRow: -1 for a
// side that does not move) and its constraint's place in the contact layout (contact_soa.h). 16 bytes.
typedef struct dkLayoutEntry {
	int32_t contact, rowA, rowB, slot;
} dkLayoutEntry;
_Static_assert(sizeof(dkLayoutEntry) == 16, "dkLayoutEntry is 16 bytes");
DK_ARRAY_TYPE(dkLayoutEntry, dkLayoutEntryArray);
DK_ARRAY_FUNCTIONS(dkLayoutEntry, dkLayoutEntryArray)

// The contacts with points and a moving item, in list order, grouped by the colours they keep in the
// constraint graph: colour c's constraints take places [colourStart[c], liveEnd[c]) and its padding up to
// colourStart[c + 1] (a multiple of DK_CONSTRAINT_PAD; the overflow group, last, is not padded). `kept`
// says the layout is still the world's: it reads the contact list's order, each contact's colour (which it
// has exactly while it has points) and its items' moving rows, and whatever changes one of them forgets it
// (dkLayout_Forget, core.h): a merge or a set's contacts coming back, a colour taken or given back, a row
// moved, an item made, removed, anchored, rested or woken.
typedef struct dkContactLayout {
	dkLayoutEntryArray entries;
	int32_t colourStart[DK_GRAPH_COLOURS + 2];
	int32_t liveEnd[DK_GRAPH_COLOURS + 1];
	bool kept;
} dkContactLayout;

typedef struct dkWorld dkWorld;

// Room for `contacts` entries, between steps or where a step may still fail; false when out of memory (the
// layout is then unchanged).
bool dkLayout_Reserve(dkWorld* world, int32_t contacts);
// The layout of this step's contacts: kept, or laid out again (on the step's workers, in its scratch) when
// forgotten. With DK_SELF_CHECKS (debug builds, the kernel checks), a kept layout is checked against one laid
// out again.
void dkLayout_Update(dkWorld* world);
void dkLayout_Destroy(dkWorld* world);

#endif
