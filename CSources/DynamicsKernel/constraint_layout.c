// SPDX-License-Identifier: Apache-2.0
// Data structure: the constraint layout, the place each contact or joint keeps in its colour's part of the
// solver's wide layout, as Box2D v3's constraint graph keeps a constraint in its colour's array. A constraint
// that takes a colour (constraint_graph.c) takes a place in it, a hole left by one that gave its place back
// or the next one, and keeps both until it gives its colour back; so a step neither walks its list to find
// the others nor groups them by colour again, and the solver fills each constraint's row where its place is
// (contact_solver.c, joint_solver.c). A colour's constraints share no moving item, so their order within the
// colour changes no bit of a step; the overflow group, solved one at a time, is solved in the order of its
// places.
#include "constraint.h"
#include "constraint_layout.h"
#include "memory.h"

#include <stdlib.h>

bool dkLayout_Reserve(dkWorld* world, dkConstraintLayout* layout, int32_t leaving)
{
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		// A group has no more holes than places.
		int32_t room = layout->holes[g].count + leaving < layout->used[g] ? layout->holes[g].count + leaving : layout->used[g];
		if (!dkInt32Array_Reserve(world, &layout->holes[g], room > 0 ? room : 1)) return false;
	}
	return true;
}

void dkLayout_Destroy(dkWorld* world, dkConstraintLayout* layout)
{
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) dkInt32Array_Destroy(world, &layout->holes[g]);
}

void dkLayout_Leave(dkConstraintLayout* layout, uint8_t colour, int32_t place)
{
	if (!layout->kept || colour == DK_GRAPH_NONE) return;
	dkInt32Array* holes = &layout->holes[colour];
	if (holes->count == holes->capacity) {
		layout->kept = false;
		return;
	}
	holes->data[holes->count++] = place;
	layout->holeCount++;
	layout->live--;
}

int32_t dkLayout_Join(dkConstraintLayout* layout, uint8_t colour)
{
	if (!layout->kept || colour == DK_GRAPH_NONE) return -1;
	dkInt32Array* holes = &layout->holes[colour];
	layout->live++;
	layout->joined++;
	if (holes->count > 0) {
		layout->holeCount--;
		return holes->data[--holes->count];
	}
	return layout->used[colour]++;
}

void dkLayout_Reset(dkConstraintLayout* layout, const int32_t* count, int reason)
{
	layout->reason = reason;
	layout->live = 0;
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		layout->used[g] = count[g];
		layout->holes[g].count = 0;
		layout->live += count[g];
	}
	layout->holeCount = 0;
	layout->joined = 0;
	layout->laidOut++;
	layout->kept = true;
}

int dkLayout_Stale(const dkConstraintLayout* layout)
{
	if (!layout->kept) return dkLayoutForgotten;
	if (4 * layout->holeCount > layout->live) return dkLayoutHoles;
	return 64 * layout->joined > layout->live ? dkLayoutJoins : dkLayoutKept;
}

int32_t dkLayout_Starts(dkConstraintLayout* layout)
{
	int32_t starts[DK_LAYOUT_GROUPS + 1] = {0};
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) starts[g + 1] = starts[g] + layout->used[g];
	int32_t total = dkGraph_Places(starts, DK_CONSTRAINT_PAD, layout->colourStart);
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) layout->liveEnd[g] = layout->colourStart[g] + layout->used[g];
	return total;
}

#ifdef DK_SELF_CHECKS
void dkLayoutCheck_Begin(dkLayoutCheck* check, const dkConstraintLayout* layout)
{
	check->live = 0;
	check->holds = true;
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		check->taken[g] = calloc((size_t)layout->used[g] + 1, 1);
		check->holds = check->holds && check->taken[g];
	}
}

void dkLayoutCheck_Mark(dkLayoutCheck* check, const dkConstraintLayout* layout, uint8_t colour, int32_t place)
{
	if (!check->holds || colour == DK_GRAPH_NONE) return;
	check->holds = colour < DK_LAYOUT_GROUPS && place >= 0 && place < layout->used[colour] && !check->taken[colour][place];
	if (check->holds) check->taken[colour][place] = 1;
	check->live++;
}

bool dkLayoutCheck_End(dkLayoutCheck* check, const dkConstraintLayout* layout)
{
	int32_t holes = 0;
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		for (int32_t h = 0; check->holds && h < layout->holes[g].count; ++h) {
			int32_t place = layout->holes[g].data[h];
			check->holds = place >= 0 && place < layout->used[g] && !check->taken[g][place];
			if (check->holds) check->taken[g][place] = 1;
		}
		holes += layout->holes[g].count;
		for (int32_t p = 0; check->holds && p < layout->used[g]; ++p) check->holds = check->taken[g][p];
		free(check->taken[g]);
	}
	return check->holds && check->live == layout->live && holes == layout->holeCount;
}
#endif
