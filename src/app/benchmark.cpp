#include "app/benchmark.h"

#include "app/bench_meshes.h"
#include "gpu/gpu_time_check.h"
#include "app/bench_report.h"
#include "core/cpu_solver.h"
#include "core/file_output.h"
#include "core/thread_chooser.h"
#include "gpu/gpu_solver.h"
#include "gpu/headless_context.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <thread>

#include <malloc.h>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Warm-up (caches, the GL driver compiling shaders on first use) lasts at
// least this many frames and this long; timing then runs until both of the
// timed limits are reached, or for --frames frames. Frames of a second or
// more (the largest meshes) stop after the slow limits.
constexpr int kWarmupFrames = 2;
constexpr double kWarmupMs = 300.0;
constexpr int kMinTimedFrames = 5;
constexpr int kMaxTimedFrames = 60;
constexpr double kMinTimedMs = 2000.0;
constexpr int kSlowTimedFrames = 3;
constexpr double kSlowTimedMs = 10000.0;
constexpr int kPassTimingFrames = 3;
// A CPU team's choice of threads holds through the timed frames (time_on).
static_assert(kMaxTimedFrames + kPassTimingFrames < ThreadChooser::kHoldFrames);


struct FrameTime {
    double wall_ms;
    double query_ms;  // -1 without a query
};

class FrameTimer {
public:
    explicit FrameTimer(bool gpu) : gpu_(gpu)
    {
        if (gpu_) {
            GLuint name = 0;
            glGenQueries(1, &name);
            query_ = GlQuery(name);
        }
    }

    FrameTime step(Solver& solver, const SimParams& params)
    {
        const Clock::time_point start = Clock::now();
        if (!gpu_) {
            solver.step_frame(params);
            return {ms_since(start), -1.0};
        }
        glBeginQuery(GL_TIME_ELAPSED, query_.get());
        solver.step_frame(params);
        glEndQuery(GL_TIME_ELAPSED);
        glFinish();  // the frame's work done, not merely queued
        const double wall_ms = ms_since(start);
        GLuint64 ns = 0;
        glGetQueryObjectui64v(query_.get(), GL_QUERY_RESULT, &ns);
        return {wall_ms, static_cast<double>(ns) * 1e-6};
    }

private:
    bool gpu_;
    GlQuery query_;
};

double percentile(std::vector<double> values, double fraction)
{
    std::sort(values.begin(), values.end());
    const double position = fraction * static_cast<double>(values.size() - 1);
    const size_t below = static_cast<size_t>(position);
    const size_t above = std::min(below + 1, values.size() - 1);
    const double t = position - static_cast<double>(below);
    return values[below] * (1.0 - t) + values[above] * t;
}

// Times the solver's frames after a warm-up of at least min_warmup_frames.
BenchRow time_solver(Solver& solver, const SimParams& params, std::optional<int> timed_frames,
                     int min_warmup_frames, bool profile)
{
    const bool gpu = solver.runs_on_gpu();
    FrameTimer timer(gpu);
    const Clock::time_point warmup_start = Clock::now();
    const int warmup_frames = std::max(kWarmupFrames, min_warmup_frames);
    for (int frame = 0; frame < warmup_frames || ms_since(warmup_start) < kWarmupMs; ++frame) {
        timer.step(solver, params);
    }

    std::vector<FrameTime> frames;
    double total_ms = 0.0;
    auto enough = [&] {
        const int n = static_cast<int>(frames.size());
        if (timed_frames) {
            return n >= *timed_frames;
        }
        return n >= kMaxTimedFrames || (n >= kMinTimedFrames && total_ms >= kMinTimedMs) ||
               (n >= kSlowTimedFrames && total_ms >= kSlowTimedMs);
    };
    while (!enough()) {
        frames.push_back(timer.step(solver, params));
        total_ms += frames.back().wall_ms;
    }

    bool queries_plausible = gpu;
    for (const FrameTime& f : frames) {
        queries_plausible = queries_plausible && gpu_time_trustworthy(f.query_ms, f.wall_ms);
    }
    std::vector<double> ms;
    for (const FrameTime& f : frames) {
        ms.push_back(queries_plausible ? f.query_ms : f.wall_ms);
    }

    BenchRow row;
    row.solver = solver.name();
    row.method = solver_method_name(params.method);
    row.substeps = params.substeps;
    row.iterations = params.iterations;
    row.frames = static_cast<int>(frames.size());
    row.frame_clock = !gpu ? "wall clock"
                      : queries_plausible ? "GL timer queries"
                                          : "fenced wall clock";
    if (!ms.empty()) {
        row.ms_per_frame = percentile(ms, 0.5);
        row.ms_p10 = percentile(ms, 0.1);
        row.ms_p90 = percentile(ms, 0.9);
    }

    // The split costs extra waits on the GPU, so it has frames of its own.
    solver.set_pass_timing(true);
    PassTimes sum;
    int timed = 0;
    for (int frame = 0; frame < kPassTimingFrames && row.frames > 0; ++frame) {
        timer.step(solver, params);
        if (std::optional<PassTimes> p = solver.last_pass_times()) {
            const std::array<double*, PassTimes::kPasses> into = sum.passes();
            const std::array<double*, PassTimes::kPasses> from = p->passes();
            for (size_t i = 0; i < into.size(); ++i) {
                *into[i] += *from[i];
            }
            sum.clock = p->clock;
            ++timed;
        }
    }
    solver.set_pass_timing(false);
    if (timed > 0) {
        for (double* pass : sum.passes()) {
            *pass /= timed;
        }
        row.passes = sum;
    }

    // The dispatch by dispatch profile, in frames of its own as well.
    if (auto* gpu_solver = dynamic_cast<GpuSolver*>(&solver); profile && gpu_solver != nullptr) {
        gpu_solver->set_dispatch_profile(true);
        for (int frame = 0; frame < kPassTimingFrames && row.frames > 0; ++frame) {
            timer.step(solver, params);
        }
        row.profile = gpu_solver->dispatch_profile();
        gpu_solver->set_dispatch_profile(false);
    }
    return row;
}

