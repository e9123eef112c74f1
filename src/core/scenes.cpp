#include "core/scenes.h"

#include "core/lattice.h"

#include <glm/gtc/constants.hpp>

#include <cmath>

namespace {

// A body from a preset, upright, its centre at `position_m`.
Result<BodyDesc> preset_body(PresetId id, glm::vec3 position_m, glm::vec3 rotation_deg,
                             float youngs_pa)
{
    Result<TetMeshDesc> mesh = make_preset_mesh(id, PresetPose::upright);
    if (!mesh) {
        return Result<BodyDesc>::failure(mesh.error());
    }
    BodyDesc body;
    body.mesh = std::move(mesh).value();
    body.preset = id;
    body.position_m = position_m;
    body.rotation_deg = rotation_deg;
    body.material = BodyMaterial{youngs_pa, 0.3f, 1000.0f};
    return body;
}

// An axis-aligned box of jelly centred at the origin, `cells` per side.
BodyDesc box_body(const char* name, glm::vec3 size_m, glm::ivec3 cells, glm::vec3 position_m,
                  float youngs_pa)
{
    BodyDesc body;
    body.mesh = box_lattice(cells, -0.5f * size_m, size_m);
    body.mesh.name = name;
    body.position_m = position_m;
    body.material = BodyMaterial{youngs_pa, 0.3f, 1000.0f};
    return body;
}

// Adds what `made` holds to `scene`, or keeps the first failure.
void add(WorldDesc& scene, Result<BodyDesc> made, std::string& error)
{
    if (!made) {
        if (error.empty()) error = made.error();
        return;
    }
    scene.bodies.push_back(std::move(made).value());
}

// Eight bodies of every kind and stiffness in a helix above `centre`, each
// turned its own way, so that they start apart (consecutive ones are 1 m
// apart, more than the sum of any two bodies' radii) and fall into a heap.
void add_heap(WorldDesc& scene, glm::vec3 centre, float turn_deg, std::string& error)
{
    const auto place = [&](int i) {
        const float angle = glm::radians(137.5f * static_cast<float>(i) + turn_deg);
        return centre + glm::vec3(0.4f * std::cos(angle), 0.6f + 0.7f * static_cast<float>(i),
                                  0.4f * std::sin(angle));
    };
    const auto turned = [&](float x, float y, float z) { return glm::vec3(x, y + turn_deg, z); };
    add(scene, preset_body(PresetId::bunny, place(0), turned(0.0f, 0.0f, 0.0f), 5.0e5f), error);
    add(scene, preset_body(PresetId::cube, place(1), turned(20.0f, 10.0f, 15.0f), 2.0e5f), error);
    add(scene, preset_body(PresetId::torus, place(2), turned(15.0f, 0.0f, 0.0f), 1.0e5f), error);
    BodyDesc bar = box_body("bar", {0.9f, 0.2f, 0.2f}, {9, 2, 2}, place(3), 4.0e5f);
    bar.rotation_deg = turned(0.0f, 30.0f, 10.0f);
    scene.bodies.push_back(bar);
    // A stiff cube and a soft torus next to their softer and stiffer kin.
    add(scene, preset_body(PresetId::cube, place(4), turned(-10.0f, 40.0f, 30.0f), 1.0e6f), error);
    add(scene, preset_body(PresetId::torus, place(5), turned(-25.0f, 60.0f, 10.0f), 5.0e4f),
        error);
    BodyDesc slab = box_body("slab", {0.5f, 0.15f, 0.5f}, {5, 2, 5}, place(6), 1.5e5f);
    slab.rotation_deg = turned(12.0f, 0.0f, -8.0f);
    scene.bodies.push_back(slab);
    add(scene, preset_body(PresetId::cube, place(7), turned(45.0f, 0.0f, 35.0f), 3.0e5f), error);
}

// Four walls 0.7 m high around `centre`, 1.8 m apart inside: the heap stays a heap
// instead of bodies bouncing off across the floor.
void add_bin(WorldDesc& scene, glm::vec3 centre)
{
    const float inner = 0.9f;
    const float thickness = 0.05f;
    const float height = 0.7f;
    for (int axis : {0, 2}) {
        for (float side : {-1.0f, 1.0f}) {
            Obstacle wall;
            wall.shape = ObstacleShape::box;
            wall.a = centre + glm::vec3(0.0f, 0.5f * height, 0.0f);
            wall.a[axis] += side * (inner + thickness);
            wall.b = glm::vec3(inner + 2.0f * thickness, 0.5f * height, inner + 2.0f * thickness);
            wall.b[axis] = thickness;
            scene.obstacles.push_back(wall);
        }
    }
}

WorldDesc pile(std::string& error)
{
    WorldDesc scene;
    scene.name = "pile";
    add_heap(scene, glm::vec3(0.0f), 0.0f, error);
    add_bin(scene, glm::vec3(0.0f));
    return scene;
}

// Six heaps in their bins, 2.5 m apart.
WorldDesc pile_large(std::string& error)
{
    WorldDesc scene;
    scene.name = "pile-large";
    for (int i = 0; i < 6; ++i) {
        const glm::vec3 centre(2.5f * static_cast<float>(i % 3 - 1), 0.0f,
                               2.5f * (static_cast<float>(i / 3) - 0.5f));
        add_heap(scene, centre, 53.0f * static_cast<float>(i), error);
        add_bin(scene, centre);
    }
    return scene;
}

WorldDesc stack()
{
    WorldDesc scene;
    scene.name = "stack";
    const float side = 0.4f;
    for (int i = 0; i < 3; ++i) {
        // 5 mm apart: they settle onto each other without a drop.
        const float y = 0.5f * side + static_cast<float>(i) * (side + 0.005f) + 0.002f;
        scene.bodies.push_back(box_body("cube", glm::vec3(side), glm::ivec3(5), {0.0f, y, 0.0f},
                                        3.0e5f));
    }
    return scene;
}

WorldDesc collide(std::string& error)
{
    WorldDesc scene;
    scene.name = "collide";
    scene.gravity_m_s2 = glm::vec3(0.0f);
    scene.ground = false;
    Result<BodyDesc> cube = preset_body(PresetId::cube, {-0.7f, 0.8f, 0.0f}, {0.0f, 20.0f, 10.0f},
                                        2.0e5f);
    Result<BodyDesc> torus = preset_body(PresetId::torus, {0.7f, 0.85f, 0.05f},
                                         {80.0f, 0.0f, 0.0f}, 1.0e5f);
    if (cube) cube.value().velocity_m_s = {3.0f, 0.0f, 0.0f};
    if (torus) torus.value().velocity_m_s = {-3.0f, 0.0f, 0.0f};
    if (torus) torus.value().angular_velocity_rad_s = {0.0f, 0.0f, 2.0f};
    add(scene, std::move(cube), error);
    add(scene, std::move(torus), error);
    return scene;
}

WorldDesc beam_hit(std::string& error)
{
    WorldDesc scene;
    scene.name = "beam-hit";
    add(scene, preset_body(PresetId::beam, {0.0f, 1.2f, 0.0f}, glm::vec3(0.0f), 1.0e6f), error);
    // Above the free end, falling.
    add(scene, preset_body(PresetId::bunny, {0.35f, 2.2f, 0.0f}, {0.0f, -90.0f, 0.0f}, 3.0e5f),
        error);
    return scene;
}

WorldDesc post(std::string& error)
{
    WorldDesc scene;
    scene.name = "post";
    Obstacle pole;
    pole.shape = ObstacleShape::capsule;
    pole.a = {0.0f, 0.0f, 0.0f};
    pole.b = {0.0f, 0.7f, 0.0f};
    pole.radius_m = 0.07f;
    scene.obstacles.push_back(pole);
    Obstacle ball;
    ball.shape = ObstacleShape::sphere;
    ball.a = {0.9f, 0.25f, 0.3f};
    ball.radius_m = 0.25f;
    scene.obstacles.push_back(ball);
    Obstacle block;
    block.shape = ObstacleShape::box;
    block.a = {-0.9f, 0.15f, -0.2f};
    block.b = {0.35f, 0.15f, 0.35f};
    scene.obstacles.push_back(block);
    // Flat, centred over the post, a little off so that it catches.
    add(scene, preset_body(PresetId::torus, {0.03f, 1.3f, 0.0f}, {6.0f, 0.0f, 0.0f}, 1.0e5f),
        error);
    add(scene, preset_body(PresetId::cube, {0.85f, 1.1f, 0.25f}, {10.0f, 20.0f, 0.0f}, 2.0e5f),
        error);
    add(scene, preset_body(PresetId::cube, {-0.9f, 1.0f, -0.2f}, {0.0f, 30.0f, 0.0f}, 2.0e5f),
        error);
    return scene;
}

}  // namespace

