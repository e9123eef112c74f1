// Scene files (app/scene_file.h): a file with every key gives the world it
// spells out; a broken one is refused with a message that names the file,
// the entry and the field. And every built-in scene assembles, with the
// bodies its description promises.
#include "scratch_dir_test.h"

#include "app/scene_file.h"
#include "core/contact_math.h"
#include "core/lattice.h"
#include "core/mesh_files.h"
#include "core/penetration.h"
#include "core/presets.h"
#include "core/scenes.h"
#include "core/sim_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>

namespace {

class SceneFileTest : public ScratchDirTest {
protected:
    // A 2 x 1 x 1 box of two cells, its x = 0 face pinned, in meshes/ next
    // to the scene; a scene names it "meshes/block.tet".
    void SetUp() override
    {
        ScratchDirTest::SetUp();
        std::filesystem::create_directories(dir_ / "meshes");
        block_ = box_lattice({2, 1, 1}, glm::vec3(0.0f), {2.0f, 1.0f, 1.0f});
        for (uint32_t v = 0; v < block_.positions.size(); ++v) {
            if (block_.positions[v].x == 0.0f) block_.pinned_vertices.push_back(v);
        }
        Result<bool> saved = save_tet_file(path("meshes/block.tet"), block_);
        ASSERT_TRUE(saved.ok()) << saved.error();
    }

    // The error parsing `text` as the scene file scene.json in the directory
    // gives; a test failure if it parses.
    std::string refusal(const std::string& text)
    {
        Result<WorldDesc> scene =
            parse_scene_text(text, path("scene.json"), kDefaultMeshResolution);
        EXPECT_FALSE(scene.ok()) << text;
        return scene.ok() ? std::string() : scene.error();
    }

    TetMeshDesc block_;
};

// Every key there is, each with a value other than its default.
constexpr const char* kEveryKey = R"({
  "name": "every key",
  "gravity": [0.5, -5, 0.25],
  "ground": false,
  "bodies": [
    {"preset": "cube", "position": [1, 2, 3], "rotation_deg": [10, 20, 30],
     "velocity": [0.5, 0, -0.5], "angular_velocity": [0, 1.5, 0],
     "youngs": 3e5, "poisson": 0.25, "density": 800, "pinned": false},
    {"mesh": "meshes/block.tet", "size": 0.3, "resolution": 8, "poisson": 0.4},
    {"preset": "torus", "density": 500},
    {"preset": "beam"}
  ],
  "obstacles": [
    {"type": "sphere", "center": [1, 0.5, 0], "radius": 0.25},
    {"type": "box", "center": [-1, 0.2, 0], "half_extents": [0.3, 0.2, 0.1]},
    {"type": "capsule", "a": [0, 0, 2], "b": [0, 1, 2], "radius": 0.07}
  ]
})";

glm::vec3 extent(const TetMeshDesc& mesh, glm::vec3& lowest)
{
    lowest = glm::vec3(INFINITY);
    glm::vec3 highest(-INFINITY);
    for (const glm::vec3& p : mesh.positions) {
        lowest = glm::min(lowest, p);
        highest = glm::max(highest, p);
    }
    return highest - lowest;
}

}  // namespace

