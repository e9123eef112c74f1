// The meshes the benchmark runs: the presets as the program shows them, and
// larger bodies that show how each solver scales (cube lattices of about
// 10k, 50k and 200k tets, the bunny tetrahedralized at 2x and 4x resolution).
#pragma once

#include "core/result.h"
#include "core/tet_mesh.h"

#include <string>
#include <vector>

struct BenchMesh {
    std::string name;         // e.g. "bunny", "lattice-50k"
    float youngs_modulus_pa;  // the stiffness it runs at
};

// Every benchmark mesh, in the order the table lists them.
const std::vector<BenchMesh>& all_bench_meshes();

// The meshes named in a comma-separated list ("all" for every one); fails
// on an unknown name and lists the known ones.
Result<std::vector<BenchMesh>> bench_meshes_from_list(const std::string& list);

// Builds the mesh, placed above the ground like the presets.
Result<TetMeshDesc> make_bench_mesh(const BenchMesh& mesh);
