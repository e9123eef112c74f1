// Grab scenarios run on both solvers (tests/test_grab.cpp for the CPU,
// tests/gl/test_gpu_grab.cpp for the GPU): they drive Solver::set_grab
// through DragScript, exactly as --drag does.
#pragma once

#include "test_support.h"

#include "app/drag_script.h"

#include <algorithm>

namespace grab_scenarios {

inline uint32_t highest_vertex(const std::vector<glm::vec3>& positions)
{
    return static_cast<uint32_t>(
        std::max_element(positions.begin(), positions.end(),
                         [](const glm::vec3& a, const glm::vec3& b) { return a.y < b.y; }) -
        positions.begin());
}

inline SimStats stats_of(const Solver& solver)
{
    std::vector<glm::vec3> p;
    std::vector<glm::vec3> v;
    solver.read_positions(p);
    solver.read_velocities(v);
    return compute_stats(solver.mesh(), p, v);
}

inline void run_with_drags(Solver& solver, DragScript& script, const SimParams& params,
                           int first_frame, int frames)
{
    for (int f = first_frame; f < first_frame + frames; ++f) {
        script.before_frame(f, solver);
        solver.step_frame(params);
    }
}

// Grab the top of the cube, lift it 0.5 m over 60 frames: the centroid
// rises. Release: it falls back and comes to rest on the ground.
inline void lift_and_release(Solver& solver)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    solver.load(mesh);
    SimParams params;
    params.youngs_modulus_pa = preset_info(PresetId::cube).suggested_youngs_pa;
    const uint32_t top = highest_vertex(mesh->rest_positions);
    const float centroid_before = stats_of(solver).centroid_m.y;
    DragScript script({DragSpec{0, 60, top, glm::vec3(0.0f, 0.5f, 0.0f)}}, kDefaultGrabStiffness);
    run_with_drags(solver, script, params, 0, 60);
    const SimStats lifted = stats_of(solver);
    std::printf("%s: centroid y %.3f m -> %.3f m lifted, grabbed vertex at y %.3f m "
                "(target %.3f m)\n",
                solver.name(), centroid_before, lifted.centroid_m.y,
                solver.read_position(top).y, mesh->rest_positions[top].y + 0.5f);
    EXPECT_GT(lifted.centroid_m.y, centroid_before + 0.1f) << solver.name();
    EXPECT_EQ(lifted.nan_count, 0u);
    EXPECT_NEAR(solver.read_position(top).y, mesh->rest_positions[top].y + 0.5f, 0.1f);

    run_with_drags(solver, script, params, 60, 300);  // released at frame 60; 5 s later
    const SimStats rested = stats_of(solver);
    std::printf("%s: after release min y %.4f m, max speed %.4f m/s, centroid speed %.4f m/s\n",
                solver.name(), rested.min_y_m, rested.max_speed_m_s, rested.centroid_speed_m_s);
    EXPECT_GE(rested.min_y_m, 0.0f);
    EXPECT_LT(rested.min_y_m, 1e-3f) << "back on the ground";
    // At rest, but for the jelly's quiver (measured: 0.043 m/s as a whole,
    // 0.10 m/s at the fastest vertex, 5 s after the release).
    EXPECT_LT(rested.centroid_speed_m_s, 0.1f) << "at rest";
    EXPECT_LT(rested.max_speed_m_s, 0.3f) << "at rest";
    EXPECT_EQ(rested.inverted_tets, 0u);
}

// A stiff cube yanked 2 m within 5 frames and let go: no NaN, nothing under
// the ground, no inverted tet 2 s later.
inline void yank(Solver& solver)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    solver.load(mesh);
    SimParams params;
    params.youngs_modulus_pa = 1.0e7f;
    const uint32_t top = highest_vertex(mesh->rest_positions);
    DragScript script({DragSpec{0, 5, top, glm::vec3(2.0f, 0.0f, 0.0f)}}, 1.0e6f);
    float lowest = INFINITY;
    for (int f = 0; f < 125; ++f) {
        script.before_frame(f, solver);
        solver.step_frame(params);
        if (f % 5 == 4) {
            const SimStats s = stats_of(solver);
            ASSERT_EQ(s.nan_count, 0u) << solver.name() << " frame " << f;
            lowest = std::min(lowest, s.min_y_m);
        }
    }
    const SimStats end = stats_of(solver);
    std::printf("%s: 2 s after the yank: %zu inverted tets, lowest y %.4f m\n", solver.name(),
                end.inverted_tets, lowest);
    EXPECT_EQ(end.nan_count, 0u);
    EXPECT_EQ(end.inverted_tets, 0u);
    EXPECT_GE(lowest, 0.0f);
}

