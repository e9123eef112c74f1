// The meshes the benchmark runs: the presets as the program shows them,
// larger bodies that show how each solver scales (cube lattices of about
// 10k, 50k and 200k tets, and 1M when named, the bunny tetrahedralized at 2x
// and 4x resolution),
// and the scenes of many bodies in contact (pile, pile-large).
#pragma once

#include "core/result.h"
#include "core/world.h"

#include <memory>
#include <string>
#include <vector>

struct BenchMesh {
    std::string name;         // e.g. "bunny", "lattice-50k", "pile"
    float youngs_modulus_pa;  // the stiffness it runs at, unless it is a scene
    // Simulated before timing starts: a scene's bodies fall for a while
    // before they touch; its frames are timed once they are heaped.
    float settle_s = 0.0f;
    bool scene = false;  // its bodies keep their own materials
    bool in_all = true;  // false: run only when named (lattice-1m)
};

// Every benchmark mesh, in the order the table lists them.
const std::vector<BenchMesh>& all_bench_meshes();

// The meshes named in a comma-separated list ("all" for every one but those
// left out of it); fails
// on an unknown name and lists the known ones.
Result<std::vector<BenchMesh>> bench_meshes_from_list(const std::string& list);

// Builds the mesh, placed above the ground like the presets, alone in a
// world; or the scene's world.
Result<std::shared_ptr<const World>> make_bench_world(const BenchMesh& mesh);
