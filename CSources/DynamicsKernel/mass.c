// SPDX-License-Identifier: Apache-2.0
// Mass and rotational inertia about the centroid (the Units and semantics article,
// Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md, §Units and frames).
// m = density · area / 10 000 (a 100 × 100 pt square of density 1 has m = 1).
#include "core.h"

#define DK_PI 3.14159265358979323846

void dkShapeMass(const dkItemDef* def, float* mass, float* inertia)
{
	double w = def->width, h = def->height, rho = def->density;
	switch (def->shape) {
	case dkShapeRectangle: {
		double m = rho * w * h / 10000.0;
		*mass = (float)m;
		*inertia = (float)(m * (w * w + h * h) / 12.0);
		return;
	}
	case dkShapeEllipse: {
		double m = rho * DK_PI * w * h / 4.0 / 10000.0;
		double a = w / 2.0, b = h / 2.0;
		*mass = (float)m;
		*inertia = (float)(m * (a * a + b * b) / 4.0);
		return;
	}
	case dkShapeCompound:
		*mass = def->mass;
		*inertia = def->inertia;
		return;
	}
	*mass = 0.0f;
	*inertia = 0.0f;
}
