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
// operand that _mm512_sqrt_ps and _mm512_i32gather_ps pass to the same
// instructions.
inline nf native_sqrt(nf x) { return (nf)_mm512_maskz_sqrt_ps(0xffff, (__m512)x); }
inline nf native_gather(const float* base, ni index)
{
    return (nf)_mm512_mask_i32gather_ps(_mm512_setzero_ps(), 0xffff, (__m512i)index, base, 4);
}
inline void native_scatter(float* base, ni index, nf value)
{
    _mm512_i32scatter_ps(base, (__m512i)index, (__m512)value, 4);
}

#include "core/simd/tet_block_kernel_isa.h"

}  // namespace tet_kernel_avx512

void solve_tet_blocks_avx512(const TetBlockArrays& blocks, const TetBlockStep& step, size_t first_block,
                             size_t end_block, double* block_residuals)
{
    tet_kernel_avx512::solve_blocks(blocks, step, first_block, end_block, block_residuals);
}
