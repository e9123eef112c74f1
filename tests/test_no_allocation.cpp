// A frame of the CPU solver allocates nothing: every buffer is sized when a
// mesh loads, or (the Jacobi method's) on its first frame. Counted by replacing the global operator new in this test
// binary (it only counts; allocation itself is unchanged).
#include "test_support.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> allocations{0};
}

void* operator new(std::size_t size)
{
    allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) {
        return p;
    }
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

TEST(NoAllocation, CpuFramesAllocateNothing)
{
    std::shared_ptr<const TetMesh> mesh =
        prepare_or_fail(box_lattice(glm::ivec3(12), glm::vec3(-0.5f, 0.1f, -0.5f), glm::vec3(1.0f)));
    for (const int threads : {1, 2}) {
        for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi}) {
            CpuSolver solver;
            solver.set_threads(threads);
            solver.load(mesh);
            SimParams params;
            params.method = method;
            params.substeps = 2;
            solver.set_pass_timing(true);
            solver.step_frame(params);  // the first frame computes the inverse masses
            const long before = allocations.load();
            run_frames(solver, params, 3);
            EXPECT_EQ(allocations.load() - before, 0)
                << threads << " threads, " << solver_method_name(method);
        }
    }
}
