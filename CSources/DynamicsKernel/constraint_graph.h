// SPDX-License-Identifier: Apache-2.0
// Internal: the constraint graph (constraint_graph.c): the colour each contact and joint keeps while it
// lasts, and the per-item colour masks that choose it.
#ifndef DK_CONSTRAINT_GRAPH_H
#define DK_CONSTRAINT_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#define DK_GRAPH_COLOURS 24
#define DK_GRAPH_OVERFLOW DK_GRAPH_COLOURS // the colour of what found no free one: solved last, one at a time
#define DK_GRAPH_NONE 0xFF				   // not in the graph (a contact without points)

typedef struct dkWorld dkWorld;

// Makes room for `capacity` item slots; new slots are in no colour. False when out of memory (nothing changes).
bool dkGraph_Reserve(dkWorld* world, int32_t capacity);
void dkGraph_Destroy(dkWorld* world);
// A constraint between item slots a and b (-1: a boundary or the world) enters the graph: it takes the lowest
// colour that neither of its items that can move (not anchored) has, or the overflow colour. Writes which
// sides took the colour's bit (bit 0: a, bit 1: b), which dkGraph_Remove needs back.
uint8_t dkGraph_Add(dkWorld* world, int32_t a, int32_t b, uint8_t* sides);
// It leaves the graph: its colour's bit is given back on the sides that took it (slots that may since hold
// other items: their bit is still this constraint's, since a colour is one constraint's per item).
void dkGraph_Remove(dkWorld* world, uint8_t colour, uint8_t sides, int32_t a, int32_t b);
// Item slots that became able to move, or unable to (anchoring), marked per slot: their contacts and joints
// take their colours again, joints in slot order and then contacts in list order, so that the colour bits
// follow what can move. One pass over the constraints, however many items changed.
void dkGraph_Recolour(dkWorld* world, const uint8_t* marked);
// Where each group begins in a layout that pads every colour to a multiple of `pad` (the overflow group,
// last, unpadded), from where they begin unpadded (`starts`, DK_GRAPH_COLOURS + 2 of them): writes
// place[0…DK_GRAPH_COLOURS + 1] and returns the total.
int32_t dkGraph_Places(const int32_t* starts, int32_t pad, int32_t* place);

#endif
