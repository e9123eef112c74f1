// The SIMD tet kernel for AVX2 + FMA: 8 tets per vector. Compiled with
// -march=x86-64-v3 (see CMakeLists.txt); run only where the CPU has it.
#include "core/simd/tet_block_kernel.h"

#include <immintrin.h>

namespace tet_kernel_avx2 {

#define TB_LANES 8
typedef float vf __attribute__((vector_size(32)));
typedef int32_t vi __attribute__((vector_size(32)));

inline vf tb_sqrt(vf x) { return (vf)_mm256_sqrt_ps((__m256)x); }
inline vf tb_gather(const float* base, vi index)
{
    return (vf)_mm256_i32gather_ps(base, (__m256i)index, 4);
}
// AVX2 has no scatter: eight stores.
inline void tb_scatter(float* base, vi index, vf value)
{
    for (int lane = 0; lane < TB_LANES; ++lane) {
        base[index[lane]] = value[lane];
    }
}

#include "core/simd/tet_block_kernel_body.h"

}  // namespace tet_kernel_avx2

void solve_tet_blocks_avx2(TetBlocks& blocks, const TetBlockStep& step, size_t first_block,
                           size_t end_block, double* block_residuals)
{
    tet_kernel_avx2::solve_blocks(blocks, step, first_block, end_block, block_residuals);
}
