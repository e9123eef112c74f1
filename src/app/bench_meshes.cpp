#include "app/bench_meshes.h"

#include "app/scene_file.h"

#include "core/bunny.h"
#include "core/lattice.h"
#include "core/presets.h"

#include <sstream>

namespace {

// A 1 m cube of n^3 cells (6 n^3 tets), 0.25 m above the ground.
struct LatticeSize {
    const char* name;
    int cells;
    bool in_all = true;
};
constexpr LatticeSize kLattices[] = {
    {"lattice-10k", 12},   // 10,368 tets, 2,197 vertices
    {"lattice-50k", 20},   // 48,000 tets, 9,261 vertices
    {"lattice-200k", 32},  // 196,608 tets, 35,937 vertices
    // 998,250 tets, 175,616 vertices: the size meant for a real GPU. A frame
    // takes seconds on a CPU core and on llvmpipe, so only a list that names
    // it runs it.
    {"lattice-1m", 55, false},
};
constexpr float kLatticeYoungsPa = 2.0e5f;  // the cube preset's

// The bunny's surface at 2x and 4x the preset's resolution, tetrahedralized
// when the benchmark starts (36,545 and 279,508 tets; the 4x one takes some
// 15 s on 2 cores).
struct BunnySize {
    const char* name;
    int resolution;
};
constexpr BunnySize kBunnies[] = {{"bunny-2x", 24}, {"bunny-4x", 48}};

// Scenes of many bodies: timed after the first two seconds, once the first
// bodies have landed and the contacts are many.
constexpr const char* kScenes[] = {"pile", "pile-large"};
constexpr float kSceneSettleS = 2.0f;

Result<TetMeshDesc> make_bench_mesh(const BenchMesh& mesh)
{
    if (std::optional<PresetId> preset = preset_from_name(mesh.name)) {
        return make_preset_mesh(*preset);
    }
    for (const BunnySize& size : kBunnies) {
        if (mesh.name == size.name) {
            Result<TetMeshDesc> bunny =
                make_body_from_file(asset_directory() + "/bunny.obj", size.resolution);
            if (bunny) {
                bunny.value().name = size.name;
            }
            return bunny;
        }
    }
    for (const LatticeSize& lattice : kLattices) {
        if (mesh.name == lattice.name) {
            TetMeshDesc desc = box_lattice(glm::ivec3(lattice.cells), glm::vec3(-0.5f, 0.25f, -0.5f),
                                           glm::vec3(1.0f));
            desc.name = lattice.name;
            return desc;
        }
    }
    return Result<TetMeshDesc>::failure("unknown benchmark mesh '" + mesh.name + "'");
}

std::string known_names()
{
    std::string names;
    for (const BenchMesh& mesh : all_bench_meshes()) {
        names += (names.empty() ? "" : ", ") + mesh.name;
    }
    return names;
}

}  // namespace

const std::vector<BenchMesh>& all_bench_meshes()
{
    static const std::vector<BenchMesh> meshes = [] {
        std::vector<BenchMesh> list;
        for (const Preset& preset : all_presets()) {
            list.push_back({preset.name, preset.suggested_youngs_pa});
        }
        for (const BunnySize& bunny : kBunnies) {
            list.push_back({bunny.name, preset_info(PresetId::bunny).suggested_youngs_pa});
        }
        for (const LatticeSize& lattice : kLattices) {
            BenchMesh mesh{lattice.name, kLatticeYoungsPa};
            mesh.in_all = lattice.in_all;
            list.push_back(mesh);
        }
        for (const char* scene : kScenes) {
            list.push_back({scene, 0.0f, kSceneSettleS, true});
        }
        return list;
    }();
    return meshes;
}

Result<std::vector<BenchMesh>> bench_meshes_from_list(const std::string& list)
{
    if (list == "all") {
        std::vector<BenchMesh> every;
        for (const BenchMesh& mesh : all_bench_meshes()) {
            if (mesh.in_all) {
                every.push_back(mesh);
            }
        }
        return every;
    }
    std::vector<BenchMesh> chosen;
    std::istringstream names(list);
    std::string name;
    while (std::getline(names, name, ',')) {
        bool found = false;
        for (const BenchMesh& mesh : all_bench_meshes()) {
            if (mesh.name == name) {
                chosen.push_back(mesh);
                found = true;
            }
        }
        if (!found) {
            return Result<std::vector<BenchMesh>>::failure("unknown benchmark mesh '" + name +
                                                           "', expected all or some of " +
                                                           known_names());
        }
    }
    if (chosen.empty()) {
        return Result<std::vector<BenchMesh>>::failure("no benchmark mesh named");
    }
    return chosen;
}

Result<std::shared_ptr<const World>> make_bench_world(const BenchMesh& mesh)
{
    using R = Result<std::shared_ptr<const World>>;
    for (const char* scene : kScenes) {
        if (mesh.name == scene) {
            Result<World> world = load_scene_world(scene, kDefaultMeshResolution);
            if (!world) {
                return R::failure(world.error());
            }
            return R(std::make_shared<const World>(std::move(world).value()));
        }
    }
    Result<TetMeshDesc> desc = make_bench_mesh(mesh);
    Result<TetMesh> prepared =
        desc ? prepare_tet_mesh(desc.value()) : Result<TetMesh>::failure(desc.error());
    if (!prepared) {
        return R::failure(prepared.error());
    }
    return R(single_body_world(std::make_shared<const TetMesh>(std::move(prepared).value())));
}
