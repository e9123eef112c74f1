// Whole scenes with contact on the CPU solver: the built-in stack and pile
// run for seconds, and bodies dropped on the three kinds of obstacle.
#include "contact_worlds.h"
#include "test_support.h"

#include "core/scenes.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

using namespace contact_worlds;

namespace {

std::shared_ptr<const World> builtin_world(const char* name)
{
    Result<WorldDesc> desc = make_builtin_scene(name);
    EXPECT_TRUE(desc.ok()) << desc.error();
    return desc.ok() ? assembled(desc.value()) : nullptr;
}

// A world of one body and one obstacle, run for 3 s; deepest_m is the
// deepest any vertex went into the obstacle over the run.
struct ObstacleRun {
    std::shared_ptr<const World> world;
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> velocities;
    float deepest_m = 0.0f;
};

ObstacleRun run_with_obstacle(const BodyDesc& body, const Obstacle& obstacle)
{
    WorldDesc desc;
    desc.name = obstacle_shape_name(obstacle.shape);
    desc.bodies.push_back(body);
    desc.obstacles.push_back(obstacle);
    ObstacleRun run;
    run.world = assembled(desc);
    if (!run.world) return run;
    CpuSolver solver;
    solver.load(run.world);
    const SimParams params = world_params(*run.world);
    for (int f = 0; f < 180; ++f) {
        solver.step_frame(params);
        run.deepest_m =
            std::max(run.deepest_m, deepest_in_obstacles(*run.world, solver.positions()));
    }
    run.positions = solver.positions();
    run.velocities = solver.velocities();
    return run;
}

}  // namespace

// The built-in stack run for 10 s, once for the two tests below. Dropped
// onto each other from rest, the cubes ring: the stack's quarter-wave mode,
// c / 4L = sqrt(E / rho) / (4 x 1.2 m) = 3.6 Hz, measured 3.7 Hz, at about
// +-1.3 mm at 5 s (the top cube) and +-0.14 mm at 10 s, damped only by the
// air and the iterations. So the level a cube rests at is its centroid's
// height averaged over a second (3.7 periods): `level_m` holds it for each
// second from 5 s to 10 s, `ring_m` the top-to-bottom swing within each.
struct StackRun {
    std::vector<BodyStats> settled;           // at 5 s
    std::vector<BodyStats> end;               // at 10 s
    std::vector<std::vector<double>> level_m;  // per cube, per second from 5 s
    std::vector<std::vector<double>> ring_m;
    double deepest_m = 0.0;
    float fastest_m_s = 0.0f;                  // at 10 s
};

const StackRun& stack_run()
{
    static const StackRun run = [] {
        StackRun r;
        const std::shared_ptr<const World> world = builtin_world("stack");
        if (!world) return r;
        CpuSolver solver;
        solver.load(world);
        const SimParams params = world_params(*world);
        const auto start = std::chrono::steady_clock::now();
        run_frames(solver, params, 300);
        r.settled = compute_body_stats(*world, solver.positions());
        const size_t cubes = world->body_count();
        r.level_m.assign(cubes, std::vector<double>(5, 0.0));
        r.ring_m.assign(cubes, std::vector<double>(5, 0.0));
        for (int second = 0; second < 5; ++second) {
            std::vector<double> lowest(cubes, 1e9);
            std::vector<double> highest(cubes, -1e9);
            for (int f = 0; f < 60; ++f) {
                solver.step_frame(params);
                const std::vector<BodyStats> now = compute_body_stats(*world, solver.positions());
                for (size_t b = 0; b < cubes; ++b) {
                    const double y = now[b].centroid_m.y;
                    r.level_m[b][second] += y / 60.0;
                    lowest[b] = std::min(lowest[b], y);
                    highest[b] = std::max(highest[b], y);
                }
            }
            for (size_t b = 0; b < cubes; ++b) r.ring_m[b][second] = highest[b] - lowest[b];
        }
        r.end = compute_body_stats(*world, solver.positions());
        r.deepest_m = deepest_penetration_m(*world, solver.positions());
        r.fastest_m_s = max_speed(solver.velocities());
        std::printf("stack: %.1f s for 10 s; fastest vertex at 10 s %.4f m/s\n",
                    seconds_since(start), r.fastest_m_s);
        for (size_t b = 0; b < r.end.size(); ++b) {
            std::printf("  cube %zu: centroid at 5 s (%.4f, %.4f, %.4f) m, at 10 s (%.4f, %.4f, "
                        "%.4f) m; level over 5-6 s %.5f m, 9-10 s %.5f m; ring %.2e m, %.2e m\n",
                        b, r.settled[b].centroid_m.x, r.settled[b].centroid_m.y,
                        r.settled[b].centroid_m.z, r.end[b].centroid_m.x, r.end[b].centroid_m.y,
                        r.end[b].centroid_m.z, r.level_m[b][0], r.level_m[b][4], r.ring_m[b][0],
                        r.ring_m[b][4]);
        }
        return r;
    }();
    return run;
}

