#include "app/headless_run.h"

#include "app/offscreen_screenshot.h"
#include "app/scene_file.h"
#include "app/stats_json.h"
#include "core/body_materials.h"
#include "core/cpu_solver.h"
#include "core/file_output.h"
#include "core/penetration.h"
#include "core/presets.h"
#include "core/sim_stats.h"
#include "gpu/gpu_solver.h"
#include "gpu/headless_context.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

namespace {

// How often a run looks for NaN while it runs: once per simulated second.
// Reading the positions costs one copy (one small read-back on the GPU),
// nothing next to 60 frames; a diverged run stops there instead of
// simulating NaN to the end.
constexpr int kDivergenceCheckFrames = 60;

bool write_file(const char* option, const std::string& path, const std::string& contents)
{
    Result<bool> written = write_whole_file(path, contents);
    if (!written) {
        std::cerr << "softbody: " << option << ": " << written.error() << "\n";
    }
    return written.ok();
}

std::string positions_text(const std::vector<glm::vec3>& positions)
{
    std::string text;
    char line[96];
    for (const glm::vec3& p : positions) {
        std::snprintf(line, sizeof line, "%.9g %.9g %.9g\n", p.x, p.y, p.z);
        text += line;
    }
    return text;
}

}  // namespace

Result<std::shared_ptr<const World>> load_world(const Options& options)
{
    using R = Result<std::shared_ptr<const World>>;
    if (!options.scene.empty()) {
        Result<World> world = load_scene_world(options.scene, options.mesh_resolution);
        if (!world) {
            return R::failure(world.error());
        }
        return R(std::make_shared<const World>(std::move(world).value()));
    }
    // A file loads as the window loads it (prepare_body_from_file), here on
    // this thread.
    Result<TetMesh> prepared = Result<TetMesh>::failure("");
    if (options.mesh_path.empty()) {
        Result<TetMeshDesc> desc = make_preset_mesh(options.preset);
        prepared = desc ? prepare_tet_mesh(desc.value()) : Result<TetMesh>::failure(desc.error());
    } else {
        prepared = prepare_body_from_file(options.mesh_path, options.mesh_resolution);
    }
    if (!prepared) {
        return R::failure(prepared.error());
    }
    return R(single_body_world(std::make_shared<const TetMesh>(std::move(prepared).value())));
}

FramesRun run_frames_checked(Solver& solver, DragScript& drags, const SimParams& params, int frames,
                     std::vector<glm::vec3>& positions)
{
    FramesRun ran;
    while (ran.frames < frames && !ran.diverged) {
        drags.before_frame(ran.frames, solver);
        solver.step_frame(params);
        ++ran.frames;
        if (ran.frames % kDivergenceCheckFrames == 0 || ran.frames == frames) {
            solver.read_positions(positions);
            ran.diverged = count_non_finite(positions) > 0;
        }
    }
    return ran;
}

