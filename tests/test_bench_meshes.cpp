// The benchmark's list of meshes: what "all" runs, and the million-tet
// lattice that runs only when named.
#include "app/bench_meshes.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

bool lists(const std::vector<BenchMesh>& meshes, const std::string& name)
{
    return std::any_of(meshes.begin(), meshes.end(),
                       [&](const BenchMesh& mesh) { return mesh.name == name; });
}

}  // namespace

TEST(BenchMeshes, AllRunsEveryMeshButTheMillionTetLattice)
{
    Result<std::vector<BenchMesh>> all = bench_meshes_from_list("all");
    ASSERT_TRUE(all.ok()) << all.error();
    for (const char* name : {"bunny", "cube", "torus", "beam", "bunny-2x", "bunny-4x",
                             "lattice-10k", "lattice-50k", "lattice-200k", "pile", "pile-large"}) {
        EXPECT_TRUE(lists(all.value(), name)) << name;
    }
    EXPECT_FALSE(lists(all.value(), "lattice-1m")) << "a frame takes seconds on a CPU core";

    Result<std::vector<BenchMesh>> named = bench_meshes_from_list("cube,lattice-1m");
    ASSERT_TRUE(named.ok()) << named.error();
    ASSERT_EQ(named.value().size(), 2u);
    EXPECT_EQ(named.value()[1].name, "lattice-1m");
}

TEST(BenchMeshes, TheMillionTetLatticeHasAboutAMillionTets)
{
    Result<std::vector<BenchMesh>> named = bench_meshes_from_list("lattice-1m");
    ASSERT_TRUE(named.ok()) << named.error();
    Result<std::shared_ptr<const World>> world = make_bench_world(named.value()[0]);
    ASSERT_TRUE(world.ok()) << world.error();
    const TetMesh& mesh = *world.value()->mesh;
    EXPECT_EQ(mesh.tet_count(), 6u * 55 * 55 * 55);  // 998,250
    EXPECT_EQ(mesh.vertex_count(), 56u * 56 * 56);
    EXPECT_GE(mesh.rest_positions.front().y, 0.25f - 1e-6f) << "above the ground";
}
