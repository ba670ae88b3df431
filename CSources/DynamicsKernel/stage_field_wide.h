// SPDX-License-Identifier: Apache-2.0
// Stage template: fields. Instantiated per SIMD level by simd_<isa>.c and at width 1 by
// stage_field_scalar.c, which is the scalar reference: the same source at one lane, so every level
// rounds identically (no FP contraction; the approximations below use only +, −, ×, ÷, sqrt, floor,
// rint, min, max and bit operations, which are exact or correctly rounded per lane).
//
// fieldSum evaluates every selected field for a vector of rows held in registers and sums them in slot
// order. The fused integrator (stage_integrate_wide.h) calls it inside its one pass over a block, every
// substep, with that substep's frames; the BLAS path calls dkApplyFields, a pass per substep that adds
// the sum to the acceleration scratch columns before its saxpy calls. Membership is one bit per field per
// row (two uint32 words); each vector tests a field's region bounds before running its region program.
// A field is skipped for a whole block when no row of it is a member, and on the BLAS path also when the
// rows' bounding box misses the region's bounds (dkFields_Select, field_store.c, from dkSummarizeRows).
// Velocity fields set the velocity after damping and snap springs (velocityFields).
//
// BLAS: none in the evaluation. A field law is a handful of multiplies on values already in registers
// and the sum over fields stays in registers; saxpy calls would make a pass over memory per field and
// component. Around it, the BLAS integrator makes v += h·a and q += h·v saxpy calls per substep; the fused
// integrator keeps the block's rows in registers for all substeps with the fields inside. That measured
// faster with few fields and level with many, where the sums dominate, so it is the default; the
// measurements are in Benchmarks/results/x86_64-avx512-xeon-2core/fields.md.

// The scalar instantiation exports its entry points; the wide ones stay in their file.
#ifndef DK_FIELD_ENTRY
#define DK_FIELD_ENTRY static
#endif

static inline dkVm DK_FN(fieldMember)(const uint32_t* lo, const uint32_t* hi, int32_t i, int32_t bit)
{
	dkVm words;
	memcpy(&words, (bit < 32 ? lo : hi) + i, sizeof words);
	return (words & (int32_t)(1u << (bit & 31))) != 0;
}

static inline dkVm DK_FN(regionContains)(const dkRegionInstr* p, int32_t n, dkVf lx, dkVf ly)
{
	if (n == 1 && p->op == dkRegionCircle) return (lx * lx + ly * ly) <= p->a * p->a;
	if (n == 1 && p->op == dkRegionRectangle) return (dkV_abs(lx) <= p->a) & (dkV_abs(ly) <= p->b);
	dkVm stack[DK_REGION_STACK];
	int32_t sp = 0;
	const dkVm none = {0};
	for (int32_t k = 0; k < n; ++k) {
		switch (p[k].op) {
		case dkRegionEmpty: stack[sp++] = none; break;
		case dkRegionInfinite: stack[sp++] = ~none; break;
		case dkRegionCircle: stack[sp++] = (lx * lx + ly * ly) <= p[k].a * p[k].a; break;
		case dkRegionRectangle: stack[sp++] = (dkV_abs(lx) <= p[k].a) & (dkV_abs(ly) <= p[k].b); break;
		case dkRegionInverse: stack[sp - 1] = ~stack[sp - 1]; break;
		case dkRegionUnion: --sp; stack[sp - 1] = stack[sp - 1] | stack[sp]; break;
		case dkRegionIntersection: --sp; stack[sp - 1] = stack[sp - 1] & stack[sp]; break;
		case dkRegionDifference: --sp; stack[sp - 1] = stack[sp - 1] & ~stack[sp]; break;
		case dkRegionReverseDifference: --sp; stack[sp - 1] = stack[sp] & ~stack[sp - 1]; break;
		}
	}
	return stack[0];
}

