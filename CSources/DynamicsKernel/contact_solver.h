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
	dkBodyState* states; // the awake rows', the zero state, the kinematic items' copies (constraint.h)
	int32_t* kinematicRows; // the awake kinematic items' rows, ascending: row kinematicRows[k] has state awake + 1 + k
	int32_t kinematicCount;
	dkContactSoA soa;
	dkJointSoA joints;
	dkJointChains chains;
	int32_t colourStart[DK_GRAPH_COLOURS + 2];
	int32_t jointStart[DK_GRAPH_COLOURS + 2];
} dkConstraints;

// The state of awake kinematic row `row` among `count` kinematic rows (ascending), the zero state being `zero`.
static inline int32_t dkKinematicState(const int32_t* rows, int32_t count, int32_t zero, int32_t row)
{
	int32_t lo = 0, hi = count;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (rows[mid] < row) lo = mid + 1;
		else hi = mid;
	}
	return zero + 1 + lo;
}

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
