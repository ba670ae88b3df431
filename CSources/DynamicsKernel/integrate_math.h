// SPDX-License-Identifier: Apache-2.0
// Internal: the per-item laws of integration (the Units and semantics article,
// Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md), written once for scalar and wide code.
// Both call these in the same order, so every path rounds identically.
#ifndef DK_INTEGRATE_MATH_H
#define DK_INTEGRATE_MATH_H

#include "core.h" // first: no floating-point contraction
#include "oscillator.h"
#include "trig.h"

#include <math.h>

// 1 N on mass 1 gives 100 pt/s² (Units and semantics, §Units and frames).
#define DK_FORCE_SCALE 100.0f

// Angular acceleration of a push torque. The torque coefficients are sums over pushes of
// cross(o, F) and dot(o, F) in item coordinates; rotated by the item's angle θ the torque is
// τ = cos θ · cross − sin θ · dot (N·pt), and α = 100 τ / I.
static inline float dkPushAlpha(float angle, float torqueCross, float torqueDot, float invInertia)
{
	float c, s;
	dkSinCos(angle, &s, &c);
	return DK_FORCE_SCALE * invInertia * (c * torqueCross - s * torqueDot);
}

// The snap's angular displacement: the angle relative to the nearest whole turn, so a spinning item
// settles at the nearest multiple of 2π instead of unwinding every turn it made.
#define DK_TWO_PI 6.28318530717958647692f
static inline float dkTurnRemainder(float angle) { return angle - DK_TWO_PI * rintf(angle / DK_TWO_PI); }

#endif
