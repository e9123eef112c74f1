// The SIMD tet kernel for AVX-512: 16 tets per vector. Compiled with
// -march=x86-64-v4 (see CMakeLists.txt); run only where the CPU has it.
#include "core/simd/tet_block_kernel.h"

#include <cassert>

#include <immintrin.h>

namespace tet_kernel_avx512 {

constexpr int kNativeLanes = 16;
typedef float nf __attribute__((vector_size(64)));
typedef int32_t ni __attribute__((vector_size(64)));

// Masked forms with every lane on: GCC 12 warns about the undefined source
// operand that _mm512_sqrt_ps, the unpacks and the extracts pass to the
// same instructions.
inline nf native_sqrt(nf x) { return (nf)_mm512_maskz_sqrt_ps(0xffff, (__m512)x); }
inline bool native_any(ni m) { return _mm512_movepi32_mask((__m512i)m) != 0; }

// The first `floats` of the 16 points at base + index (a point's first
// float; floats 3 or 4), in x, y, z (and w): one 16-byte load per point with
// the floats past them masked off (nothing past the array is read), then a
// 4 x 4 transpose in each 128-bit slot. Row r holds lanes r, r + 4, r + 8
// and r + 12 in its slots, so the transpose leaves lane 4s + r at element r
// of slot s: in order. Three or four 16-lane gathers cost more
// (microcoded on AMD's Zen 4).
inline void gather_points(const float* base, ni index, int floats, nf& x, nf& y, nf& z, nf& w)
{
    const __mmask8 mask = floats == 4 ? 0xf : 0x7;
    __m512 row[4];
    for (int r = 0; r < 4; ++r) {
        __m512 v = _mm512_zextps128_ps512(_mm_maskz_loadu_ps(mask, base + index[r]));
        v = _mm512_insertf32x4(v, _mm_maskz_loadu_ps(mask, base + index[r + 4]), 1);
        v = _mm512_insertf32x4(v, _mm_maskz_loadu_ps(mask, base + index[r + 8]), 2);
        row[r] = _mm512_insertf32x4(v, _mm_maskz_loadu_ps(mask, base + index[r + 12]), 3);
    }
    const __m512 xy01 = _mm512_maskz_unpacklo_ps(0xffff, row[0], row[1]);  // x0 x1 y0 y1 per slot
    const __m512 zw01 = _mm512_maskz_unpackhi_ps(0xffff, row[0], row[1]);  // z0 z1 w0 w1
    const __m512 xy23 = _mm512_maskz_unpacklo_ps(0xffff, row[2], row[3]);
    const __m512 zw23 = _mm512_maskz_unpackhi_ps(0xffff, row[2], row[3]);
    x = (nf)_mm512_shuffle_ps(xy01, xy23, 0x44);  // x0 x1 x2 x3
    y = (nf)_mm512_shuffle_ps(xy01, xy23, 0xee);  // y0 y1 y2 y3
    z = (nf)_mm512_shuffle_ps(zw01, zw23, 0x44);  // z0 z1 z2 z3
    w = (nf)_mm512_shuffle_ps(zw01, zw23, 0xee);  // w0 w1 w2 w3
}
inline void native_gather_xyz(const float* base, ni index, nf& x, nf& y, nf& z)
{
    nf unused;
    gather_points(base, index, 3, x, y, z, unused);
}
inline void native_gather_xyzw(const float* base, ni index, nf& x, nf& y, nf& z, nf& w)
{
    gather_points(base, index, 4, x, y, z, w);
}

// The reverse: a transpose, then 12 bytes stored per point (a masked
// store; the lanes' points are distinct, so the order does not matter).
inline void native_scatter_xyz(float* base, ni index, nf x, nf y, nf z)
{
    const __m512 xy_lo = _mm512_maskz_unpacklo_ps(0xffff, (__m512)x, (__m512)y);  // x0 y0 x1 y1 per slot
    const __m512 xy_hi = _mm512_maskz_unpackhi_ps(0xffff, (__m512)x, (__m512)y);  // x2 y2 x3 y3
    const __m512 z_lo = _mm512_maskz_unpacklo_ps(0xffff, (__m512)z, (__m512)z);   // z0 z0 z1 z1
    const __m512 z_hi = _mm512_maskz_unpackhi_ps(0xffff, (__m512)z, (__m512)z);   // z2 z2 z3 z3
    const __m512 point[4] = {_mm512_shuffle_ps(xy_lo, z_lo, 0x44),   // x0 y0 z0 z0
                             _mm512_shuffle_ps(xy_lo, z_lo, 0xee),   // x1 y1 z1 z1
                             _mm512_shuffle_ps(xy_hi, z_hi, 0x44),
                             _mm512_shuffle_ps(xy_hi, z_hi, 0xee)};
    for (int e = 0; e < 4; ++e) {
        _mm_mask_storeu_ps(base + index[e], 0x7, _mm512_maskz_extractf32x4_ps(0xf, point[e], 0));
        _mm_mask_storeu_ps(base + index[e + 4], 0x7, _mm512_maskz_extractf32x4_ps(0xf, point[e], 1));
        _mm_mask_storeu_ps(base + index[e + 8], 0x7, _mm512_maskz_extractf32x4_ps(0xf, point[e], 2));
        _mm_mask_storeu_ps(base + index[e + 12], 0x7, _mm512_maskz_extractf32x4_ps(0xf, point[e], 3));
    }
}

#include "core/simd/tet_block_kernel_isa.h"

}  // namespace tet_kernel_avx512

void solve_tet_blocks_avx512(const TetBlockArrays& blocks, const TetBlockStep& step, size_t first_block,
                             size_t end_block, BlockSums* block_sums)
{
    tet_kernel_avx512::solve_blocks(blocks, step, first_block, end_block, block_sums);
}
