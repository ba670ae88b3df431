// SPDX-License-Identifier: Apache-2.0
// Stage template: moving items in and out of lanes, and the impulses on them. The solver kernels (contact
// and joint) gather the states of a batch's items into one vector per field and scatter the velocities
// back. A state is eight floats (constraint.h), so on x86 a batch of 8 is an 8 × 8 transpose of rows
// loaded whole, and a batch of 16 is two of them, and writing back transposes the first four fields (the
// velocities and dx, unchanged) into each state's first 16 bytes; other widths copy lane by lane. Only
// data moves, so every width gives the same bits.

typedef struct DK_FN(dkBodyVec) {
	dkVf vx, vy, w, dx, dy, dc, ds, da;
} DK_FN(dkBodyVec);

#if (DK_W == 8 || DK_W == 16) && (defined(__x86_64__) || defined(__i386__))

// Transposes eight rows of eight floats in place (rows become columns).
static inline void DK_FN(transpose8)(__m256 r[8])
{
	__m256 t[8], u[8];
	for (int i = 0; i < 4; ++i) {
		t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
		t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
	}
	for (int i = 0; i < 2; ++i) { // u[4i + f] holds field f (low half) and f + 4 (high half) of rows 4i…4i+3
		u[4 * i + 0] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
		u[4 * i + 1] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
		u[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
		u[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
	}
	for (int f = 0; f < 4; ++f) {
		r[f] = _mm256_permute2f128_ps(u[f], u[4 + f], 0x20);
		r[f + 4] = _mm256_permute2f128_ps(u[f], u[4 + f], 0x31);
	}
}

// Fields of eight states (rows loaded whole).
static inline void DK_FN(gather8)(const dkBodyState* states, const int32_t* index, __m256 f[8])
{
	for (int l = 0; l < 8; ++l) f[l] = _mm256_loadu_ps(&states[index[l]].vx);
	DK_FN(transpose8)(f);
}

// Writes the velocities of eight states back, except to the read-only states from the shared zero state on
// (constraint.h): f holds vx, vy, w and dx (which did not change) of the eight lanes; each state's first four
// floats are stored, half a transpose.
static inline void DK_FN(scatter8)(dkBodyState* states, const int32_t* index, const __m256 f[4], int32_t zero)
{
	__m256 t0 = _mm256_unpacklo_ps(f[0], f[1]), t1 = _mm256_unpackhi_ps(f[0], f[1]);
	__m256 t2 = _mm256_unpacklo_ps(f[2], f[3]), t3 = _mm256_unpackhi_ps(f[2], f[3]);
	__m256 r[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE), _mm256_shuffle_ps(t1, t3, 0x44),
				   _mm256_shuffle_ps(t1, t3, 0xEE)}; // r[i]: lane i (low half) and lane i + 4 (high half)
	for (int i = 0; i < 4; ++i) {
		if (index[i] < zero) _mm_storeu_ps(&states[index[i]].vx, _mm256_castps256_ps128(r[i]));
		if (index[i + 4] < zero) _mm_storeu_ps(&states[index[i + 4]].vx, _mm256_extractf128_ps(r[i], 1));
	}
}

#if DK_W == 8
static inline DK_FN(dkBodyVec) DK_FN(gatherBodies)(const dkBodyState* states, const int32_t* index)
{
	__m256 f[8];
	DK_FN(gather8)(states, index, f);
	return (DK_FN(dkBodyVec)){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]};
}

static inline void DK_FN(scatterBodies)(dkBodyState* states, const int32_t* index, const DK_FN(dkBodyVec) * b,
										int32_t zero)
{
	__m256 f[4] = {b->vx, b->vy, b->w, b->dx};
	DK_FN(scatter8)(states, index, f, zero);
}
#else
static inline __m512 DK_FN(join)(__m256 lo, __m256 hi)
{
	return _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(lo)), _mm256_castps_pd(hi), 1));
}

