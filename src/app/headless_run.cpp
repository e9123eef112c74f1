#include "app/headless_run.h"

#include "app/offscreen_screenshot.h"
#include "app/stats_json.h"
#include "core/cpu_solver.h"
#include "core/presets.h"
#include "core/sim_stats.h"
#include "gpu/gpu_solver.h"
#include "gpu/headless_context.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

namespace {

bool write_file(const std::string& path, const std::string& contents)
{
    std::ofstream file(path, std::ios::binary);
    file << contents;
    file.close();
    if (!file) {
        std::cerr << "softbody: cannot write '" << path << "'\n";
        return false;
    }
    return true;
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

int run_headless(const Options& options)
{
    Result<TetMeshDesc> desc = options.mesh_path.empty()
                                   ? make_preset_mesh(options.preset)
                                   : make_body_from_file(options.mesh_path,
                                                         options.mesh_resolution);
    if (!desc) {
        std::cerr << "softbody: " << desc.error() << "\n";
        return 1;
    }
    Result<TetMesh> prepared = prepare_tet_mesh(desc.value());
    if (!prepared) {
        std::cerr << "softbody: " << prepared.error() << "\n";
        return 1;
    }
    if (const std::string dropped = dropped_tets_warning(prepared.value()); !dropped.empty()) {
        std::cerr << "softbody: " << dropped << "\n";
    }
    auto mesh = std::make_shared<const TetMesh>(std::move(prepared).value());

    std::string note;
    const SimParams params = sanitized(params_from_options(options), &note);
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
        solver = std::move(cpu);
    }
    solver->load(mesh);
    DragScript drags(options.drags, options.grab_stiffness_n_per_m);
    if (Result<bool> valid = drags.validate(*mesh); !valid) {
        std::cerr << "softbody: " << valid.error() << "\n";
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    const int frames = options.frames_or_default();
    for (int frame = 0; frame < frames; ++frame) {
        drags.before_frame(frame, *solver);
        solver->step_frame(params);
    }
    if (options.solver_or_default() == "gpu") {
        glFinish();  // wall time of the GPU work, not of queuing it
    }
    const double elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();

    RunReport report;
    report.preset = options.mesh_path.empty() ? preset_info(options.preset).name
                                              : options.mesh_path;
    report.solver = solver->name();
    report.vertices = mesh->vertex_count();
    report.tets = mesh->tet_count();
    report.frames = frames;
    report.params = params;
    report.ms_per_frame = frames > 0 ? elapsed_ms / frames : 0.0;
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> velocities;
    solver->read_positions(positions);
    solver->read_velocities(velocities);
    report.stats = compute_stats(*mesh, positions, velocities);
    report.mean_residual = solver->latest_mean_residual();

    const SimStats& s = report.stats;
    std::printf("%s on %s: %zu vertices, %zu tets, %d frames at %d x %d %s, %.3f ms/frame\n",
                report.preset.c_str(), report.solver.c_str(), report.vertices, report.tets,
                report.frames, params.substeps, params.iterations,
                solver_method_name(params.method), report.ms_per_frame);
    std::printf("  y %.4f .. %.4f m, centroid (%.4f, %.4f, %.4f) m moving at %.4f m/s, "
                "max speed %.4f m/s, %zu inverted tets, %zu non-finite vertices\n",
                s.min_y_m, s.max_y_m, s.centroid_m.x, s.centroid_m.y, s.centroid_m.z,
                s.centroid_speed_m_s, s.max_speed_m_s, s.inverted_tets, s.nan_count);
    if (report.mean_residual) {
        std::printf("  mean residual |C + alpha~ lambda| after the last iteration: %.3e\n",
                    *report.mean_residual);
    }

    bool written = true;
    if (!options.stats_path.empty()) {
        written = write_file(options.stats_path, report_to_json(report)) && written;
    }
    if (!options.dump_positions_path.empty()) {
        written = write_file(options.dump_positions_path, positions_text(positions)) &&
                  written;
    }
    if (!options.screenshot_path.empty()) {
        Result<bool> shot =
            render_offscreen_screenshot(options.screenshot_path, options.size, *solver);
        if (shot) {
            std::printf("  screenshot written to %s\n", options.screenshot_path.c_str());
        } else {
            std::cerr << "softbody: " << shot.error() << "\n";
            written = false;
        }
    }
    return written ? 0 : 1;
}