TEST(ContactScenes, StackRestsWithoutSinking)
{
    const StackRun& run = stack_run();
    ASSERT_EQ(run.end.size(), 3u);
    for (size_t b = 0; b < 3; ++b) {
        // Measured: levels within 0.1 mm of the first second's, the ring
        // 0.07-0.27 mm over the last second.
        for (size_t second = 1; second < 5; ++second) {
            EXPECT_LT(run.level_m[b][0] - run.level_m[b][second], 1e-3)
                << "cube " << b << " sank by second " << 5 + second;
        }
        EXPECT_LT(run.ring_m[b][4], 1e-3) << "cube " << b << " still rings";
    }
    // Measured 0.002 m/s; 0.05 m/s while each vertex took the mean of its
    // contacts (docs/algorithm.md, 5).
    EXPECT_LT(run.fastest_m_s, 0.01f) << "the stack comes to rest";
    EXPECT_LE(run.deepest_m, 1e-3);
}

TEST(ContactScenes, StackDoesNotWalkAlongTheGround)
{
    const StackRun& run = stack_run();
    ASSERT_EQ(run.end.size(), 3u);
    // Between 5 s and 10 s, measured: the bottom cube 0.2 mm along the
    // ground, the cubes above 3.3 and 5.5 mm (the upper ones slide on the
    // ones below at 0.3-0.6 mm/s: static friction stops their velocity
    // after each substep but keeps the slide the iterations made; 1.6 and
    // 3.1 mm before the material damping, which stills the stack's ringing
    // but shares a little velocity back into the contact vertices after
    // friction). While each vertex took the mean of its contacts, which does
    // not keep momentum, the three crept together along one diagonal: 17.5,
    // 8.1 and 5.1 mm.
    for (size_t b = 0; b < 3; ++b) {
        const glm::vec3 moved = run.end[b].centroid_m - run.settled[b].centroid_m;
        EXPECT_LT(glm::length(glm::vec2(moved.x, moved.z)), b == 0 ? 1e-3f : 8e-3f)
            << "cube " << b << " stays put";
    }
}

