// The scene the window runs: presets, files, solver switches. A bad file
// never takes the running body away.
#include "gl_test_support.h"

#include "app/added_body.h"
#include "app/scene.h"
#include "core/bunny.h"
#include "core/sim_stats.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

using SceneTest = GlTest;

TEST_F(SceneTest, BadFilesLeaveTheRunningBodyAlone)
{
    Scene scene(ShaderLibrary(), true);
    ASSERT_TRUE(scene.load_preset(PresetId::torus).ok());
    scene.step_frame(SimParams());
    const size_t vertices = scene.mesh().vertex_count();

    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "softbody_scene_test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "garbage.obj") << "not a mesh at all\n";
    std::ofstream(dir / "empty.tet") << "";
    for (const std::string& path : {(dir / "missing.obj").string(), (dir / "garbage.obj").string(),
                                   (dir / "empty.tet").string(), dir.string()}) {
        Result<std::string> loaded = scene.load_file(path, kDefaultMeshResolution);
        EXPECT_FALSE(loaded.ok()) << path;
        EXPECT_NE(loaded.error().find(std::filesystem::path(path).filename().string()),
                  std::string::npos)
            << loaded.error();
        EXPECT_EQ(scene.preset(), PresetId::torus);
        EXPECT_EQ(scene.mesh().vertex_count(), vertices);
        scene.step_frame(SimParams());  // and it keeps running
    }
    std::filesystem::remove_all(dir);
}

TEST_F(SceneTest, LoadsTheBunnyFromItsObjAndSwitchesSolvers)
{
    Scene scene(ShaderLibrary(), true);
    Result<std::string> loaded = scene.load_file(asset_directory() + "/bunny.obj", 8);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_FALSE(scene.preset().has_value());
    EXPECT_GT(scene.mesh().tet_count(), 500u);
    // Placed above the ground, about 0.6 m long.
    EXPECT_GT(scene.initial_min().y, 0.0f);
    const glm::vec3 size = scene.initial_max() - scene.initial_min();
    EXPECT_NEAR(std::max({size.x, size.y, size.z}), 0.6f, 0.1f);
    scene.step_frame(SimParams());
    ASSERT_TRUE(scene.set_solver(SolverKind::cpu).ok());
    scene.step_frame(SimParams());
    ASSERT_TRUE(scene.set_solver(SolverKind::gpu).ok());
    scene.step_frame(SimParams());
    std::vector<glm::vec3> positions;
    scene.solver().read_positions(positions);
    EXPECT_EQ(compute_stats(scene.mesh(), positions, {}).nan_count, 0u);
}

TEST_F(SceneTest, TimesBothSolversOnTheWorldAndLeavesTheRunningOneAlone)
{
    Scene scene(ShaderLibrary(), true);
    ASSERT_TRUE(scene.load_preset(PresetId::cube).ok());
    const Result<SolverTrial> trial = scene.time_solvers(SimParams(), 0.05);
    ASSERT_TRUE(trial.ok()) << trial.error();
    const SolverTrial& t = trial.value();
    std::printf("cube: %s (%d and %d frames)\n", t.describe().c_str(), t.cpu.frames,
                t.gpu.frames);
    for (const SolverFrames& each : {t.cpu, t.gpu}) {
        EXPECT_GE(each.frames, kMinTrialFrames);
        EXPECT_LE(each.frames, kMaxTrialFrames);
        EXPECT_GT(each.median_ms, 0.0);
        EXPECT_LT(each.median_ms, 60000.0);
    }
    EXPECT_EQ(t.cpu_faster(), t.cpu.median_ms < t.gpu.median_ms);
    EXPECT_NE(t.describe().find("timed at load: CPU"), std::string::npos);
    // The trial ran solvers of its own: the scene's is still at the start.
    std::vector<glm::vec3> positions;
    scene.solver().read_positions(positions);
    EXPECT_EQ(positions, scene.mesh().rest_positions);

    Scene empty(ShaderLibrary(), true);
    EXPECT_FALSE(empty.time_solvers(SimParams(), 0.05).ok());
    Scene without_compute(ShaderLibrary(), false);
    ASSERT_TRUE(without_compute.load_preset(PresetId::cube).ok());
    const Result<SolverTrial> cpu_only = without_compute.time_solvers(SimParams(), 0.05);
    ASSERT_FALSE(cpu_only.ok());
    EXPECT_NE(cpu_only.error().find("compute shaders"), std::string::npos) << cpu_only.error();
}