// Bytes of the heap in use, as glibc counts them: small blocks and the
// large ones it maps on their own. (The main arena's figure: the solver
// allocates on the thread that loads it.)
size_t heap_bytes_in_use()
{
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

size_t heap_growth_since(size_t bytes_before)
{
    const size_t now = heap_bytes_in_use();
    return now > bytes_before ? now - bytes_before : 0;
}

std::string cpu_model()
{
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            const size_t name = line.find_first_not_of(" \t", colon + 1);
            if (colon != std::string::npos && name != std::string::npos) {
                return line.substr(name);
            }
        }
    }
    return "unknown CPU";
}

}  // namespace

int run_benchmark(const Options& options)
{
    Result<std::vector<BenchMesh>> meshes = bench_meshes_from_list(options.bench_meshes);
    if (!meshes) {
        std::cerr << "softbody: " << meshes.error() << "\n";
        return 2;
    }
    const std::string solvers = options.solver.value_or("both");
    const bool run_cpu = solvers != "gpu";
    bool run_gpu = solvers != "cpu";

    std::string machine = cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) +
                          " hardware threads";
    std::unique_ptr<HeadlessGlContext> context;
    std::unique_ptr<GpuSolver> gpu_solver;
    if (run_gpu) {
        Result<std::unique_ptr<HeadlessGlContext>> created = HeadlessGlContext::create();
        Result<std::unique_ptr<GpuSolver>> gpu =
            created ? GpuSolver::create(ShaderLibrary())
                    : Result<std::unique_ptr<GpuSolver>>::failure(created.error());
        if (!gpu && !run_cpu) {
            std::cerr << "softbody: no GPU solver to benchmark: " << gpu.error() << "\n";
            return 1;
        }
        if (!gpu) {
            std::cerr << "softbody: no GPU solver, benchmarking the CPU only: " << gpu.error()
                      << "\n";
            run_gpu = false;
        } else {
            context = std::move(created).value();
            gpu_solver = std::move(gpu).value();
            machine += "; OpenGL " + context->description();
        }
    }
    std::printf("benchmark on %s\n", machine.c_str());

    // One thread (the per-core figure) and every thread, unless --threads says.
    std::vector<int> cpu_thread_counts = {options.threads_or_default()};
    if (!options.threads && cpu_thread_counts[0] > 1) {
        cpu_thread_counts.insert(cpu_thread_counts.begin(), 1);
    }

    std::vector<BenchRow> rows;
    for (const BenchMesh& bench_mesh : meshes.value()) {
        std::fprintf(stderr, "softbody: preparing %s ...\n", bench_mesh.name.c_str());
        const size_t heap_before_world = heap_bytes_in_use();
        Result<std::shared_ptr<const World>> made = make_bench_world(bench_mesh);
        const size_t world_bytes = heap_growth_since(heap_before_world);
        if (!made) {
            std::cerr << "softbody: skipping " << bench_mesh.name << ": " << made.error() << "\n";
            continue;
        }
        const std::shared_ptr<const World> world = made.value();
        const std::shared_ptr<const TetMesh> mesh = world->mesh;
        Options with_stiffness = options;
        if (!bench_mesh.scene) {
            with_stiffness.youngs_modulus_pa =
                options.youngs_modulus_pa.value_or(bench_mesh.youngs_modulus_pa);
        }
        const SimParams base_params = sanitized(params_for_world(with_stiffness, *world));
        // A scene is timed from a heap: settled once on the CPU, every solver
        // starts from the same state.
        std::vector<glm::vec3> start_positions = mesh->rest_positions;
        std::vector<glm::vec3> velocities_at_start = start_velocities(*world);
        if (bench_mesh.settle_s > 0.0f) {
            std::fprintf(stderr, "softbody: settling %s for %.1f s ...\n",
                         bench_mesh.name.c_str(), bench_mesh.settle_s);
            CpuSolver settler;
            settler.set_threads(options.threads_or_default());
            settler.set_tet_kernel(options.tet_kernel_or_default());
            settler.load(world);
            for (float t = 0.0f; t < bench_mesh.settle_s; t += kFrameSeconds) {
                settler.step_frame(base_params);
            }
            start_positions = settler.positions();
            velocities_at_start = settler.velocities();
        }
        const auto start = [&](Solver& solver) {
            solver.load(world);
            solver.set_state(start_positions, velocities_at_start);
        };

        // Every method the program offers, unless --method names one.
        std::vector<SolverMethod> methods = {SolverMethod::gauss_seidel, SolverMethod::jacobi};
        if (options.method) {
            methods = {*options.method};
        }
        for (const SolverMethod method : methods) {
            SimParams params = base_params;
            params.method = method;
            // Times `solver`, which has just loaded the mesh (a body at its
            // start); `bytes` says what it holds once it has run (a method's
            // arrays are made on its first frame): the CPU rows count the
            // world and the solver on the heap, the GPU rows the solver's
            // buffers.
            auto cpu_bytes = [&](size_t heap_before_solver) {
                return [&, heap_before_solver] {
                    return world_bytes + heap_growth_since(heap_before_solver);
                };
            };
            auto time_on = [&](Solver& solver, int threads, const std::string& simd,
                               const std::function<size_t()>& bytes) {
                std::fprintf(stderr, "softbody: timing %s, %s on the %s (%d thread%s) ...\n",
                             bench_mesh.name.c_str(), solver_method_name(method), solver.name(),
                             threads, threads == 1 ? "" : "s");
                // A CPU team first times some frames on itself and some on
                // one thread (ThreadChooser), then holds its choice for
                // hundreds of frames: the warm-up waits for the choice, so
                // that the timed frames are all of one kind. On the largest
                // scenes they once mixed both, and the pass columns were
                // one thread's.
                const bool team = !solver.runs_on_gpu() && threads > 1;
                const int choice_frames = team ? 2 * (ThreadChooser::kTrialFrames + 1) : 0;
                BenchRow row = time_solver(solver, params, options.frames, choice_frames,
                                           options.bench_profile);
                row.mesh = bench_mesh.name;
                row.vertices = mesh->vertex_count();
                row.tets = mesh->tet_count();
                row.threads = threads;
                row.simd = simd;
                row.bytes_per_tet =
                    static_cast<double>(bytes()) / static_cast<double>(mesh->tet_count());
                rows.push_back(row);
            };
            if (run_cpu && method == SolverMethod::jacobi) {
                // The Jacobi reference runs the scalar tm_solve_tet on one thread.
                const size_t heap_before_solver = heap_bytes_in_use();
                CpuSolver cpu_solver;
                start(cpu_solver);
                time_on(cpu_solver, 1, "scalar", cpu_bytes(heap_before_solver));
            } else if (run_cpu) {
                const size_t heap_before_solver = heap_bytes_in_use();
                CpuSolver cpu_solver;
                cpu_solver.set_tet_kernel(options.tet_kernel_or_default());
                for (const int threads : cpu_thread_counts) {
                    cpu_solver.set_threads(threads);
                    start(cpu_solver);  // how many threads it uses depends on the mesh
                    if (threads > 1 && cpu_solver.threads_in_use() == 1) {
                        std::fprintf(stderr, "softbody: %s runs on one thread: its colours are "
                                     "too small to share\n", bench_mesh.name.c_str());
                        continue;
                    }
                    time_on(cpu_solver, cpu_solver.threads_in_use(), cpu_solver.tet_kernel().name,
                            cpu_bytes(heap_before_solver));
                    rows.back().ran_on_one_thread = cpu_solver.running_on_one_thread();
                }
            }
            if (run_gpu) {
                if (mesh->tet_count() > GpuSolver::max_items_per_dispatch()) {
                    std::cerr << "softbody: skipping " << bench_mesh.name
                              << " on the GPU: more tets than one dispatch covers here\n";
                } else {
                    start(*gpu_solver);
                    std::fprintf(stderr, "softbody: %s on the GPU: tet pass %s\n",
                                 bench_mesh.name.c_str(), gpu_solver->tet_pass_layout().c_str());
                    time_on(*gpu_solver, 1, "-", [&] { return gpu_solver->buffer_bytes(); });
                    rows.back().dispatches_per_frame = gpu_solver->dispatches_last_frame();
                    rows.back().tet_pass = gpu_solver->tet_pass_layout();
                }
            }
        }
    }
    std::printf("%s", bench_table(rows).c_str());

    if (!options.json_path.empty()) {
        if (Result<bool> written = write_whole_file(options.json_path, bench_json(rows, machine));
            !written) {
            std::cerr << "softbody: --json: " << written.error() << "\n";
            return 1;
        }
    }
    return rows.empty() ? 1 : 0;
}