TEST(ContactScenes, PileSettlesWithoutNanInversionOrDeepOverlap)
{
    const std::shared_ptr<const World> world = builtin_world("pile");
    ASSERT_TRUE(world);
    CpuSolver solver;
    solver.set_threads(2);
    solver.load(world);
    const SimParams params = world_params(*world);
    const auto start = std::chrono::steady_clock::now();
    run_frames(solver, params, 600);  // 10 s
    const double seconds = seconds_since(start);
    const SimStats stats = compute_stats(solver.mesh(), solver.positions(), solver.velocities());
    const PenetrationReport overlap =
        measure_penetration(*world->mesh, world->vertex_body, solver.positions());
    std::printf("pile, %zu tets, %d threads: %.1f s for 10 s (%.1f ms a frame); NaN %zu, "
                "inverted %zu, lowest y %.2e m, deepest penetration %.3g m between bodies, "
                "%.3g m in all (%zu vertices inside), fastest vertex %.3f m/s\n",
                world->mesh->tet_count(), solver.threads_in_use(), seconds,
                1000.0 * seconds / 600.0, stats.nan_count, stats.inverted_tets, stats.min_y_m,
                overlap.max_depth_between_bodies_m, overlap.max_depth_m, overlap.vertices_inside,
                stats.max_speed_m_s);
    EXPECT_EQ(stats.nan_count, 0u);
    EXPECT_EQ(stats.inverted_tets, 0u);
    // Measured at the end (the same on every kernel and thread count):
    // nothing inside anything. The heap is chaotic: with gravity changed by
    // -4e-4, -2e-4, 2e-4 and 4e-4 m/s^2 the runs end with at most 1 mm
    // inside another body (the next test checks the one that chattered
    // before valleys were pushed). While each vertex took the mean of its contacts, 0 to 2.4 mm
    // inside another body and up to 17 mm inside their own, where the
    // bunny folded into itself near its own surface (self-contact leaves a
    // vertex's neighbourhood alone). Before deep pairs separated four times faster
    // than the thickness's pairs, the heap held a vertex of the bunny 21.6
    // mm inside the soft torus here (2.1 to 8.3 mm in the other runs).
    EXPECT_LE(overlap.max_depth_between_bodies_m, kContactThicknessM)
        << "no body inside another deeper than the contact thickness";
    EXPECT_LE(overlap.max_depth_m, 0.035) << "nothing driven through itself";
    EXPECT_GE(stats.min_y_m, -1e-4f) << "nothing below the ground";
}

TEST(ContactScenes, PileWithGravityNudgedComesToRestWithoutAChatteringCorner)
{
    // With gravity 2e-4 m/s^2 stronger, a corner of the last cube (3e5 Pa)
    // came to lie in a valley of the soft torus, behind two faces and beside
    // both, where no pair pushed it: let go by its deep pair a millimetre
    // inside, it was dragged back 12 mm by its tets every third frame and
    // chattered for good (up to 11.2 mm inside another body from 9 s to 10
    // s, 0.33 m/s at 10 s). Measured since valleys are pushed
    // (cm_vertex_in_valley_contact): at most 0.9 mm inside from 9 s to 10 s,
    // the fastest vertex at 0.030 m/s at 10 s.
    //
    // A heap at rest still has a body slide or settle now and then: with
    // gravity changed by 0, -2e-4, 2e-4, -4e-4 and 4e-4 m/s^2, the fastest
    // vertex, sampled each second from 5 s to 15 s, was above 0.1 m/s in 10
    // of the 55 samples (up to 1.3 m/s, for 1 to 3 s at a time, nothing
    // deeper than the thickness inside another body from 9 s on), with the
    // colours rounded to whole SIMD blocks and before them alike; one such
    // episode fell on 10 s at 4e-4 before them, and on 8-10 s at -2e-4 with
    // them. So the heap is at rest when its fastest vertex's median over
    // the last of 12 s is below 0.1 m/s; the chatter, at 0.33 m/s for good,
    // fails that and the depth, deeper than the contact thickness in every
    // third frame. A slide's contact can pass the thickness for a frame: with
    // the SIMD kernels' fused multiply-adds this run went 4.4 mm deep in one
    // frame at 11 s (every frame from 9 s to 12 s, five gravity nudges each
    // with and without them: that one frame deeper than 4 mm, all others
    // 2.1 mm at most), so the depth counts frames.
    const std::shared_ptr<const World> world = builtin_world("pile");
    ASSERT_TRUE(world);
    CpuSolver solver;
    solver.set_threads(2);
    solver.load(world);
    SimParams params = world_params(*world);
    params.gravity_m_s2.y -= 2.0e-4f;
    run_frames(solver, params, 540);
    double deepest_m = 0.0;
    int frames_past_thickness = 0;
    std::vector<float> fastest_m_s;
    for (int frame = 0; frame < 180; ++frame) {
        solver.step_frame(params);
        const double depth_m =
            measure_penetration(*world->mesh, world->vertex_body, solver.positions())
                .max_depth_between_bodies_m;
        deepest_m = std::max(deepest_m, depth_m);
        frames_past_thickness += depth_m > kContactThicknessM;
        if (frame >= 120) {
            fastest_m_s.push_back(
                compute_stats(solver.mesh(), solver.positions(), solver.velocities())
                    .max_speed_m_s);
        }
    }
    std::sort(fastest_m_s.begin(), fastest_m_s.end());
    const float median_m_s = fastest_m_s[fastest_m_s.size() / 2];
    std::printf("pile, gravity nudged by -2e-4 m/s^2: deepest inside another body from 9 s to "
                "12 s %.3g m, deeper than the contact thickness in %d of 180 frames; fastest "
                "vertex from 11 s to 12 s: median %.3f m/s, at most %.3f m/s\n",
                deepest_m, frames_past_thickness, median_m_s, fastest_m_s.back());
    EXPECT_LE(frames_past_thickness, 5) << "no corner chattering in and out";
    EXPECT_LT(median_m_s, 0.1f) << "the heap at rest";
}

