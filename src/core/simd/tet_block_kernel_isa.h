// What each instruction set's kernel file shares: given its native vector
// types and a few native operations, builds the kernel on them and the loop
// that drives it. Include it inside the file's own namespace after defining:
//   kNativeLanes; nf, ni (GCC vector types of kNativeLanes floats / int32s)
//   nf native_sqrt(nf)
//   bool native_any(ni): whether any lane of a comparison's result (an ni
//   of -1 and 0) is on
//   native_gather_xyz(const float*, ni, nf& x, nf& y, nf& z) and
//   native_scatter_xyz(float*, ni, nf, nf, nf): the three coordinates of
//   the points whose x is at base + index
//   native_gather_xyzw(const float*, ni, nf&, nf&, nf&, nf&): the four
//   floats of the points whose first is at base + index
//
// One block at a time. Two blocks interleaved once hid the latency of the
// signed SVD's chain of Jacobi rotations, when every tet took the SVD; with
// the rotation kept from step to step (a Newton step for most tets), the
// pairs' state outgrew the vector registers and their spills cost more than
// the latency they hid: one block at a time is 6-30% faster with AVX-512
// (README, Performance).

using nmask = decltype(nf{} < nf{});  // the same type as ni (any_lane passes one as the other)

constexpr int kLanes = kNativeLanes;
using vf = nf;
using vi = ni;
using vmask = nmask;
inline vf select(vmask m, vf a, vf b) { return m ? a : b; }
// A move of the lanes' sign bits and a test (a lane at a time it took two
// instructions a lane: 97 of a step's 1,827 with AVX-512, the torus's
// frames 2% longer).
inline bool any_lane(vmask m) { return native_any(m); }
inline vf tb_sqrt(vf x) { return native_sqrt(x); }
// Loads and stores through memcpy, the aliasing-safe way (one vector move).
inline vf tb_load(const float* p)
{
    vf v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
inline vi tb_load(const int32_t* p)
{
    vi v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
inline void tb_store(float* p, vf v) { __builtin_memcpy(p, &v, sizeof v); }
inline void tb_gather_xyz(const float* base, vi index, vf& x, vf& y, vf& z)
{
    native_gather_xyz(base, index, x, y, z);
}
inline void tb_gather_xyzw(const float* base, vi index, vf& x, vf& y, vf& z, vf& w)
{
    native_gather_xyzw(base, index, x, y, z, w);
}
inline void tb_scatter_xyz(float* base, vi index, vf x, vf y, vf z)
{
    native_scatter_xyz(base, index, x, y, z);
}

#include "core/simd/tet_block_kernel_body.h"

inline void solve_blocks(const TetBlockArrays& blocks, const TetBlockStep& step, size_t first_block,
                         size_t end_block, BlockSums* block_sums)
{
    assert(blocks.lanes == kNativeLanes && "blocks laid out for another kernel");
    for (size_t block = first_block; block < end_block; ++block) {
        solve_and_sum(blocks, step, block, block_sums);
    }
}