// A drag far faster than a hand (50 m in 2 frames, 1,500 m/s) on a 100 Pa
// cube: the grabbed point follows at about the target's top speed, and 5 s
// later the body has stopped. Before the limit the vertex left at 2,000 m/s
// and was still at 27 m/s after 15 s.
inline void drag_faster_than_a_hand(Solver& solver)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    solver.load(mesh);
    SimParams params;
    params.youngs_modulus_pa = 100.0f;
    // The yank crushes the 100 Pa cube into a crumpled sheet a few
    // millimetres thick, whose folds self-contact keeps pushing apart: with
    // contact on, dragged by the mouse's patch, a vertex still moves at
    // about 1 m/s after 5 s (README, "Not done yet"). What this checks is
    // the grab's speed limit, on one vertex:
    // a patch drags far more of so soft a cube out, and the crumpled sheet
    // it leaves reached 38 m/s a second after the release (README).
    params.body_contact = false;
    const uint32_t top = highest_vertex(mesh->rest_positions);
    DragScript script({DragSpec{0, 2, top, glm::vec3(50.0f, 0.0f, 0.0f)}}, kDefaultGrabStiffness,
                      0.0f);
    float fastest = 0.0f;
    for (int f = 0; f < 300; ++f) {
        script.before_frame(f, solver);
        solver.step_frame(params);
        fastest = std::max(fastest, stats_of(solver).max_speed_m_s);
    }
    const SimStats end = stats_of(solver);
    std::printf("%s: 50 m in 2 frames: fastest vertex %.2f m/s, 5 s later %.3g m/s\n",
                solver.name(), fastest, end.max_speed_m_s);
    EXPECT_EQ(end.nan_count, 0u);
    EXPECT_LT(fastest, kGrabMaxTargetSpeed_m_s) << "no vertex outruns the grab's top speed";
    EXPECT_LT(end.max_speed_m_s, 1.0f);
}

// The bunny of `youngs_pa`, landed (2 s), grabbed at its highest vertex and
// pulled to 0.5 m above where that vertex was over 1 s, the grab reaching
// `radius_fraction` of its size: how far its centroid rose.
inline float bunny_lift(Solver& solver, float youngs_pa, float radius_fraction)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::bunny);
    solver.load(mesh);
    SimParams params;
    params.youngs_modulus_pa = youngs_pa;
    DragScript none({}, kDefaultGrabStiffness);
    run_with_drags(solver, none, params, 0, 120);
    std::vector<glm::vec3> landed;
    solver.read_positions(landed);
    const uint32_t top = highest_vertex(landed);
    const float before = stats_of(solver).centroid_m.y;
    // --drag's offsets are from the rest position; this one from the landed.
    const glm::vec3 offset = landed[top] - mesh->rest_positions[top] + glm::vec3(0.0f, 0.5f, 0.0f);
    DragScript script({DragSpec{120, 180, top, offset}}, kDefaultGrabStiffness, radius_fraction);
    run_with_drags(solver, script, params, 120, 60);
    const SimStats lifted = stats_of(solver);
    EXPECT_EQ(lifted.nan_count, 0u);
    std::printf("%s: %.0e Pa bunny pulled 0.5 m by its top, reach %.0f%%: centroid rose %.3f m, "
                "the grabbed vertex %.3f m below its target\n",
                solver.name(), youngs_pa, 100.0f * radius_fraction, lifted.centroid_m.y - before,
                landed[top].y + 0.5f - solver.read_position(top).y);
    return lifted.centroid_m.y - before;
}