const std::vector<SceneInfo>& builtin_scenes()
{
    static const std::vector<SceneInfo> scenes = {
        {"pile", "8 bodies of every kind and stiffness dropped into a bin, 13.8k tets"},
        {"stack", "three jelly cubes stacked"},
        {"collide", "a cube and a spinning torus flying at each other, no gravity"},
        {"beam-hit", "the bunny dropped on the cantilever's free end"},
        {"post", "a torus dropped over a post, cubes on a ball and a block"},
        {"pile-large", "six piles in six bins: 48 bodies, 83k tets"},
    };
    return scenes;
}

bool is_builtin_scene(std::string_view name)
{
    for (const SceneInfo& s : builtin_scenes()) {
        if (name == s.name) return true;
    }
    return preset_from_name(name).has_value();
}

std::string builtin_scene_names()
{
    std::string names;
    for (const SceneInfo& s : builtin_scenes()) {
        names += (names.empty() ? "" : ", ") + std::string(s.name);
    }
    for (const Preset& p : all_presets()) {
        names += std::string(", ") + p.name;
    }
    return names;
}

WorldDesc single_preset_scene(PresetId id, TetMeshDesc placed_mesh)
{
    WorldDesc scene;
    scene.name = preset_info(id).name;
    BodyDesc body;
    body.mesh = std::move(placed_mesh);
    body.preset = id;
    scene.bodies.push_back(std::move(body));
    return scene;
}

Result<WorldDesc> make_builtin_scene(std::string_view name)
{
    if (const std::optional<PresetId> id = preset_from_name(name)) {
        Result<TetMeshDesc> mesh = make_preset_mesh(*id);
        if (!mesh) {
            return Result<WorldDesc>::failure(mesh.error());
        }
        return single_preset_scene(*id, std::move(mesh).value());
    }
    std::string error;
    WorldDesc scene;
    if (name == "pile") {
        scene = pile(error);
    } else if (name == "pile-large") {
        scene = pile_large(error);
    } else if (name == "stack") {
        scene = stack();
    } else if (name == "collide") {
        scene = collide(error);
    } else if (name == "beam-hit") {
        scene = beam_hit(error);
    } else if (name == "post") {
        scene = post(error);
    } else {
        return Result<WorldDesc>::failure("unknown scene '" + std::string(name) +
                                          "': expected a scene file (.json) or one of " +
                                          builtin_scene_names());
    }
    if (!error.empty()) {
        return Result<WorldDesc>::failure("scene '" + std::string(name) + "': " + error);
    }
    return scene;
}