TEST(ContactScenes, PileRunsTheSameOnOneThreadAndOnTwo)
{
    // The pile's 3,619 vertices in a bin of four walls are enough work that
    // the passes over the vertices (prediction, the static projection after
    // every iteration, the velocities) are shared out too, and the search
    // builds its two tables side by side; none of it may change a bit.
    // Jacobi shares out its gathering of the tets' corrections as well.
    const std::shared_ptr<const World> world = builtin_world("pile");
    ASSERT_TRUE(world);
    for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi}) {
        SimParams params = world_params(*world);
        params.method = method;
        // Gauss-Seidel runs into the first landings (the lowest bodies meet
        // the floor and each other from about frame 20); Jacobi, slower,
        // only the fall.
        const int frames = method == SolverMethod::gauss_seidel ? 60 : 15;
        const auto run = [&](int threads) {
            CpuSolver solver;
            solver.set_threads(threads);
            solver.load(world);
            EXPECT_EQ(solver.threads_in_use(), threads);
            run_frames(solver, params, frames);
            if (method == SolverMethod::gauss_seidel) {
                EXPECT_GT(solver.body_contacts().candidate_count(), 0u) << "bodies in contact";
            }
            return std::make_pair(solver.positions(), solver.velocities());
        };
        const auto one = run(1);
        const auto two = run(2);
        const size_t bytes = one.first.size() * sizeof(glm::vec3);
        EXPECT_EQ(std::memcmp(one.first.data(), two.first.data(), bytes), 0)
            << "positions, " << solver_method_name(method);
        EXPECT_EQ(std::memcmp(one.second.data(), two.second.data(), bytes), 0)
            << "velocities, " << solver_method_name(method);
    }
}

TEST(ContactScenes, CubeDroppedOnABlockRestsOnTop)
{
    Obstacle block;
    block.shape = ObstacleShape::box;
    block.a = {0.0f, 0.2f, 0.0f};
    block.b = {0.3f, 0.2f, 0.3f};
    const float top = block.a.y + block.b.y;
    const ObstacleRun run =
        run_with_obstacle(lattice_cube(0.3f, 4, {0.0f, top + 0.2f, 0.0f}), block);
    ASSERT_TRUE(run.world);
    const SimStats s = compute_stats(*run.world->mesh, run.positions, run.velocities);
    std::printf("cube on a block: lowest y %.5f m (top %.2f m), centroid (%.4f, %.4f, %.4f) m, "
                "fastest vertex %.4f m/s; deepest in the block over 3 s %.2e m\n",
                s.min_y_m, top, s.centroid_m.x, s.centroid_m.y, s.centroid_m.z,
                s.max_speed_m_s, run.deepest_m);
    EXPECT_LE(run.deepest_m, 1e-3f);
    EXPECT_GE(s.min_y_m, top - 1e-3f) << "on the block, not in it or beside it";
    EXPECT_LT(s.min_y_m, top + 1e-3f) << "resting on it";
    EXPECT_LT(s.max_speed_m_s, 0.05f);
}

