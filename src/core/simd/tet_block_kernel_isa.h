// What each instruction set's kernel file shares: given its native vector
// types and three native operations, builds the kernel twice (single vectors
// and interleaved pairs) and the loop that drives them. Include it inside
// the file's own namespace after defining:
//   kNativeLanes; nf, ni (GCC vector types of kNativeLanes floats / int32s)
//   nf native_sqrt(nf)
//   nf native_gather(const float*, ni): the floats at base + index
//   native_gather_xyz(const float*, ni, nf& x, nf& y, nf& z) and
//   native_scatter_xyz(float*, ni, nf, nf, nf): the three coordinates of
//   the points whose x is at base + index
//
// Why pairs: the SVD's Jacobi rotations form one long chain of dependent
// operations (a rotation needs the previous one's result), so a single
// vector leaves most of the core's execution ports idle waiting on latency.
// Two independent blocks issued side by side fill them.

using nmask = decltype(nf{} < nf{});

namespace single {

constexpr int kLanes = kNativeLanes;
using vf = nf;
using vi = ni;
using vmask = nmask;
inline vf select(vmask m, vf a, vf b) { return m ? a : b; }
inline float lane(vf x, int i) { return x[i]; }
inline bool any_lane(vmask m)
{
    for (int i = 0; i < kLanes; ++i) {
        if (m[i] != 0) return true;
    }
    return false;
}
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
inline vf tb_gather(const float* base, vi index) { return native_gather(base, index); }
inline void tb_gather_xyz(const float* base, vi index, vf& x, vf& y, vf& z)
{
    native_gather_xyz(base, index, x, y, z);
}
inline void tb_scatter_xyz(float* base, vi index, vf x, vf y, vf z)
{
    native_scatter_xyz(base, index, x, y, z);
}

#include "core/simd/tet_block_kernel_body.h"

}  // namespace single

namespace paired {

constexpr int kLanes = 2 * kNativeLanes;
// Lanes 0 .. kNativeLanes - 1 in `a`, the next kNativeLanes in `b`: two
// consecutive blocks of the same colour, contiguous in memory.
struct vf {
    nf a, b;
};
struct vi {
    ni a, b;
};
struct vmask {
    nmask a, b;
};
inline vf operator+(vf x, vf y) { return {x.a + y.a, x.b + y.b}; }
inline vf operator-(vf x, vf y) { return {x.a - y.a, x.b - y.b}; }
inline vf operator*(vf x, vf y) { return {x.a * y.a, x.b * y.b}; }
inline vf operator/(vf x, vf y) { return {x.a / y.a, x.b / y.b}; }
inline vf operator+(vf x, float s) { return {x.a + s, x.b + s}; }
inline vf operator-(vf x, float s) { return {x.a - s, x.b - s}; }
inline vf operator*(vf x, float s) { return {x.a * s, x.b * s}; }
inline vf operator+(float s, vf x) { return {s + x.a, s + x.b}; }
inline vf operator-(float s, vf x) { return {s - x.a, s - x.b}; }
inline vf operator*(float s, vf x) { return {s * x.a, s * x.b}; }
inline vf operator/(float s, vf x) { return {s / x.a, s / x.b}; }
inline vf operator-(vf x) { return {-x.a, -x.b}; }
inline vf& operator+=(vf& x, vf y) { return x = x + y; }
inline vmask operator<(vf x, vf y) { return {x.a < y.a, x.b < y.b}; }
inline vmask operator>(vf x, vf y) { return {x.a > y.a, x.b > y.b}; }
inline vmask operator>=(vf x, vf y) { return {x.a >= y.a, x.b >= y.b}; }
inline vmask operator==(vf x, vf y) { return {x.a == y.a, x.b == y.b}; }
inline vmask operator<(vf x, float s) { return {x.a < s, x.b < s}; }
inline vmask operator>(vf x, float s) { return {x.a > s, x.b > s}; }
inline vmask operator>=(vf x, float s) { return {x.a >= s, x.b >= s}; }
inline vmask operator&(vmask x, vmask y) { return {x.a & y.a, x.b & y.b}; }
inline vmask operator~(vmask x) { return {~x.a, ~x.b}; }
inline bool any_lane(vmask m) { return single::any_lane(m.a) || single::any_lane(m.b); }
inline vi operator*(vi x, int s) { return {x.a * s, x.b * s}; }
inline vf select(vmask m, vf x, vf y) { return {m.a ? x.a : y.a, m.b ? x.b : y.b}; }
inline float lane(vf x, int i) { return i < kNativeLanes ? x.a[i] : x.b[i - kNativeLanes]; }
inline vf tb_sqrt(vf x) { return {native_sqrt(x.a), native_sqrt(x.b)}; }
inline vf tb_load(const float* p) { return {single::tb_load(p), single::tb_load(p + kNativeLanes)}; }
inline vi tb_load(const int32_t* p)
{
    return {single::tb_load(p), single::tb_load(p + kNativeLanes)};
}
inline void tb_store(float* p, vf v)
{
    single::tb_store(p, v.a);
    single::tb_store(p + kNativeLanes, v.b);
}
inline vf tb_gather(const float* base, vi index)
{
    return {native_gather(base, index.a), native_gather(base, index.b)};
}
inline void tb_gather_xyz(const float* base, vi index, vf& x, vf& y, vf& z)
{
    native_gather_xyz(base, index.a, x.a, y.a, z.a);
    native_gather_xyz(base, index.b, x.b, y.b, z.b);
}
inline void tb_scatter_xyz(float* base, vi index, vf x, vf y, vf z)
{
    native_scatter_xyz(base, index.a, x.a, y.a, z.a);
    native_scatter_xyz(base, index.b, x.b, y.b, z.b);
}

#include "core/simd/tet_block_kernel_body.h"

}  // namespace paired

// Blocks two at a time, a last odd one alone.
inline void solve_blocks(const TetBlockArrays& blocks, const TetBlockStep& step, size_t first_block,
                         size_t end_block, BlockSums* block_sums)
{
    assert(blocks.lanes == kNativeLanes && "blocks laid out for another kernel");
    size_t block = first_block;
    for (; block + 2 <= end_block; block += 2) {
        paired::solve_and_sum(blocks, step, block, block_sums);
    }
    if (block < end_block) {
        single::solve_and_sum(blocks, step, block, block_sums);
    }
}