static inline dkVf DK_FN(fmin)(dkVf a, dkVf b) { return dkV_select(a < b, a, b); }
static inline dkVf DK_FN(fmax)(dkVf a, dkVf b) { return dkV_select(a > b, a, b); }

// log2(x) for normal x > 0: exponent plus 2·atanh((m − 1)/(m + 1))/ln 2 with m in [√½, √2).
static inline dkVf DK_FN(log2)(dkVf x)
{
	dkVm bits = (dkVm)x;
	dkVm e = ((bits >> 23) & 0xff) - 127;
	dkVf m = (dkVf)((bits & 0x007fffff) | 0x3f800000);
	dkVm big = m > 1.41421356f;
	m = dkV_select(big, m * 0.5f, m);
	e = e - big; // big is −1 where true
	dkVf s = (m - 1.0f) / (m + 1.0f);
	dkVf s2 = s * s;
	dkVf ln = 2.0f * s * (1.0f + s2 * (0.333333333f + s2 * (0.2f + s2 * (0.142857143f + s2 * 0.111111111f))));
	return __builtin_convertvector(e, dkVf) + ln * 1.44269504f;
}

// 2^y: clamped to [−126, 127], 2^frac by its Taylor series to degree 8 (relative error < 1e-7).
static inline dkVf DK_FN(exp2)(dkVf y)
{
	y = DK_FN(fmin)(DK_FN(fmax)(y, dkV_splat(-126.0f)), dkV_splat(127.0f));
	dkVf n = __builtin_elementwise_floor(y);
	dkVf z = (y - n) * 0.693147181f;
	dkVf p = 1.0f + z * (1.0f + z * (0.5f + z * (0.166666667f + z * (0.0416666667f + z * (0.00833333333f +
			 z * (0.00138888889f + z * (0.000198412698f + z * 0.0000248015873f)))))));
	dkVm scaled = (dkVm)p + (__builtin_convertvector(n, dkVm) << 23);
	return (dkVf)scaled;
}

// sin(x): reduced by 2π (in two parts), folded to [−π/2, π/2], odd Taylor polynomial to degree 9,
// clamped to [−1, 1].
static inline dkVf DK_FN(sin)(dkVf x)
{
	dkVf n = dkV_rint(x * 0.159154943f);
	dkVf r = (x - n * 6.28125f) - n * 0.00193530717958647692f;
	r = dkV_select(r > 1.57079633f, 3.14159265f - r, dkV_select(r < -1.57079633f, -3.14159265f - r, r));
	dkVf r2 = r * r;
	dkVf p = r * (1.0f + r2 * (-0.166666667f + r2 * (0.00833333333f + r2 * (-0.000198412698f +
			 r2 * 0.00000275573192f))));
	return DK_FN(fmin)(DK_FN(fmax)(p, dkV_splat(-1.0f)), dkV_splat(1.0f));
}

// One component of the noise: the mean of DK_NOISE_WAVES seeded plane waves.
static inline dkVf DK_FN(noise)(const dkFieldFrame* f, int32_t first, dkVf x, dkVf y)
{
	dkVf sum = dkV_splat(0.0f);
	for (int32_t j = first; j < first + DK_NOISE_WAVES; ++j)
		sum = sum + DK_FN(sin)(f->waveKx[j] * x + f->waveKy[j] * y + f->wavePhase[j]);
	return sum * (1.0f / DK_NOISE_WAVES);
}

// atten = max(r, minimumRadius)^(−falloff); falloff 0, 1 and 2 exactly.
static inline dkVf DK_FN(atten)(const dkFieldFrame* f, dkVf r)
{
	if (f->falloff == 0.0f) return dkV_splat(1.0f);
	dkVf re = DK_FN(fmax)(r, dkV_splat(f->minimumRadius));
	if (f->falloff == 1.0f) return 1.0f / re;
	if (f->falloff == 2.0f) return 1.0f / (re * re);
	return DK_FN(exp2)(-f->falloff * DK_FN(log2)(re));
}

