#include "core/simd/tet_block_kernel.h"

namespace {

// The kernels are compiled for the x86-64 micro-architecture levels
// (-march=x86-64-v4 / -v3), so the check asks for the whole level, not only
// for the features the code is known to use today. gcc 12 knows the level
// names; clang knows them from version 16 on, and Debian 12's clang 14
// (tools/fuzz.sh) only single features, not all of them (f16c, movbe, lzcnt
// and xsave are missing): there it asks for every feature of the level it
// knows. Every CPU with AVX2, FMA and BMI2 (Haswell, Zen and later) has the
// others.
#if defined(__clang__) && __clang_major__ < 16
bool cpu_has_x86_64_v3()
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
           __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("sse4.2");
}
bool cpu_has_x86_64_v4()
{
    return cpu_has_x86_64_v3() && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}
#else
bool cpu_has_x86_64_v3() { return __builtin_cpu_supports("x86-64-v3"); }
bool cpu_has_x86_64_v4() { return __builtin_cpu_supports("x86-64-v4"); }
#endif

}  // namespace

std::vector<TetBlockKernelInfo> available_tet_block_kernels()
{
    std::vector<TetBlockKernelInfo> kernels;
    __builtin_cpu_init();
    if (cpu_has_x86_64_v4()) {
        kernels.push_back({"avx512", 16, solve_tet_blocks_avx512});
    }
    if (cpu_has_x86_64_v3()) {
        kernels.push_back({"avx2", 8, solve_tet_blocks_avx2});
    }
    kernels.push_back({"sse2", 4, solve_tet_blocks_sse2});
    return kernels;
}

std::optional<TetBlockKernelInfo> tet_block_kernel_named(const std::string& name)
{
    for (const TetBlockKernelInfo& kernel : available_tet_block_kernels()) {
        if (name == kernel.name) {
            return kernel;
        }
    }
    return std::nullopt;
}

std::string available_tet_block_kernel_names()
{
    const std::vector<TetBlockKernelInfo> kernels = available_tet_block_kernels();
    std::string names;
    for (size_t i = 0; i < kernels.size(); ++i) {
        if (i > 0) {
            names += i + 1 == kernels.size() ? " or " : ", ";
        }
        names += kernels[i].name;
    }
    return names;
}
