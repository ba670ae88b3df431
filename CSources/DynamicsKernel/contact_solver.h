// SPDX-License-Identifier: Apache-2.0
// Internal: the constraints of the coupled step, prepared once per step (contact_solver.c) and solved over
// the substeps (solver.c).
#ifndef DK_CONTACT_SOLVER_H
#define DK_CONTACT_SOLVER_H

#include "contact_soa.h"
#include "core.h"
#include "joint.h"

// A step's constraints, laid out for the solve: the body states the substeps work on (one per awake row, and
// the zero state at `awake` that items which do not move share), the contact layout with its colours'
// offsets, the joint layout with its colours' offsets (DK_GRAPH_COLOURS + 2 offsets each), and the joint
// chains. All of it is the step arena's scratch.
typedef struct dkConstraints {
	dkBodyState* states;
	dkContactSoA soa;
	dkJointSoA joints;
	dkJointChains chains;
	int32_t colourStart[DK_GRAPH_COLOURS + 2];
	int32_t jointStart[DK_GRAPH_COLOURS + 2];
} dkConstraints;

// Prepares this step's constraints for substeps of h seconds (contact_solver.c). False when out of memory;
// the world is then unchanged.
bool dkConstraints_Prepare(dkWorld* world, dkConstraints* constraints, float h);
// Solves them over `substeps` substeps of a dt-second step, integrating the awake rows, and stores the
// impulses for the next step's warm start (solver.c). False, having changed nothing, only when the step's
// reserved scratch fell short (dkSolver_ScratchBound).
bool dkSolver_Solve(dkWorld* world, dkConstraints* constraints, float dt, int32_t substeps);
// Copies the accumulated impulses of constraints [b, e) back to their contacts for the next step's warm start.
void dkContactSolver_StoreImpulses(dkWorld* world, const dkContactSoA* soa, int32_t b, int32_t e);

#endif
