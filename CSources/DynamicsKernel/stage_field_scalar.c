// SPDX-License-Identifier: Apache-2.0
// Stage: fields, the scalar reference. The field template instantiated at one lane (see
// stage_field_wide.h): the wide levels call it for the rows that do not fill a vector.
#define DK_W 1
#define DK_ISA scalar
#define DK_FIELD_ENTRY
#include "field.h"
#include "integrate_math.h"
#include "kernels.h"
#include "simd.h"

#include "stage_field_wide.h"

void dkFieldRow_scalar(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t i, const dkFieldBatch* batch, float x,
					   float y, float vx, float vy, float im, float* ax, float* ay)
{
	dkVf sx, sy;
	fieldSum_scalar(c, lo, hi, i, batch, (dkVf){x}, (dkVf){y}, (dkVf){vx}, (dkVf){vy}, (dkVf){im}, &sx, &sy);
	*ax = sx[0];
	*ay = sy[0];
}

void dkVelocityFieldsRow_scalar(const uint32_t* lo, const uint32_t* hi, int32_t i, const dkFieldBatch* batch, float x,
								float y, float im, float* vx, float* vy)
{
	dkVf wx = {*vx}, wy = {*vy};
	velocityFields_scalar(lo, hi, i, batch, (dkVf){x}, (dkVf){y}, (dkVf){im}, &wx, &wy);
	*vx = wx[0];
	*vy = wy[0];
}