TEST_F(SceneTest, StartsEmptyAndTakesABodyLoadedOnAnotherThread)
{
    // The window's start-up file: no body until the background load ends.
    Scene scene(ShaderLibrary(), true);
    EXPECT_FALSE(scene.loaded());
    EXPECT_EQ(scene.draw_data().index_count, 0);  // an empty stage
    scene.reset();                                 // nothing to reset, no crash
    ASSERT_TRUE(scene.set_solver(SolverKind::cpu).ok());
    EXPECT_FALSE(scene.loaded());

    // A failed or cancelled load leaves it empty.
    EXPECT_FALSE(scene.install_body(Result<TetMesh>::failure("loading x.obj cancelled"),
                                    std::nullopt).ok());
    EXPECT_FALSE(scene.loaded());

    // The mesh prepared elsewhere, the solver made here; the solver chosen
    // before the body is the one it starts on.
    Result<TetMesh> prepared = Result<TetMesh>::failure("not loaded yet");
    std::thread([&] { prepared = prepare_body_from_file(asset_directory() + "/bunny.obj", 8); })
        .join();
    ASSERT_TRUE(prepared.ok()) << prepared.error();
    const size_t tets = prepared.value().tet_count();
    ASSERT_TRUE(scene.install_body(std::move(prepared), std::nullopt).ok());
    ASSERT_TRUE(scene.loaded());
    EXPECT_EQ(scene.solver_kind(), SolverKind::cpu);
    EXPECT_EQ(scene.mesh().tet_count(), tets);
    EXPECT_GT(scene.draw_data().index_count, 0);
    scene.step_frame(SimParams());
    std::vector<glm::vec3> positions;
    scene.solver().read_positions(positions);
    EXPECT_EQ(compute_stats(scene.mesh(), positions, {}).nan_count, 0u);
}

TEST_F(SceneTest, CpuFramesRunBesideTheWindowThatDrawsWhereTheyStarted)
{
    Scene scene(ShaderLibrary(), true);
    ASSERT_TRUE(scene.set_solver(SolverKind::cpu).ok());
    ASSERT_TRUE(scene.load_preset(PresetId::bunny).ok());
    const std::optional<Bounds> before = scene.current_bounds(std::nullopt);
    ASSERT_TRUE(before);
    // Heavy frames (the 64-iteration Jacobi that once froze the window for
    // seconds): they take far longer than the checks below.
    SimParams heavy;
    heavy.method = SolverMethod::jacobi;
    heavy.iterations = 64;
    scene.start_steps(std::vector<SimParams>(2, heavy));
    ASSERT_TRUE(scene.stepping());
    // Meanwhile the picture and the bounds are those of the start.
    const BodyDrawData drawn = scene.draw_data();
    EXPECT_NE(drawn.position_buffer, 0u);
    EXPECT_GT(drawn.index_count, 0);
    const std::optional<Bounds> during = scene.current_bounds(std::nullopt);
    ASSERT_TRUE(during);
    EXPECT_EQ(during->lo, before->lo);
    // What needs the solver waits for them.
    std::vector<glm::vec3> positions;
    scene.solver().read_positions(positions);
    EXPECT_FALSE(scene.stepping());
    EXPECT_GT(scene.background_steps_ms(), 0.0);
    const std::optional<Bounds> after = scene.current_bounds(std::nullopt);
    ASSERT_TRUE(after);
    EXPECT_LT(after->lo.y, before->lo.y);  // two frames of falling
    EXPECT_EQ(compute_stats(scene.mesh(), positions, {}).nan_count, 0u);
    // A reset while frames run waits for them, then restarts.
    scene.start_steps(std::vector<SimParams>(1, heavy));
    scene.reset();
    EXPECT_FALSE(scene.stepping());
    EXPECT_EQ(scene.current_bounds(std::nullopt)->lo, before->lo);
}

TEST_F(SceneTest, ADivergedSimulationIsSeenAndResetRestartsIt)
{
    for (const SolverKind kind : {SolverKind::cpu, SolverKind::gpu}) {
        Scene scene(ShaderLibrary(), true);
        ASSERT_TRUE(scene.set_solver(kind).ok());
        ASSERT_TRUE(scene.load_preset(PresetId::cube).ok());
        const SimParams params;
        scene.step_frame(params);
        EXPECT_FALSE(scene.diverged());
        // One vertex sent off with a NaN velocity: its tets' residuals turn
        // NaN, and so does the readout (on the GPU a frame or so later).
        std::vector<glm::vec3> positions;
        std::vector<glm::vec3> velocities;
        scene.solver().read_positions(positions);
        scene.solver().read_velocities(velocities);
        velocities[7] = glm::vec3(NAN);
        scene.solver().set_state(positions, velocities);
        bool seen = false;
        for (int frame = 0; frame < 4 && !seen; ++frame) {
            scene.step_frame(params);
            seen = scene.diverged();
        }
        EXPECT_TRUE(seen) << (kind == SolverKind::cpu ? "cpu" : "gpu");
        scene.reset();
        EXPECT_FALSE(scene.diverged());
        scene.step_frame(params);
        scene.solver().read_positions(positions);
        EXPECT_EQ(count_non_finite(positions), 0u);
        EXPECT_FALSE(scene.diverged());
    }
}

