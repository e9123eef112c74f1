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
inline nf native_gather(const float* base, ni index)
{
    return (nf)_mm256_i32gather_ps(base, (__m256i)index, 4);
}
// AVX2 has no scatter: eight stores.
inline void native_scatter(float* base, ni index, nf value)
{
    for (int lane = 0; lane < kNativeLanes; ++lane) {
        base[index[lane]] = value[lane];
    }
}

#include "core/simd/tet_block_kernel_isa.h"

}  // namespace tet_kernel_avx2

void solve_tet_blocks_avx2(const TetBlockArrays& blocks, const TetBlockStep& step, size_t first_block,
                           size_t end_block, double* block_residuals)
{
    tet_kernel_avx2::solve_blocks(blocks, step, first_block, end_block, block_residuals);
}