TEST_F(SceneFileTest, EveryKeyGivesTheWorldItSpellsOut)
{
    Result<WorldDesc> parsed =
        parse_scene_text(kEveryKey, path("scene.json"), kDefaultMeshResolution);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    const WorldDesc& w = parsed.value();
    EXPECT_EQ(w.name, "every key");
    ASSERT_TRUE(w.gravity_m_s2.has_value());
    EXPECT_EQ(*w.gravity_m_s2, glm::vec3(0.5f, -5.0f, 0.25f));
    ASSERT_TRUE(w.ground.has_value());
    EXPECT_FALSE(*w.ground);
    ASSERT_EQ(w.bodies.size(), 4u);

    const BodyDesc& cube = w.bodies[0];
    EXPECT_EQ(cube.preset, PresetId::cube);
    ASSERT_TRUE(cube.position_m.has_value());
    EXPECT_EQ(*cube.position_m, glm::vec3(1.0f, 2.0f, 3.0f));
    EXPECT_EQ(cube.rotation_deg, glm::vec3(10.0f, 20.0f, 30.0f));
    EXPECT_EQ(cube.velocity_m_s, glm::vec3(0.5f, 0.0f, -0.5f));
    EXPECT_EQ(cube.angular_velocity_rad_s, glm::vec3(0.0f, 1.5f, 0.0f));
    EXPECT_EQ(cube.material, (BodyMaterial{3.0e5f, 0.25f, 800.0f}));
    EXPECT_FALSE(cube.pinned);
    Result<TetMeshDesc> upright_cube = make_preset_mesh(PresetId::cube, PresetPose::upright);
    ASSERT_TRUE(upright_cube.ok());
    EXPECT_EQ(cube.mesh.positions, upright_cube.value().positions) << "presets come upright";

    // The mesh, found next to the scene, scaled so that its longest side is
    // "size", centred on x = z = 0 with its lowest point 0.4 m up, unturned.
    const BodyDesc& block = w.bodies[1];
    EXPECT_FALSE(block.preset.has_value());
    EXPECT_FALSE(block.position_m.has_value()) << "it stays where the file places it";
    EXPECT_TRUE(block.pinned);
    EXPECT_EQ(block.mesh.tets, block_.tets);
    EXPECT_EQ(block.mesh.pinned_vertices, block_.pinned_vertices);
    glm::vec3 lowest;
    const glm::vec3 size = extent(block.mesh, lowest);
    EXPECT_NEAR(size.x, 0.3f, 1e-6f);
    EXPECT_NEAR(size.y, 0.15f, 1e-6f);
    EXPECT_NEAR(size.z, 0.15f, 1e-6f);
    EXPECT_NEAR(lowest.x, -0.15f, 1e-6f);
    EXPECT_NEAR(lowest.y, 0.4f, 1e-6f);
    EXPECT_NEAR(lowest.z, -0.075f, 1e-6f);
    // What the file leaves out of a material is the default's: a loaded
    // body's stiffness, a preset's own.
    EXPECT_EQ(block.material, (BodyMaterial{kLoadedBodyYoungsPa, 0.4f, 1000.0f}));
    const float torus_youngs = preset_info(PresetId::torus).suggested_youngs_pa;
    EXPECT_EQ(w.bodies[2].material, (BodyMaterial{torus_youngs, 0.3f, 500.0f}));
    const float beam_youngs = preset_info(PresetId::beam).suggested_youngs_pa;
    EXPECT_EQ(w.bodies[3].material, (BodyMaterial{beam_youngs, 0.3f, 1000.0f}));
    EXPECT_TRUE(w.bodies[3].pinned);
    EXPECT_FALSE(w.bodies[3].mesh.pinned_vertices.empty()) << "the beam keeps its pinned face";

    ASSERT_EQ(w.obstacles.size(), 3u);
    Obstacle sphere{ObstacleShape::sphere, {1.0f, 0.5f, 0.0f}, glm::vec3(0.0f), 0.25f};
    Obstacle box{ObstacleShape::box, {-1.0f, 0.2f, 0.0f}, {0.3f, 0.2f, 0.1f}, 0.0f};
    Obstacle capsule{ObstacleShape::capsule, {0.0f, 0.0f, 2.0f}, {0.0f, 1.0f, 2.0f}, 0.07f};
    EXPECT_EQ(w.obstacles[0], sphere);
    EXPECT_EQ(w.obstacles[1], box);
    EXPECT_EQ(w.obstacles[2], capsule);

    // The same file read from the disk, and loaded by --scene's path.
    write("scene.json", kEveryKey);
    Result<WorldDesc> read = read_scene_file(path("scene.json"), kDefaultMeshResolution);
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read.value().bodies.size(), 4u);
    EXPECT_EQ(read.value().bodies[1].mesh.positions, block.mesh.positions);
    Result<WorldDesc> loaded = load_scene(path("scene.json"), kDefaultMeshResolution);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(loaded.value().obstacles, w.obstacles);
    // And it assembles.
    Result<World> world = assemble_world(w);
    ASSERT_TRUE(world.ok()) << world.error();
    EXPECT_EQ(world.value().body_count(), 4u);
}

