// SPDX-License-Identifier: Apache-2.0
// Umbrella header of the Dynamics C kernel: the only header Swift imports.
#ifndef DYNAMICS_KERNEL_H
#define DYNAMICS_KERNEL_H
#include "dk_types.h"
#include "dk_world.h"
#include "dk_collision.h"
#include "dk_joint.h"
#include "dk_field.h"
#include "dk_spring.h"
#include "dk_build.h"
#include "dk_query.h"
#include "dk_snapshot.h"
#endif
