// The SIMD tet kernel for AVX2 + FMA: 8 tets per vector. Compiled with
// -march=x86-64-v3 (see CMakeLists.txt); run only where the CPU has it.
#include "core/simd/tet_block_kernel.h"

#include <cassert>

#include <immintrin.h>

namespace tet_kernel_avx2 {

constexpr int kNativeLanes = 8;
typedef float nf __attribute__((vector_size(32)));
typedef int32_t ni __attribute__((vector_size(32)));

inline nf native_sqrt(nf x) { return (nf)_mm256_sqrt_ps((__m256)x); }
inline bool native_any(ni m) { return _mm256_movemask_ps((__m256)m) != 0; }
inline nf native_gather(const float* base, ni index)
{
    return (nf)_mm256_i32gather_ps(base, (__m256i)index, 4);
}

// The x, y and z of the 8 points at base + index (a point's first float):
// three gathers. (Eight 16-byte loads and a transpose, as the AVX-512
// kernel does, took 11% longer on AMD's Zen 4.)
inline void native_gather_xyz(const float* base, ni index, nf& x, nf& y, nf& z)
{
    x = native_gather(base, index);
    y = native_gather(base + 1, index);
    z = native_gather(base + 2, index);
}

// Points of four floats (x y z w): eight 16-byte loads, two to a row,
// and a 4 x 4 transpose in each 128-bit half (lane 4h + r from row r's
// half h), instead of four gathers.
inline void native_gather_xyzw(const float* base, ni index, nf& x, nf& y, nf& z, nf& w)
{
    __m256 row[4];
    for (int r = 0; r < 4; ++r) {
        row[r] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(base + index[r])),
                                      _mm_loadu_ps(base + index[r + 4]), 1);
    }
    const __m256 xy01 = _mm256_unpacklo_ps(row[0], row[1]);  // x0 x1 y0 y1 per half
    const __m256 zw01 = _mm256_unpackhi_ps(row[0], row[1]);  // z0 z1 w0 w1
    const __m256 xy23 = _mm256_unpacklo_ps(row[2], row[3]);
    const __m256 zw23 = _mm256_unpackhi_ps(row[2], row[3]);
    x = (nf)_mm256_shuffle_ps(xy01, xy23, 0x44);
    y = (nf)_mm256_shuffle_ps(xy01, xy23, 0xee);
    z = (nf)_mm256_shuffle_ps(zw01, zw23, 0x44);
    w = (nf)_mm256_shuffle_ps(zw01, zw23, 0xee);
}

// The reverse: a transpose, then each point's 12 bytes as an 8-byte and a
// 4-byte store (the lanes' points are distinct: the order does not matter).
inline void native_scatter_xyz(float* base, ni index, nf x, nf y, nf z)
{
    const __m256 xy_lo = _mm256_unpacklo_ps((__m256)x, (__m256)y);  // x0 y0 x1 y1 per half
    const __m256 xy_hi = _mm256_unpackhi_ps((__m256)x, (__m256)y);  // x2 y2 x3 y3
    const __m256 z_lo = _mm256_unpacklo_ps((__m256)z, (__m256)z);   // z0 z0 z1 z1
    const __m256 z_hi = _mm256_unpackhi_ps((__m256)z, (__m256)z);   // z2 z2 z3 z3
    const __m256 point[4] = {_mm256_shuffle_ps(xy_lo, z_lo, 0x44),   // x0 y0 z0 z0
                             _mm256_shuffle_ps(xy_lo, z_lo, 0xee),   // x1 y1 z1 z1
                             _mm256_shuffle_ps(xy_hi, z_hi, 0x44),
                             _mm256_shuffle_ps(xy_hi, z_hi, 0xee)};
    const auto store = [](float* p, __m128 v) {
        _mm_storel_pi(reinterpret_cast<__m64*>(p), v);
        _mm_store_ss(p + 2, _mm_movehl_ps(v, v));
    };
    for (int e = 0; e < 4; ++e) {
        store(base + index[e], _mm256_castps256_ps128(point[e]));
        store(base + index[e + 4], _mm256_extractf128_ps(point[e], 1));
    }
}

#include "core/simd/tet_block_kernel_isa.h"

}  // namespace tet_kernel_avx2

void solve_tet_blocks_avx2(const TetBlockArrays& blocks, const TetBlockStep& step, size_t first_block,
                           size_t end_block, BlockSums* block_sums)
{
    tet_kernel_avx2::solve_blocks(blocks, step, first_block, end_block, block_sums);
}