TEST_F(SceneFileTest, NameDefaultsToTheFileName)
{
    Result<WorldDesc> parsed = parse_scene_text(R"({"bodies": [{"preset": "cube"}]})",
                                                path("my drop.json"), kDefaultMeshResolution);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(parsed.value().name, "my drop");
    EXPECT_FALSE(parsed.value().gravity_m_s2.has_value()) << "unset: the user's";
    EXPECT_FALSE(parsed.value().ground.has_value());
}

TEST_F(SceneFileTest, BrokenScenesAreRefusedNamingTheFileEntryAndField)
{
    struct Broken {
        const char* what;
        std::string text;
        std::vector<std::string> message_has;
    };
    const std::vector<Broken> cases = {
        {"no bodies", R"({"gravity": [0, -9.81, 0]})", {"missing \"bodies\""}},
        {"empty bodies", R"({"bodies": []})", {"bodies: ", "empty"}},
        {"unknown preset", R"({"bodies": [{"preset": "cube"}, {"preset": "sphere"}]})",
         {"bodies[1].preset: ", "unknown preset \"sphere\"", "cube, torus, beam"}},
        {"a string for a number", R"({"bodies": [{"preset": "cube", "youngs": "stiff"}]})",
         {"bodies[0].youngs: ", "expected a number from 100 to 1e+10, got string"}},
        {"youngs out of range", R"({"bodies": [{"preset": "cube", "youngs": 5}]})",
         {"bodies[0].youngs: ", "from 100 to 1e+10", "got 5"}},
        {"negative radius",
         R"({"bodies": [{"preset": "cube"}],
             "obstacles": [{"type": "sphere", "center": [0, 0, 0], "radius": -1}]})",
         {"obstacles[0].radius: ", "expected a number"}},
        {"two numbers for a position", R"({"bodies": [{"preset": "cube", "position": [1, 2]}]})",
         {"bodies[0].position: ", "three numbers", "got 2 items"}},
        {"missing mesh file", R"({"bodies": [{"preset": "cube"}, {"mesh": "meshes/gone.obj"}]})",
         {"bodies[1].mesh: ", "gone.obj"}},
        {"unknown key", R"({"bodies": [{"preset": "cube", "colour": "red"}]})",
         {"bodies[0].colour: ", "unknown key"}},
        {"unknown top-level key", R"({"bodies": [{"preset": "cube"}], "gravty": [0, -1, 0]})",
         {"gravty: ", "unknown key"}},
        {"both preset and mesh", R"({"bodies": [{"preset": "cube", "mesh": "meshes/block.tet"}]})",
         {"bodies[0]: ", "both"}},
        {"bad JSON", "{\"bodies\": [\n  {\"preset\": \"cube\"},\n  {\"preset\" \"torus\"}\n]}",
         {"not valid JSON", "line 3, column"}},
        {"obstacle without radius",
         R"({"bodies": [{"preset": "cube"}],
             "obstacles": [{"type": "capsule", "a": [0, 0, 0], "b": [0, 1, 0]}]})",
         {"obstacles[0]: ", "missing \"radius\""}},
        {"unknown obstacle",
         R"({"bodies": [{"preset": "cube"}],
             "obstacles": [{"type": "cone", "center": [0, 0, 0]}]})",
         {"obstacles[0].type: ", "\"cone\"", "sphere, box or capsule"}},
    };
    const std::string file = "scene '" + path("scene.json") + "': ";
    for (const Broken& c : cases) {
        const std::string message = refusal(c.text);
        EXPECT_EQ(message.rfind(file, 0), 0u) << c.what << ": " << message;
        for (const std::string& part : c.message_has) {
            EXPECT_NE(message.find(part), std::string::npos)
                << c.what << ": '" << part << "' not in: " << message;
        }
    }
}

TEST_F(SceneFileTest, AMissingSceneFileIsRefusedNamingIt)
{
    Result<WorldDesc> scene = read_scene_file(path("nowhere.json"), kDefaultMeshResolution);
    ASSERT_FALSE(scene.ok());
    EXPECT_NE(scene.error().find("nowhere.json"), std::string::npos) << scene.error();
}