TEST(ContactScenes, CubeDroppedOnABallLandsOnItWithoutEnteringIt)
{
    Obstacle ball;
    ball.shape = ObstacleShape::sphere;
    ball.a = {0.0f, 0.4f, 0.0f};
    ball.radius_m = 0.2f;
    const float top = ball.a.y + ball.radius_m;
    const ObstacleRun run =
        run_with_obstacle(lattice_cube(0.3f, 4, {0.0f, top + 0.2f, 0.0f}), ball);
    ASSERT_TRUE(run.world);
    const SimStats s = compute_stats(*run.world->mesh, run.positions, run.velocities);
    const float off_centre =
        glm::length(glm::vec2(s.centroid_m.x - ball.a.x, s.centroid_m.z - ball.a.z));
    std::printf("cube on a ball: lowest y %.4f m (top %.2f m), centroid %.3f m off the ball's "
                "centre line at y %.3f m, fastest vertex %.3f m/s; deepest in the ball over 3 s "
                "%.2e m\n",
                s.min_y_m, top, off_centre, s.centroid_m.y, s.max_speed_m_s, run.deepest_m);
    EXPECT_LE(run.deepest_m, 1e-3f);
    // It does not stay there: the cube slides off the ball within 2 s and
    // ends on the ground (measured: centroid 1.4-1.9 m away at 3 s); a ball
    // of radius 3 m holds it. Friction with obstacles acts on the velocity
    // only, while the push out of a curved surface of a vertex that gravity
    // moved straight down also moves it downhill (README, "Not done yet").
    // What holds is that it never enters the ball (above) and lands beside it.
    EXPECT_GE(s.min_y_m, -1e-4f) << "on the ground, not in it";
}

TEST(ContactScenes, TorusDroppedOverAPostEndsAroundIt)
{
    // The post scene's torus, 0.18 m off the post's axis: its tube lands on
    // the post's cap and must slide off it inward, the post into the hole
    // (inner radius 0.2 m). Without the post it would land 0.18-0.2 m off
    // the axis; around it, the centre is within 0.2 - 0.07 m of it, and a
    // centimetre more where the tube presses into itself against the post
    // (measured 0.132 m, the torus leaning on the post at rest).
    Obstacle post;
    post.shape = ObstacleShape::capsule;
    post.a = {0.0f, 0.0f, 0.0f};
    post.b = {0.0f, 0.7f, 0.0f};
    post.radius_m = 0.07f;
    Result<TetMeshDesc> torus = make_preset_mesh(PresetId::torus, PresetPose::upright);
    ASSERT_TRUE(torus.ok()) << torus.error();
    BodyDesc ring;
    ring.mesh = torus.value();
    ring.preset = PresetId::torus;
    ring.position_m = glm::vec3(0.18f, 1.3f, 0.0f);
    ring.rotation_deg = {6.0f, 0.0f, 0.0f};
    ring.material = BodyMaterial{1.0e5f, 0.3f, 1000.0f};
    const ObstacleRun run = run_with_obstacle(ring, post);
    ASSERT_TRUE(run.world);
    const SimStats s = compute_stats(*run.world->mesh, run.positions, run.velocities);
    const float off_axis = glm::length(glm::vec2(s.centroid_m.x, s.centroid_m.z));
    std::printf("torus over a post: centroid %.3f m off the axis, lowest y %.4f m; deepest in "
                "the post over 3 s %.2e m\n",
                off_axis, s.min_y_m, run.deepest_m);
    EXPECT_LE(run.deepest_m, 1e-3f);
    EXPECT_LT(off_axis, 0.2f - post.radius_m + 0.01f) << "around the post";
    EXPECT_LT(s.min_y_m, 0.01f) << "down on the ground, not hanging on the post";
}
