// SPDX-License-Identifier: Apache-2.0
// The C kernel's own checks, a C program built from CSources/DynamicsKernel and this folder. `make test`
// builds and runs it natively. `make test-arm64` builds it twice, for this machine and for arm64, runs
// the first natively (`--write-states FILE`) and the second under qemu-aarch64 (`--compare-states FILE`),
// so the NEON path, which the x86 machines we test on never take, is checked on every CI run, and so is
// the claim that a state's bits do not depend on the CPU. One file per group of checks (check.h lists
// them); harness.c holds what they share.
//
// Checks, each against the scalar level in the same run, the other machine's run, or a law:
//   - the best SIMD level is the one the architecture promises (NEON on arm64);
//   - six scene runs (a box pyramid, balls and boxes in a V, joints, every field kind with each of the
//     three integrators) give bitwise-identical poses and velocities at the best level and at the scalar
//     level, and with one or two workers, also when the host runs the two workers one after another;
//   - with --compare-states: the same bits as the other machine's run, except the BLAS integrator's,
//     which depend on the BLAS library (Debian's reference BLAS fuses multiply-adds on arm64);
//   - the column oracles (integration, rest detection, pose packing) agree bitwise between levels;
//   - the kernel's sine and cosine (trig.h) are correctly rounded, against long double sinl and cosl;
//   - the radix sort (radix_sort.c) orders keys and payloads as a stable sort does, against qsort;
//   - the constraint colouring (constraint_graph.c) is the greedy colouring, against a brute-force one,
//     overflow group included;
//   - the separating-axis test of two boxes (four edges in vector lanes, manifold.c) gives the bits and
//     the edge of the scalar definition;
//   - the narrowphase (dkCollide) for each pair of shape kinds (box–box, box–circle, circle–circle,
//     segment–circle, segment–box, a chained segment's joint): the number of points (at most 2), the
//     normal and each separation against closed forms; two-point manifolds have distinct feature ids that
//     survive a 1 pt shift; a resting box keeps its points' ids from step to step, and their warm-started
//     impulses carry its weight (m·g·h per substep);
//   - spring timing curves sampled in bulk give the scalar level's bits and follow their closed form;
//   - free fall follows the semi-implicit Euler law, and a resting 10-box column sinks by the soft-contact
//     law 115.625·g/ω² (Units and semantics, §Contacts: Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md; as
//     CollisionTests.contactLaw) within 1 %.
// Prints one line per check and exits non-zero when any fails.
#include "check.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
	if (argc != 1 && !(argc == 3 && (!strcmp(argv[1], "--write-states") || !strcmp(argv[1], "--compare-states")))) {
		fprintf(stderr, "usage: %s [--write-states FILE | --compare-states FILE]\n", argv[0]);
		return 2;
	}
	static Report r; // zeroed
	dkSimdLevel best = dkCpuBestSimdLevel();
	char detail[80];
	snprintf(detail, sizeof detail, "best level %s", dkSimdLevelName(best));
#if defined(__aarch64__)
	check(&r, best == dkSimdNEON, "arm64 takes the NEON kernels", detail);
#else
	check(&r, best != dkSimdScalar, "this CPU has a wide level", detail);
#endif
	printf("BLAS: %s\n", dkBlasLibraryPath());
	checkScenes(&r);
	compareColumns(&r, best);
	sorts(&r);
	colourings(&r);
	separations(&r);
	manifolds(&r);
	persistentContacts(&r);
	recycledManifolds(&r);
	patchedPairs(&r);
	fatBoxes(&r);
	splitGrids(&r);
	churnedPairs(&r);
	contactFrames(&r, best);
	restingContacts(&r);
	solverSets(&r);
	randomSets(&r);
	holdingSets(&r);
	contactLayouts(&r);
	laws(&r);
	queries(&r);
	springs(&r, best);
	snapshots(&r, argc == 3 && !strcmp(argv[1], "--write-states") ? argv[2] : NULL,
			  argc == 3 && !strcmp(argv[1], "--compare-states") ? argv[2] : NULL);
	if (argc == 3 && !strcmp(argv[1], "--compare-states")) compareStates(&r, argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--write-states")) check(&r, writeStates(&r, argv[2]), "states written", argv[2]);
	printf("%d of %d checks passed\n", r.checks - r.failures, r.checks);
	return r.failures == 0 ? 0 : 1;
}