// Pulling the bunny by its top lifts it, the jelly one too: the grab holds a
// patch of surface, not one point (which drew the jelly's ear out and left
// the body on the ground: 0.03 m on the CPU). The stiff bunny's top is an
// ear tip: pulled from rest, its ear stretches about 0.4 m before the body
// leaves the ground (centroid 0.12 m up on the CPU; 0.47 when it was still
// bouncing at 2 s, before the wobble damping; a point grab lifts nothing).
inline void grab_lifts_the_bunny(Solver& solver)
{
    EXPECT_GE(bunny_lift(solver, 1.0e5f, kDefaultGrabRadiusFraction), 0.1f) << solver.name();
    EXPECT_GE(bunny_lift(solver, 2.0e4f, kDefaultGrabRadiusFraction), 0.2f) << solver.name();
    EXPECT_LT(bunny_lift(solver, 2.0e4f, 0.0f), 0.1f)
        << solver.name() << ": the scenario no longer tells a patch from a point";
}

// A pinned vertex of the beam, grabbed and pulled, stays exactly in place.
inline void pinned_vertex_stays(Solver& solver)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::beam);
    solver.load(mesh);
    uint32_t pinned = 0;
    while (!mesh->pinned[pinned]) ++pinned;
    DragScript script({DragSpec{0, 30, pinned, glm::vec3(0.3f, 0.5f, 0.2f)}}, 1.0e6f);
    run_with_drags(solver, script, SimParams(), 0, 20);
    const glm::vec3 p = solver.read_position(pinned);
    EXPECT_EQ(p.x, mesh->rest_positions[pinned].x);
    EXPECT_EQ(p.y, mesh->rest_positions[pinned].y);
    EXPECT_EQ(p.z, mesh->rest_positions[pinned].z);
}

// A ray through a chosen point of a chosen surface triangle hits it with
// the point's barycentric weights; a ray beside the body hits nothing.
inline void picking(Solver& solver)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::torus);
    solver.load(mesh);
    for (uint32_t f : {0u, 17u, static_cast<uint32_t>(mesh->surface_triangles.size() / 2)}) {
        const glm::uvec3 tri = mesh->surface_triangles[f];
        const glm::vec3 a = mesh->rest_positions[tri.x];
        const glm::vec3 b = mesh->rest_positions[tri.y];
        const glm::vec3 c = mesh->rest_positions[tri.z];
        const glm::vec3 weights(0.2f, 0.3f, 0.5f);
        const glm::vec3 point = weights.x * a + weights.y * b + weights.z * c;
        const glm::vec3 outward = glm::normalize(glm::cross(b - a, c - a));
        // From just outside the face, straight at it: nothing else is nearer.
        const Ray ray{point + 0.01f * outward, -outward};
        std::optional<SurfaceHit> hit = solver.pick(ray);
        ASSERT_TRUE(hit.has_value()) << solver.name() << " triangle " << f;
        EXPECT_EQ(hit->triangle, f) << solver.name();
        EXPECT_EQ(hit->vertices, tri);
        EXPECT_NEAR(hit->barycentric.x, weights.x, 1e-4f);
        EXPECT_NEAR(hit->barycentric.y, weights.y, 1e-4f);
        EXPECT_NEAR(hit->barycentric.z, weights.z, 1e-4f);
        EXPECT_NEAR(hit->distance_m, 0.01f, 1e-4f);
        EXPECT_LT(glm::length(hit->point_m - point), 1e-4f);
    }
    const Ray miss{glm::vec3(5.0f, 0.5f, 5.0f), glm::vec3(0.0f, 1.0f, 0.0f)};
    EXPECT_FALSE(solver.pick(miss).has_value()) << solver.name();
    // The hole of the torus: straight down through its middle.
    glm::vec3 centre(0.0f);
    for (const glm::vec3& p : mesh->rest_positions) centre += p;
    centre /= static_cast<float>(mesh->vertex_count());
    const Ray down_the_middle{glm::vec3(centre.x, 3.0f, centre.z), glm::vec3(0.0f, -1.0f, 0.0f)};
    EXPECT_FALSE(solver.pick(down_the_middle).has_value()) << solver.name() << ": torus hole";
}

}  // namespace grab_scenarios
