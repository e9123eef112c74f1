// The SIMD tet kernel for plain x86-64 (SSE2): 4 tets per vector. The
// baseline every x86-64 CPU runs.
#include "core/simd/tet_block_kernel.h"

#include <cassert>

#include <emmintrin.h>

namespace tet_kernel_sse2 {

constexpr int kNativeLanes = 4;
typedef float nf __attribute__((vector_size(16)));
typedef int32_t ni __attribute__((vector_size(16)));

inline nf native_sqrt(nf x) { return (nf)_mm_sqrt_ps((__m128)x); }
inline bool native_any(ni m) { return _mm_movemask_ps((__m128)m) != 0; }
// SSE2 has neither gather nor scatter: four loads, four stores.
inline nf native_gather(const float* base, ni index)
{
    return nf{base[index[0]], base[index[1]], base[index[2]], base[index[3]]};
}
inline void native_scatter(float* base, ni index, nf value)
{
    for (int lane = 0; lane < kNativeLanes; ++lane) {
        base[index[lane]] = value[lane];
    }
}

inline void native_gather_xyz(const float* base, ni index, nf& x, nf& y, nf& z)
{
    x = native_gather(base, index);
    y = native_gather(base + 1, index);
    z = native_gather(base + 2, index);
}
// Points of four floats (x y z w): four loads and a 4 x 4 transpose.
inline void native_gather_xyzw(const float* base, ni index, nf& x, nf& y, nf& z, nf& w)
{
    __m128 row0 = _mm_loadu_ps(base + index[0]);
    __m128 row1 = _mm_loadu_ps(base + index[1]);
    __m128 row2 = _mm_loadu_ps(base + index[2]);
    __m128 row3 = _mm_loadu_ps(base + index[3]);
    _MM_TRANSPOSE4_PS(row0, row1, row2, row3);
    x = (nf)row0;
    y = (nf)row1;
    z = (nf)row2;
    w = (nf)row3;
}
inline void native_scatter_xyz(float* base, ni index, nf x, nf y, nf z)
{
    native_scatter(base, index, x);
    native_scatter(base + 1, index, y);
    native_scatter(base + 2, index, z);
}

#include "core/simd/tet_block_kernel_isa.h"

}  // namespace tet_kernel_sse2

void solve_tet_blocks_sse2(const TetBlockArrays& blocks, const TetBlockStep& step, size_t first_block,
                           size_t end_block, BlockSums* block_sums)
{
    tet_kernel_sse2::solve_blocks(blocks, step, first_block, end_block, block_sums);
}
