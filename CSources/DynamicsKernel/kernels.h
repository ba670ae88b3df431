// SPDX-License-Identifier: Apache-2.0
// Internal: the table of stage kernels for one SIMD level, and the scalar reference kernels.
// Every wide table computes bit-for-bit what the scalar kernels compute (no FP contraction anywhere).
#ifndef DK_KERNELS_H
#define DK_KERNELS_H

#include "contact_soa.h"
#include "core.h"
#include "field.h"
#include "joint.h"

// Columns are passed as the world's column array (indexed by dkColumn).
typedef float* const* dkCols;

struct dkKernels {
	dkSimdLevel level;
	int32_t width; // lanes of the wide kernels (1 for the scalar table)
	// forces, velocity, damping, snap springs and position for `substeps` substeps of h, rows [begin, end)
	// (with the fields of every substep when `fields` is not null: their accelerations join the forces, and
	// velocity fields act after damping and snap springs)
	void (*integrateFused)(dkCols c, int32_t begin, int32_t end, float h, int32_t substeps, bool snaps,
						   const dkFieldPass* fields);
	// BLAS path, before v += h a: accelerations into the scratch columns
	void (*accumulateForces)(dkCols c, int32_t begin, int32_t end);
	// BLAS path, after v += h a: damping, then snap springs
	void (*dampAndSnap)(dkCols c, int32_t begin, int32_t end, float h, bool snaps);
	// rest timers over [begin, end); returns how many rows reached restTime and adds the still rows to *still
	int32_t (*detectRest)(dkCols c, int32_t begin, int32_t end, float dt, float restSpeed, float restAngularSpeed,
						  float restTime, int32_t* still);
	// (x, y, angle) of rows [begin, end) to out[3 (row - begin) ...]
	void (*packPoses)(dkCols c, int32_t begin, int32_t end, float* out);
	// Contact solver over constraints [begin, end) of one colour (end − begin a multiple of the width); the
	// step's first warm start (masses) also computes the effective masses (stage_contact_wide.h)
	void (*contactWarmStart)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, bool masses);
	void (*contactSolve)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH, dkSoftness soft,
						 dkSoftness stiff, bool useBias);
	void (*contactApproach)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states);
	void (*contactRestitution)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states);
	// Joint solver over joints [begin, end) of one colour (end − begin a multiple of the width)
	void (*jointWarmStart)(dkJointSoA* c, int32_t begin, int32_t end, dkBodyState* states);
	void (*jointSolve)(dkJointSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH, dkSoftness joint,
					   bool useBias, bool springs);
	// Fields over rows [begin, end): accelerations added to the scratch columns, then (after damping) the
	// velocity fields' overrides. lo and hi are the rows' membership words (fields 0–31 and 32–63).
	void (*applyFields)(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin, int32_t end,
						const dkFieldBatch* batch);
	void (*overrideVelocities)(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin, int32_t end,
							   const dkFieldBatch* batch);
	// Membership OR and AND and the positions' bounding box over rows [begin, end) (begin < end).
	void (*summarizeRows)(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin, int32_t end,
						  dkRowSummary* out);
	// Spring curves [begin, end) from their transition matrices (m[0…3][i], row-major) and states (e, rate,
	// advanced in place), into the rows of `out` (count floats per row, one row per sample; spring_curve.c)
	void (*springSamples)(const float* const* m, float* e, float* rate, int32_t begin, int32_t end, int32_t count,
						  int32_t samples, float* out);
};

const dkKernels* dkKernelsFor(dkSimdLevel limit);
// The scalar reference table (what dkKernelsFor(dkSimdScalar) returns, without asking the CPU).
const dkKernels* dkScalarKernels(void);

// Scalar reference kernels (also the tails of the wide ones).
void dkIntegrateFused_scalar(dkCols c, int32_t begin, int32_t end, float h, int32_t substeps, bool snaps,
							 const dkFieldPass* fields);
void dkAccumulateForces_scalar(dkCols c, int32_t begin, int32_t end);
void dkDampAndSnap_scalar(dkCols c, int32_t begin, int32_t end, float h, bool snaps);
int32_t dkDetectRest_scalar(dkCols c, int32_t begin, int32_t end, float dt, float restSpeed, float restAngularSpeed,
							float restTime, int32_t* still);
void dkPackPoses_scalar(dkCols c, int32_t begin, int32_t end, float* out);
// The contact kernels at width 1 (contact_scalar.c).
void dkContactWarmStart_scalar(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, bool masses);
void dkContactSolve_scalar(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH,
						   dkSoftness soft, dkSoftness stiff, bool useBias);
void dkContactApproach_scalar(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states);
void dkContactRestitution_scalar(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states);
// The joint kernels at width 1 (joint_scalar.c).
void dkJointWarmStart_scalar(dkJointSoA* c, int32_t begin, int32_t end, dkBodyState* states);
void dkJointSolve_scalar(dkJointSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH, dkSoftness joint,
						 bool useBias, bool springs);

// The field stage at width 1 (stage_field_scalar.c).
void dkApplyFields_scalar(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin, int32_t end,
						  const dkFieldBatch* batch);
void dkOverrideVelocities_scalar(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin, int32_t end,
								 const dkFieldBatch* batch);
// One row of the field template at width 1, for the scalar fused integrator: the fields' acceleration
// sum, and the velocity fields' override.
void dkFieldRow_scalar(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t i, const dkFieldBatch* batch, float x,
					   float y, float vx, float vy, float im, float* ax, float* ay);
void dkVelocityFieldsRow_scalar(const uint32_t* lo, const uint32_t* hi, int32_t i, const dkFieldBatch* batch, float x,
								float y, float im, float* vx, float* vy);
void dkSpringSamples_scalar(const float* const* m, float* e, float* rate, int32_t begin, int32_t end, int32_t count,
							int32_t samples, float* out);
void dkSummarizeRows_scalar(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin, int32_t end,
							dkRowSummary* out);

// The wide tables, present when compiled for this architecture.
#if defined(__x86_64__) || defined(__i386__)
extern const dkKernels dkKernels_sse2, dkKernels_avx2, dkKernels_avx512;
#endif
#if defined(__aarch64__)
extern const dkKernels dkKernels_neon;
#endif

#endif