TEST_F(SceneTest, AMeshFileAddedToTheRunningWorldFallsBesideWhatRuns)
{
    for (const SolverKind kind : {SolverKind::cpu, SolverKind::gpu}) {
        Scene scene(ShaderLibrary(), true);
        ASSERT_TRUE(scene.set_solver(kind).ok());
        ASSERT_TRUE(scene.load_preset(PresetId::cube).ok());
        const SimParams params;
        for (int frame = 0; frame < 10; ++frame) scene.step_frame(params);
        std::vector<glm::vec3> before;
        scene.solver().read_positions(before);

        // As the panel's "Add to the world" does, with the bunny's OBJ.
        Result<TetMesh> file = prepare_body_from_file(asset_directory() + "/bunny.obj", 8);
        ASSERT_TRUE(file.ok()) << file.error();
        const std::shared_ptr<const World> loaded =
            single_body_world(std::make_shared<const TetMesh>(std::move(file).value()));
        const glm::vec3 focus(1.5f, 0.0f, 0.0f);  // beside the cube
        Result<BodyDesc> body = body_to_add(*loaded, focus, BodyMaterial{3.0e5f, 0.3f, 1000.0f});
        ASSERT_TRUE(body.ok()) << body.error();
        Result<std::string> added = scene.add_body(std::move(body).value());
        ASSERT_TRUE(added.ok()) << added.error();
        ASSERT_EQ(scene.world().body_count(), 2u);
        EXPECT_NE(scene.world().bodies[1].skin, nullptr);  // drawn as its OBJ

        // The cube goes on from where it was; the bunny starts 1 m up.
        std::vector<glm::vec3> after;
        scene.solver().read_positions(after);
        const WorldBody& bunny = scene.world().bodies[1];
        ASSERT_EQ(after.size(), before.size() + bunny.vertex_count);
        for (size_t v = 0; v < before.size(); ++v) ASSERT_EQ(after[v], before[v]) << v;
        const auto bunny_min_y = [&](const std::vector<glm::vec3>& p) {
            float y = p[bunny.first_vertex].y;
            for (uint32_t v = 0; v < bunny.vertex_count; ++v) {
                y = std::min(y, p[bunny.first_vertex + v].y);
            }
            return y;
        };
        EXPECT_NEAR(bunny_min_y(after), kAddedBodyDropHeight_m, 1e-4f);

        // It falls (1 m: 27 frames) and lands: on the ground, not through it.
        float lowest = bunny_min_y(after);
        for (int frame = 0; frame < 40; ++frame) {
            scene.step_frame(params);
            scene.solver().read_positions(after);
            lowest = std::min(lowest, bunny_min_y(after));
        }
        EXPECT_EQ(count_non_finite(after), 0u);
        const char* solver = kind == SolverKind::cpu ? "cpu" : "gpu";
        EXPECT_LT(lowest, 0.02f) << solver;   // it reached the ground
        EXPECT_GT(lowest, -0.01f) << solver;  // and did not sink into it
        EXPECT_LT(bunny_min_y(after), 0.5f) << solver;  // bouncing, but down
    }
}

// What the panel's line under the material reads: whether the sweeps keep
// up with the material on the world now running (core/warm_start.h), by its
// own small tets and each body's own material.
TEST_F(SceneTest, SaysWhereTheSweepsKeepUpWithTheMaterial)
{
    Scene scene(ShaderLibrary(), true);
    ASSERT_TRUE(scene.load_preset(PresetId::beam).ok());
    SimParams params;
    params.youngs_modulus_pa = 1.0e8f;
    EXPECT_TRUE(scene.sweeps_keep_up(params));
    params.youngs_modulus_pa = 2.0e8f;
    EXPECT_FALSE(scene.sweeps_keep_up(params));
    params.substeps = 20;  // four times the stiffness
    EXPECT_TRUE(scene.sweeps_keep_up(params));

    // The bunny's smaller tets are a fifth of the beam's: 1e8 Pa is past it.
    ASSERT_TRUE(scene.load_preset(PresetId::bunny).ok());
    params = SimParams();
    params.youngs_modulus_pa = 1.0e8f;
    EXPECT_FALSE(scene.sweeps_keep_up(params));
    params.youngs_modulus_pa = 1.0e6f;
    EXPECT_TRUE(scene.sweeps_keep_up(params));
    params.body_materials = {BodyMaterial{1.0e8f, 0.3f, 1000.0f}};  // its own material
    EXPECT_FALSE(scene.sweeps_keep_up(params));
}