TEST(BuiltinScenes, EachAssemblesWithTheBodiesItsDescriptionSays)
{
    // Bodies and tets per scene, as the descriptions in scenes.cpp put them
    // ("8 bodies", "three jelly cubes", "13.8k tets", ...); 0: not stated.
    struct Expected {
        size_t bodies;
        size_t obstacles;
        double tets;         // as rounded in the description
        double tets_digit;   // its last digit's place: 100 for 13.8k
    };
    const std::map<std::string, Expected> expected = {
        {"pile", {8, 4, 13800, 100}},
        {"stack", {3, 0, 0, 0}},
        {"collide", {2, 0, 0, 0}},
        {"beam-hit", {2, 0, 0, 0}},
        {"post", {3, 3, 0, 0}},
        {"pile-large", {48, 24, 83000, 1000}},
    };
    for (const SceneInfo& info : builtin_scenes()) {
        const auto start = std::chrono::steady_clock::now();
        const auto seconds = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        Result<WorldDesc> desc = make_builtin_scene(info.name);
        ASSERT_TRUE(desc.ok()) << info.name << ": " << desc.error();
        Result<World> world = assemble_world(desc.value());
        ASSERT_TRUE(world.ok()) << info.name << ": " << world.error();
        const World& w = world.value();
        // The bodies start apart, none under the ground or in an obstacle.
        const PenetrationReport overlap =
            measure_penetration(*w.mesh, w.vertex_body, w.mesh->rest_positions);
        const std::vector<BodyStats> bodies = compute_body_stats(w, w.mesh->rest_positions);
        float lowest = INFINITY;
        for (const BodyStats& b : bodies) lowest = std::min(lowest, b.min_y_m);
        std::printf("%-10s %2zu bodies, %6zu tets, %zu obstacles, lowest y %.3f m, overlap "
                    "%.3g m; %.2f s to make, assemble and measure\n",
                    info.name, w.body_count(), w.mesh->tet_count(), w.obstacles.size(), lowest,
                    overlap.max_depth_m, seconds());
        EXPECT_EQ(overlap.vertices_inside, 0u) << info.name;
        EXPECT_GE(lowest, 0.0f) << info.name;
        for (const Obstacle& o : w.obstacles) {
            for (const glm::vec3& p : w.mesh->rest_positions) {
                glm::vec3 normal;
                const float d = contact_math::cm_obstacle_distance(
                    p, glm::vec4(o.a, o.radius_m), glm::vec4(o.b, static_cast<float>(o.shape)),
                    normal);
                ASSERT_GT(d, 0.0f) << info.name << ": a body starts in an obstacle, "
                                   << obstacle_shape_name(o.shape);
            }
        }
        const auto it = expected.find(info.name);
        if (it == expected.end()) {
            ADD_FAILURE() << info.name << ": a new scene; add what its description says here";
            continue;
        }
        EXPECT_EQ(w.body_count(), it->second.bodies) << info.name << ": " << info.description;
        EXPECT_EQ(w.obstacles.size(), it->second.obstacles) << info.name;
        if (it->second.tets > 0) {
            EXPECT_NEAR(static_cast<double>(w.mesh->tet_count()), it->second.tets,
                        0.5 * it->second.tets_digit)
                << info.name << ": " << info.description;
        }
    }
}

TEST(BuiltinScenes, EveryPresetIsASceneOfItsOneBody)
{
    for (const Preset& p : all_presets()) {
        ASSERT_TRUE(is_builtin_scene(p.name));
        Result<WorldDesc> desc = make_builtin_scene(p.name);
        ASSERT_TRUE(desc.ok()) << p.name << ": " << desc.error();
        ASSERT_EQ(desc.value().bodies.size(), 1u) << p.name;
        EXPECT_EQ(desc.value().bodies[0].preset, p.id);
    }
    Result<WorldDesc> unknown = make_builtin_scene("heap");
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("pile, stack"), std::string::npos) << unknown.error();
}