static inline DK_FN(dkBodyVec) DK_FN(gatherBodies)(const dkBodyState* states, const int32_t* index)
{
	__m256 lo[8], hi[8];
	DK_FN(gather8)(states, index, lo);
	DK_FN(gather8)(states, index + 8, hi);
	return (DK_FN(dkBodyVec)){DK_FN(join)(lo[0], hi[0]), DK_FN(join)(lo[1], hi[1]), DK_FN(join)(lo[2], hi[2]),
							  DK_FN(join)(lo[3], hi[3]), DK_FN(join)(lo[4], hi[4]), DK_FN(join)(lo[5], hi[5]),
							  DK_FN(join)(lo[6], hi[6]), DK_FN(join)(lo[7], hi[7])};
}

static inline void DK_FN(scatterBodies)(dkBodyState* states, const int32_t* index, const DK_FN(dkBodyVec) * b,
										int32_t zero)
{
	__m512 v[4] = {b->vx, b->vy, b->w, b->dx};
	__m256 lo[4], hi[4];
	for (int f = 0; f < 4; ++f) {
		lo[f] = _mm512_castps512_ps256(v[f]);
		hi[f] = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v[f]), 1));
	}
	DK_FN(scatter8)(states, index, lo, zero);
	DK_FN(scatter8)(states, index + 8, hi, zero);
}
#endif

#else

static inline DK_FN(dkBodyVec) DK_FN(gatherBodies)(const dkBodyState* states, const int32_t* index)
{
	DK_FN(dkBodyVec) b;
	for (int l = 0; l < DK_W; ++l) {
		const dkBodyState* s = &states[index[l]];
		b.vx[l] = s->vx;
		b.vy[l] = s->vy;
		b.w[l] = s->w;
		b.dx[l] = s->dx;
		b.dy[l] = s->dy;
		b.dc[l] = s->dc;
		b.ds[l] = s->ds;
		b.da[l] = s->da;
	}
	return b;
}

// Writes velocities back, except to the read-only states: the shared zero state (static sides and padding
// lanes of parallel chunks all point at it; its velocity is zero and stays zero) and the kinematic items'
// after it (constraint.h).
static inline void DK_FN(scatterBodies)(dkBodyState* states, const int32_t* index, const DK_FN(dkBodyVec) * b,
										int32_t zero)
{
	for (int l = 0; l < DK_W; ++l) {
		if (index[l] >= zero) continue;
		dkBodyState* s = &states[index[l]];
		s->vx = b->vx[l];
		s->vy = b->vy[l];
		s->w = b->w[l];
	}
}

#endif

// Shared by both solvers: impulses on a batch's two sides, and the relative velocity along a direction.

static inline dkVf DK_FN(vmax)(dkVf a, dkVf b) { return dkV_select(a > b, a, b); }
static inline dkVf DK_FN(vmin)(dkVf a, dkVf b) { return dkV_select(a < b, a, b); }

static inline void DK_FN(applyImpulse)(DK_FN(dkBodyVec) * a, DK_FN(dkBodyVec) * b, dkVf mA, dkVf iA, dkVf mB,
									   dkVf iB, dkVf rAx, dkVf rAy, dkVf rBx, dkVf rBy, dkVf px, dkVf py)
{
	a->vx = a->vx - mA * px;
	a->vy = a->vy - mA * py;
	a->w = a->w - iA * (rAx * py - rAy * px);
	b->vx = b->vx + mB * px;
	b->vy = b->vy + mB * py;
	b->w = b->w + iB * (rBx * py - rBy * px);
}

static inline dkVf DK_FN(relativeAlong)(const DK_FN(dkBodyVec) * a, const DK_FN(dkBodyVec) * b, dkVf rAx, dkVf rAy,
										dkVf rBx, dkVf rBy, dkVf dx, dkVf dy)
{
	dkVf dvx = (b->vx - b->w * rBy) - (a->vx - a->w * rAy);
	dkVf dvy = (b->vy + b->w * rBx) - (a->vy + a->w * rAx);
	return dvx * dx + dvy * dy;
}
