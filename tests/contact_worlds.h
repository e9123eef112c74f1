// Small worlds of lattice bodies for the contact tests, and the figures
// they assert on. Shared by the CPU tests (test_body_contact.cpp,
// test_contact_scenes.cpp) and the GPU ones (gl/test_gpu_contact.cpp), so
// that both solvers are checked on the same worlds.
#pragma once

#include "core/body_contacts.h"
#include "core/body_materials.h"
#include "core/contact_math.h"
#include "core/lattice.h"
#include "core/penetration.h"
#include "core/sim_stats.h"
#include "core/solver.h"
#include "core/world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

namespace contact_worlds {

// Stiff enough that a 0.3 m cube under its own weight squashes by well under
// a centimetre, soft enough that an impact visibly deforms it.
inline constexpr float kJellyYoungsPa = 2.0e5f;

// An axis-aligned lattice box centred on `centre_m`.
inline BodyDesc lattice_box(const char* name, glm::vec3 size_m, glm::ivec3 cells,
                            glm::vec3 centre_m, float youngs_pa = kJellyYoungsPa)
{
    BodyDesc body;
    body.mesh = box_lattice(cells, -0.5f * size_m, size_m);
    body.mesh.name = name;
    body.position_m = centre_m;
    body.material = BodyMaterial{youngs_pa, 0.3f, 1000.0f};
    return body;
}

inline BodyDesc lattice_cube(float side_m, int cells, glm::vec3 centre_m,
                             float youngs_pa = kJellyYoungsPa)
{
    return lattice_box("cube", glm::vec3(side_m), glm::ivec3(cells), centre_m, youngs_pa);
}

inline std::shared_ptr<const World> assembled(const WorldDesc& desc)
{
    Result<World> world = assemble_world(desc);
    EXPECT_TRUE(world.ok()) << world.error();
    return world.ok() ? std::make_shared<const World>(std::move(world).value()) : nullptr;
}

// The parameters a world is run with: the defaults, then what the world
// itself sets (gravity, ground, each body's material), as the program does.
inline SimParams world_params(const World& world)
{
    SimParams params;
    apply_world_settings(world, params);
    return params;
}

// An empty world without gravity or ground, for bodies placed in it.
inline WorldDesc weightless_world(const char* name)
{
    WorldDesc desc;
    desc.name = name;
    desc.gravity_m_s2 = glm::vec3(0.0f);
    desc.ground = false;
    return desc;
}

// Two 0.3 m cubes of `cells` per side: the lower one resting on the ground
// (centre y = 0.15 m), the upper one 5 cm above it, both on the same axis.
inline constexpr float kStackedCubeSideM = 0.3f;
inline constexpr float kStackedCubeGapM = 0.05f;

inline WorldDesc cube_dropped_on_cube(int cells)
{
    WorldDesc desc;
    desc.name = "cube on cube";
    const float side = kStackedCubeSideM;
    desc.bodies.push_back(lattice_cube(side, cells, {0.0f, 0.5f * side, 0.0f}));
    desc.bodies.push_back(lattice_cube(side, cells, {0.0f, 1.5f * side + kStackedCubeGapM, 0.0f}));
    return desc;
}

// Three 0.3 m cubes of `cells` a side overlapping each other and a fourth
// far from them, weightless: some surface vertices of each lie inside
// another's tets.
inline WorldDesc overlapping_cubes(int cells = 3)
{
    WorldDesc desc = weightless_world("overlapping cubes");
    desc.bodies.push_back(lattice_cube(0.3f, cells, {0.0f, 1.0f, 0.0f}));
    desc.bodies.push_back(lattice_cube(0.3f, cells, {0.2f, 1.05f, 0.03f}));
    desc.bodies.push_back(lattice_cube(0.3f, cells, {0.1f, 1.2f, 0.15f}));
    desc.bodies.push_back(lattice_cube(0.3f, cells, {3.0f, 1.0f, 0.0f}));
    return desc;
}

// A 0.06 m cube placed wholly inside a 0.6 m block, gravity and ground off.
// The block's +x face, 10 to 16 cm from the cube, is its nearest way out,
// beyond the search radius: no triangle is near enough to push it out, only
// the test of vertices inside other bodies' tets finds it. Off the block's
// lattice planes, so that no vertex lies on a face between two of its tets.
inline constexpr float kBlockSideM = 0.6f;
inline constexpr float kCubeInBlockSideM = 0.06f;
inline constexpr glm::vec3 kCubeInBlockCentreM{0.165f, 1.013f, 0.011f};

inline WorldDesc cube_inside_block()
{
    WorldDesc desc = weightless_world("cube inside a block");
    desc.bodies.push_back(lattice_cube(kBlockSideM, 6, {0.0f, 1.0f, 0.0f}));
    desc.bodies.push_back(lattice_cube(kCubeInBlockSideM, 2, kCubeInBlockCentreM));
    return desc;
}

inline double deepest_penetration_m(const World& world, const std::vector<glm::vec3>& positions)
{
    return measure_penetration(*world.mesh, world.vertex_body, positions).max_depth_m;
}

inline std::vector<glm::vec3> positions_now(const Solver& solver)
{
    std::vector<glm::vec3> p;
    solver.read_positions(p);
    return p;
}

inline std::vector<glm::vec3> velocities_now(const Solver& solver)
{
    std::vector<glm::vec3> v;
    solver.read_velocities(v);
    return v;
}

inline float body_max_y(const World& world, const std::vector<glm::vec3>& positions, size_t b)
{
    const WorldBody& body = world.bodies[b];
    float highest = -INFINITY;
    for (uint32_t v = body.first_vertex; v < body.first_vertex + body.vertex_count; ++v) {
        highest = std::max(highest, positions[v].y);
    }
    return highest;
}

// Mass-weighted mean velocity of one body (every body here has one density).
inline glm::dvec3 body_velocity(const World& world, const std::vector<glm::vec3>& velocities,
                                size_t b)
{
    const WorldBody& body = world.bodies[b];
    glm::dvec3 weighted(0.0);
    double total = 0.0;
    for (uint32_t v = body.first_vertex; v < body.first_vertex + body.vertex_count; ++v) {
        weighted += glm::dvec3(velocities[v]) * double(world.mesh->lumped_volumes_m3[v]);
        total += world.mesh->lumped_volumes_m3[v];
    }
    return weighted / total;
}

// The deepest any vertex lies inside any obstacle (0 when none is inside),
// by the solvers' own signed distance.
inline float deepest_in_obstacles(const World& world, const std::vector<glm::vec3>& positions)
{
    float deepest = 0.0f;
    for (const Obstacle& o : world.obstacles) {
        const glm::vec4 a_radius(o.a, o.radius_m);
        const glm::vec4 b_shape(o.b, static_cast<float>(o.shape));
        for (const glm::vec3& p : positions) {
            glm::vec3 normal;
            deepest = std::max(deepest,
                               -contact_math::cm_obstacle_distance(p, a_radius, b_shape, normal));
        }
    }
    return deepest;
}

inline float max_speed(const std::vector<glm::vec3>& velocities)
{
    float fastest = 0.0f;
    for (const glm::vec3& v : velocities) fastest = std::max(fastest, glm::length(v));
    return fastest;
}

inline double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace contact_worlds
