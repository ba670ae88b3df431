// SPDX-License-Identifier: Apache-2.0
// Internal: the contact constraints of the coupled step (contact_solver.c).
#ifndef DK_CONTACT_SOLVER_H
#define DK_CONTACT_SOLVER_H

#include "contact_soa.h"
#include "core.h"
#include "joint.h"

// Lays out this step's constraints for substeps of h seconds: the contact layout in `soa` with its colours'
// offsets in colourStart, the joint layout in `joints` with jointStart (DK_GRAPH_COLOURS + 2 offsets each),
// and the joint chains, in the step arena's scratch. False when out of memory.
bool dkContactSolver_Prepare(dkWorld* world, dkContactSoA* soa, int32_t* colourStart, dkJointSoA* joints,
							 int32_t* jointStart, dkJointChains* chains, float h);
// Copies the accumulated impulses of constraints [b, e) back to their contacts for the next step's warm start.
void dkContactSolver_StoreImpulses(dkWorld* world, const dkContactSoA* soa, int32_t b, int32_t e);

#endif