int run_headless(const Options& options)
{
    Result<std::shared_ptr<const World>> world = load_world(options);
    if (!world) {
        std::cerr << "softbody: " << world.error() << "\n";
        return 1;
    }
    if (const std::string dropped = dropped_tets_warning(*world.value()->mesh); !dropped.empty()) {
        std::cerr << "softbody: " << dropped << "\n";
    }
    const std::shared_ptr<const TetMesh> mesh = world.value()->mesh;

    std::string note;
    const SimParams params =
        sanitized(options.scene.empty() ? params_from_options(options)
                                        : params_for_world(options, *world.value()),
                  &note);
    if (!note.empty()) {
        std::cerr << "softbody: parameters clamped: " << note << "\n";
    }

    // The GL context must outlive the solver that owns GL objects.
    std::unique_ptr<HeadlessGlContext> context;
    std::unique_ptr<Solver> solver;
    // A screenshot needs GL even when the CPU solver runs.
    const bool needs_gl = options.solver_or_default() == "gpu" || !options.screenshot_path.empty();
    if (needs_gl) {
        Result<std::unique_ptr<HeadlessGlContext>> created = HeadlessGlContext::create();
        if (!created) {
            std::cerr << "softbody: no OpenGL context: " << created.error() << "\n";
            return 1;
        }
        context = std::move(created).value();
        std::cerr << "softbody: OpenGL " << context->description() << "\n";
    }
    if (options.solver_or_default() == "gpu") {
        Result<std::unique_ptr<GpuSolver>> gpu = GpuSolver::create(ShaderLibrary());
        if (!gpu) {
            std::cerr << "softbody: " << gpu.error() << "\n";
            return 1;
        }
        solver = std::move(gpu).value();
    } else {
        auto cpu = std::make_unique<CpuSolver>();
        cpu->set_threads(options.threads_or_default());
        cpu->set_tet_kernel(options.tet_kernel_or_default());
        solver = std::move(cpu);
    }
    solver->load(world.value());
    DragScript drags(options.drags, options.grab_stiffness_n_per_m);
    if (Result<bool> valid = drags.validate(*mesh); !valid) {
        std::cerr << "softbody: " << valid.error() << "\n";
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    std::vector<glm::vec3> positions;
    const int frames_asked = options.frames_or_default();
    const FramesRun ran = run_frames_checked(*solver, drags, params, frames_asked, positions);
    const int frames = ran.frames;
    const bool diverged = ran.diverged;
    if (options.solver_or_default() == "gpu") {
        glFinish();  // wall time of the GPU work, not of queuing it
    }
    const double elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();

    RunReport report;
    report.preset = !options.scene.empty()     ? options.scene
                    : options.mesh_path.empty() ? preset_info(options.preset).name
                                                : options.mesh_path;
    report.solver = solver->name();
    report.vertices = mesh->vertex_count();
    report.tets = mesh->tet_count();
    report.frames = frames;
    report.params = params;
    report.ms_per_frame = frames > 0 ? elapsed_ms / frames : 0.0;
    std::vector<glm::vec3> velocities;
    solver->read_positions(positions);
    solver->read_velocities(velocities);
    report.stats = compute_stats(*mesh, positions, velocities);
    report.bodies = compute_body_stats(*world.value(), positions);
    std::vector<BodyMaterial> materials;
    update_body_materials(*world.value(), params, materials);
    report.momenta = compute_momenta(positions, velocities,
                                     material_arrays(*world.value(), materials).inverse_masses);
    if (report.stats.nan_count > 0) {
        report.max_penetration_m = NAN;
        report.max_penetration_between_bodies_m = NAN;
    } else {
        const PenetrationReport overlap =
            measure_penetration(*mesh, world.value()->vertex_body, positions);
        report.max_penetration_m = overlap.max_depth_m;
        report.max_penetration_between_bodies_m = overlap.max_depth_between_bodies_m;
    }
    report.mean_residual = solver->latest_mean_residual();
    report.diverged = diverged;

    const SimStats& s = report.stats;
    std::printf("%s on %s: %zu vertices, %zu tets, %d frames at %d x %d %s, %.3f ms/frame\n",
                report.preset.c_str(), report.solver.c_str(), report.vertices, report.tets,
                report.frames, params.substeps, params.iterations,
                solver_method_name(params.method), report.ms_per_frame);
    std::printf("  y %.4f .. %.4f m, centroid (%.4f, %.4f, %.4f) m moving at %.4f m/s, "
                "max speed %.4f m/s, %zu inverted tets, %zu non-finite vertices\n",
                s.min_y_m, s.max_y_m, s.centroid_m.x, s.centroid_m.y, s.centroid_m.z,
                s.centroid_speed_m_s, s.max_speed_m_s, s.inverted_tets, s.nan_count);
    if (diverged) {
        std::fprintf(stderr,
                     "softbody: the simulation diverged: %zu of %zu vertices have a NaN or "
                     "infinite position, found at frame %d of %d (looked for once per "
                     "simulated second; the run stopped there)\n",
                     s.nan_count, report.vertices, frames, frames_asked);
    }
    if (report.mean_residual) {
        std::printf("  mean residual |C + alpha~ lambda| after the last iteration: %.3e\n",
                    *report.mean_residual);
    }

    bool written = true;
    if (!options.stats_path.empty()) {
        written = write_file("--stats", options.stats_path, report_to_json(report)) && written;
    }
    if (!options.dump_positions_path.empty()) {
        written = write_file("--dump-positions", options.dump_positions_path,
                             positions_text(positions)) &&
                  written;
    }
    if (!options.screenshot_path.empty() && diverged) {
        std::cerr << "softbody: --screenshot: not written, a diverged body has no picture\n";
    } else if (!options.screenshot_path.empty()) {
        Result<bool> shot =
            render_offscreen_screenshot(options.screenshot_path, options.size, *solver,
                                        options.view, params);
        if (shot) {
            std::printf("  screenshot written to %s\n", options.screenshot_path.c_str());
        } else {
            std::cerr << "softbody: --screenshot: " << shot.error() << "\n";
            written = false;
        }
    }
    if (diverged) {
        return kExitDiverged;  // the bigger news, also when a write failed too
    }
    return written ? 0 : 1;
}
