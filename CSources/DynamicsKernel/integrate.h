// SPDX-License-Identifier: Apache-2.0
// Internal: integration (integrate.c). Rows [b, e) of the awake range, substeps of h seconds.
#ifndef DK_INTEGRATE_H
#define DK_INTEGRATE_H

#include "constraint.h"
#include "core.h"

// One substep's velocities (forces and fields of substep `substep`, v += h·a, damping and snap springs,
// velocity fields) and positions (q += h·v). The BLAS integrator, the coupled step and the test oracles use
// these two.
void dkIntegrate_Velocities(dkWorld* world, int32_t b, int32_t e, float h, int32_t substep);
void dkIntegrate_Positions(dkWorld* world, int32_t b, int32_t e, float h);

// Every substep of a block of free rows (no shapes or joints in the world), with the world's integrator.
void dkIntegrate_Block(dkWorld* world, int32_t b, int32_t e, float h, int32_t substeps);

// The coupled step's substeps, through the body states of the contact and joint solver: velocities (from
// the states after the first substep, `fromStates`), then into the states; positions from the states'
// velocities, with each row's movement since the step began; and the final velocities back to the columns.
void dkIntegrate_StateVelocities(dkWorld* world, dkBodyState* states, int32_t b, int32_t e, float h, bool fromStates,
								 int32_t substep);
void dkIntegrate_StatePositions(dkWorld* world, dkBodyState* states, int32_t b, int32_t e, float h);
void dkIntegrate_StoreStates(dkWorld* world, const dkBodyState* states, int32_t b, int32_t e);

#endif
