#include "core/simd/tet_block_kernel.h"

std::vector<TetBlockKernelInfo> available_tet_block_kernels()
{
    // The kernels are compiled for the x86-64 micro-architecture levels
    // (-march=x86-64-v4 / -v3), so the check asks for the whole level, not
    // only for the features the code is known to use today.
    std::vector<TetBlockKernelInfo> kernels;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4")) {
        kernels.push_back({"avx512", 16, solve_tet_blocks_avx512});
    }
    if (__builtin_cpu_supports("x86-64-v3")) {
        kernels.push_back({"avx2", 8, solve_tet_blocks_avx2});
    }
    kernels.push_back({"sse2", 4, solve_tet_blocks_sse2});
    return kernels;
}