static inline bool dkFieldNeedsRadius(const dkFieldFrame* f)
{
	return f->falloff != 0.0f || f->kind == dkFieldRadialGravity || f->kind == dkFieldVortex ||
		   f->kind == dkFieldElectric;
}

// Which lanes of rows [i, i + DK_W) at (x, y) a field acts on: members that move, inside the region's
// bounds (tested per vector, so a vector outside them skips the region program) and inside the region.
__attribute__((always_inline)) static inline dkVm DK_FN(fieldLanes)(const uint32_t* lo, const uint32_t* hi, int32_t i, const dkFieldBatch* batch,
									 int32_t k, dkVm moving, dkVf x, dkVf y, dkVf dx, dkVf dy)
{
	const dkFieldFrame* f = batch->frame[k];
	dkVm on = batch->everyRow[k] ? moving : DK_FN(fieldMember)(lo, hi, i, f->bit) & moving;
	if (f->bounded && dkV_any(on))
		on = on & (x >= f->box[0]) & (y >= f->box[1]) & (x <= f->box[2]) & (y <= f->box[3]);
	if (!f->regionInfinite && dkV_any(on)) on = on & DK_FN(regionContains)(f->region, f->regionCount, dx, dy);
	return on;
}

// Rows [i, i + DK_W) with positions (x, y), velocities (vx, vy) and inverse masses im: the sum of the
// selected fields' accelerations (and the custom-field forces'), in slot order.
__attribute__((always_inline)) static inline void DK_FN(fieldSum)(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t i,
								   const dkFieldBatch* batch, dkVf x, dkVf y, dkVf vx, dkVf vy, dkVf im, dkVf* sumX,
								   dkVf* sumY)
{
	dkVm moving = im > 0.0f;
	dkVf ax = dkV_splat(0.0f), ay = dkV_splat(0.0f);
	const dkVf zero = dkV_splat(0.0f);
	for (int32_t k = 0; k < batch->count; ++k) {
		const dkFieldFrame* f = batch->frame[k];
		if (f->kind == dkFieldVelocity) continue;
		dkVf dx = x - f->px, dy = y - f->py;
		dkVm on = DK_FN(fieldLanes)(lo, hi, i, batch, k, moving, x, y, dx, dy);
		if (!dkV_any(on)) continue;
		dkVf r = zero, ux = zero, uy = zero;
		if (dkFieldNeedsRadius(f)) {
			r = __builtin_elementwise_sqrt(dx * dx + dy * dy);
			dkVm away = r > 0.0f;
			dkVf inv = 1.0f / r;
			ux = dkV_select(away, dx * inv, zero);
			uy = dkV_select(away, dy * inv, zero);
		}
		dkVf at = DK_FN(atten)(f, r);
		float s = f->strength;
		dkVf fx, fy;
		switch (f->kind) {
		case dkFieldLinearGravity:
			fx = (1000.0f * s * f->dirX) * at;
			fy = (1000.0f * s * f->dirY) * at;
			break;
		case dkFieldRadialGravity:
			fx = (-1000.0f * s) * ux * at;
			fy = (-1000.0f * s) * uy * at;
			break;
		case dkFieldSpring:
			fx = (-DK_FORCE_SCALE * s) * dx * at * im;
			fy = (-DK_FORCE_SCALE * s) * dy * at * im;
			break;
		case dkFieldDrag:
			fx = (-s) * vx * at * im;
			fy = (-s) * vy * at * im;
			break;
		case dkFieldVortex: // visually counter-clockwise on the y-down screen for s > 0
			fx = (1000.0f * s) * uy * at;
			fy = (-1000.0f * s) * ux * at;
			break;
		case dkFieldElectric: {
			dkVf q = dkV_load(c[dkColumnCharge] + i);
			fx = (DK_FORCE_SCALE * s) * q * ux * at * im;
			fy = (DK_FORCE_SCALE * s) * q * uy * at * im;
			break;
		}
		case dkFieldMagnetic: {
			// ω = q s atten / m. v += h·a turns v by the Cayley rotation of angle h ω, which keeps |v|:
			// a = ω/(1 + c²) · ((v_y, −v_x) − c v) with c = h ω / 2 (c = 0 is the instantaneous law).
			dkVf w = s * dkV_load(c[dkColumnCharge] + i) * at * im;
			dkVf half = (0.5f * batch->h) * w;
			dkVf k = w / (1.0f + half * half);
			fx = k * (vy - half * vx);
			fy = k * ((-vx) - half * vy);
			break;
		}
		case dkFieldNoise:
			fx = (1000.0f * s) * DK_FN(noise)(f, 0, x, y) * at;
			fy = (1000.0f * s) * DK_FN(noise)(f, DK_NOISE_WAVES, x, y) * at;
			break;
		case dkFieldTurbulence: {
			dkVf speed = __builtin_elementwise_sqrt(vx * vx + vy * vy);
			fx = s * speed * DK_FN(noise)(f, 0, x, y) * at;
			fy = s * speed * DK_FN(noise)(f, DK_NOISE_WAVES, x, y) * at;
			break;
		}
		default: fx = fy = zero; break;
		}
		ax = ax + dkV_select(on, fx, zero);
		ay = ay + dkV_select(on, fy, zero);
	}
	if (batch->customForces) {
		ax = ax + DK_FORCE_SCALE * im * dkV_load(c[dkColumnFieldForceX] + i);
		ay = ay + DK_FORCE_SCALE * im * dkV_load(c[dkColumnFieldForceY] + i);
	}
	*sumX = ax;
	*sumY = ay;
}

