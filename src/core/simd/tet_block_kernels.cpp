#include "core/simd/tet_block_kernel.h"

std::vector<TetBlockKernelInfo> available_tet_block_kernels()
{
    std::vector<TetBlockKernelInfo> kernels;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")) {
        kernels.push_back({"avx512", 16, solve_tet_blocks_avx512});
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        kernels.push_back({"avx2", 8, solve_tet_blocks_avx2});
    }
    kernels.push_back({"sse2", 4, solve_tet_blocks_sse2});
    return kernels;
}
