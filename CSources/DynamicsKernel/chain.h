// SPDX-License-Identifier: Apache-2.0
// Internal: what the two halves of the joint chains' stage share (joint_chain.c: which joints form chains,
// their rows and what the rest of the step takes from them; chain_solve.c: the exact solves and the
// projection).
#ifndef DK_CHAIN_H
#define DK_CHAIN_H

#include "joint.h"

#define DK_CHAIN_ITEM_JOINTS 256
#define DK_CHAIN_LIMIT_ROUNDS 4
#define DK_CHAIN_RATTLE_STEPS 4		   // RATTLE projection steps per substep at most (dkChains_Project)
#define DK_CHAIN_RATTLE_TOLERANCE 1e-4 // pt or rad: errors this small end the projection
#define DK_CHAIN_RATTLE_ERROR 1.0	   // pt or rad: larger errors are projected without changing velocities
#define DK_CHAIN_RAISE_FROM 0.5	  // (hω)² of the stiff mode where the raised inertia sets in (fully at twice)

// Per chain joint in the scratch: J_A, J_B (3×3, rows × (vx, vy, ω)), S⁻¹ (3×3), G = S⁻¹ E (3×3) to the
// next joint, y (the forward-eliminated right-hand side) and x (the impulses).
// C (the position errors), and for a limit row whether it is active in this solve.
enum { dkChainJA = 0, dkChainJB = 9, dkChainSinv = 18, dkChainG = 27, dkChainY = 36, dkChainX = 39, dkChainC = 42,
	   dkChainActive = 45, dkChainScratch = 46 };
_Static_assert(dkChainScratch == DK_CHAIN_SCRATCH, "joint.h gives the scratch size to the step's bound");

// The one-sided rows this stage solves: a pin's angle limit and a slider's axial limit, always the third row.
enum { dkChainLimitRows = dkJointRowAngleLimit | dkJointRowAxialLimit };

// The Jacobians (rows × (vx, vy, ω) of A and of B) and position errors of a joint's direct rows at the
// current substep (joint_chain.c says more); returns the number of rows.
int dkChain_Rows(uint8_t rows, const dkJointSoA* soa, int32_t k, const dkBodyState* a, const dkBodyState* b,
				 double* ja, double* jb, double* error, double* side, const float* impulse, double* stiffA,
				 double* stiffB);
// Whether chain [first, last) is braced (joint.h).
static inline bool dkChain_Braced(const dkJointChains* chains, int32_t first, const dkJointSoA* soa)
{
	int32_t k = chains->soaIndex[first];
	return chains->braced[soa->stateA[k]] == dkChainBraced || chains->braced[soa->stateB[k]] == dkChainBraced;
}
// A chain without limit rows that is not braced: the chains the projection keeps on their constraints.
bool dkChain_Projected(const dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa);

#endif