// Rows [i, i + DK_W): the fields' sum added to the acceleration scratch columns.
static inline void DK_FN(fieldsLanes)(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t i,
									  const dkFieldBatch* batch)
{
	dkVf ax, ay;
	DK_FN(fieldSum)(c, lo, hi, i, batch, dkV_load(c[dkColumnPositionX] + i), dkV_load(c[dkColumnPositionY] + i),
					dkV_load(c[dkColumnVelocityX] + i), dkV_load(c[dkColumnVelocityY] + i),
					dkV_load(c[dkColumnInverseMass] + i), &ax, &ay);
	dkV_store(c[dkColumnAccelX] + i, dkV_load(c[dkColumnAccelX] + i) + ax);
	dkV_store(c[dkColumnAccelY] + i, dkV_load(c[dkColumnAccelY] + i) + ay);
}

DK_FIELD_ENTRY void DK_FN(dkApplyFields)(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin, int32_t end,
								 const dkFieldBatch* batch)
{
	int32_t i = begin;
	for (; i + DK_W <= end; i += DK_W) DK_FN(fieldsLanes)(c, lo, hi, i, batch);
	if (i < end) dkApplyFields_scalar(c, lo, hi, i, end, batch);
}

// Velocity fields on rows [i, i + DK_W): v ← strength · direction · atten for members inside the region
// (the last field wins).
__attribute__((always_inline)) static inline void DK_FN(velocityFields)(const uint32_t* lo, const uint32_t* hi, int32_t i, const dkFieldBatch* batch,
										 dkVf x, dkVf y, dkVf im, dkVf* vx, dkVf* vy)
{
	const dkVf zero = dkV_splat(0.0f);
	dkVm moving = im > 0.0f;
	for (int32_t k = 0; k < batch->count; ++k) {
		const dkFieldFrame* f = batch->frame[k];
		if (f->kind != dkFieldVelocity) continue;
		dkVf dx = x - f->px, dy = y - f->py;
		dkVm on = DK_FN(fieldLanes)(lo, hi, i, batch, k, moving, x, y, dx, dy);
		if (!dkV_any(on)) continue;
		dkVf at = DK_FN(atten)(f, f->falloff != 0.0f ? __builtin_elementwise_sqrt(dx * dx + dy * dy) : zero);
		*vx = dkV_select(on, (f->strength * f->dirX) * at, *vx);
		*vy = dkV_select(on, (f->strength * f->dirY) * at, *vy);
	}
}

