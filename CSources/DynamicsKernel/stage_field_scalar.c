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