DK_FIELD_ENTRY void DK_FN(dkOverrideVelocities)(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin,
												int32_t end, const dkFieldBatch* batch)
{
	int32_t i = begin;
	for (; i + DK_W <= end; i += DK_W) {
		dkVf vx = dkV_load(c[dkColumnVelocityX] + i), vy = dkV_load(c[dkColumnVelocityY] + i);
		DK_FN(velocityFields)(lo, hi, i, batch, dkV_load(c[dkColumnPositionX] + i), dkV_load(c[dkColumnPositionY] + i),
							  dkV_load(c[dkColumnInverseMass] + i), &vx, &vy);
		dkV_store(c[dkColumnVelocityX] + i, vx);
		dkV_store(c[dkColumnVelocityY] + i, vy);
	}
	if (i < end) dkOverrideVelocities_scalar(c, lo, hi, i, end, batch);
}

// OR and AND of the membership words and the positions' box, a vector of rows at a time.
DK_FIELD_ENTRY void DK_FN(dkSummarizeRows)(dkCols c, const uint32_t* lo, const uint32_t* hi, int32_t begin,
										   int32_t end, dkRowSummary* out)
{
	int32_t i = begin;
	if (end - begin >= DK_W) {
		dkVm anyLo = {0}, anyHi = {0}, allLo = ~anyLo, allHi = ~anyLo;
		dkVf x0 = dkV_load(c[dkColumnPositionX] + i), y0 = dkV_load(c[dkColumnPositionY] + i);
		dkVf minX = x0, maxX = x0, minY = y0, maxY = y0;
		for (; i + DK_W <= end; i += DK_W) {
			dkVm wl, wh;
			memcpy(&wl, lo + i, sizeof wl);
			memcpy(&wh, hi + i, sizeof wh);
			anyLo = anyLo | wl, anyHi = anyHi | wh, allLo = allLo & wl, allHi = allHi & wh;
			dkVf x = dkV_load(c[dkColumnPositionX] + i), y = dkV_load(c[dkColumnPositionY] + i);
			minX = DK_FN(fmin)(minX, x), maxX = DK_FN(fmax)(maxX, x);
			minY = DK_FN(fmin)(minY, y), maxY = DK_FN(fmax)(maxY, y);
		}
		*out = (dkRowSummary){(uint32_t)__builtin_reduce_or(anyLo), (uint32_t)__builtin_reduce_or(anyHi),
							  (uint32_t)__builtin_reduce_and(allLo), (uint32_t)__builtin_reduce_and(allHi),
							  {minX[0], minY[0], maxX[0], maxY[0]}};
		for (int l = 1; l < DK_W; ++l) {
			out->box[0] = minX[l] < out->box[0] ? minX[l] : out->box[0];
			out->box[1] = minY[l] < out->box[1] ? minY[l] : out->box[1];
			out->box[2] = maxX[l] > out->box[2] ? maxX[l] : out->box[2];
			out->box[3] = maxY[l] > out->box[3] ? maxY[l] : out->box[3];
		}
	} else {
		const float* x = c[dkColumnPositionX];
		const float* y = c[dkColumnPositionY];
		*out = (dkRowSummary){0, 0, ~0u, ~0u, {x[i], y[i], x[i], y[i]}};
	}
	for (; i < end; ++i) { // the rows that do not fill a vector
		float x = c[dkColumnPositionX][i], y = c[dkColumnPositionY][i];
		out->anyLo |= lo[i], out->anyHi |= hi[i], out->allLo &= lo[i], out->allHi &= hi[i];
		out->box[0] = x < out->box[0] ? x : out->box[0];
		out->box[1] = y < out->box[1] ? y : out->box[1];
		out->box[2] = x > out->box[2] ? x : out->box[2];
		out->box[3] = y > out->box[3] ? y : out->box[3];
	}
}

#undef DK_FIELD_ENTRY
