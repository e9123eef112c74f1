#include "app/command_line.h"

#include "app/scene_file.h"
#include "core/body_materials.h"
#include "core/scenes.h"

#include "core/file_output.h"
#include "core/worker_team.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace {

Result<Options> fail(const std::string& message)
{
    return Result<Options>::failure(message);
}

// Whole-string numeric parses: "12abc" and "" are refused, not truncated.
std::optional<long long> parse_integer(const std::string& text)
{
    long long value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty()) {
        return std::nullopt;
    }
    return value;
}

std::optional<float> parse_real(const std::string& text)
{
    if (text.empty()) {
        return std::nullopt;
    }
    size_t consumed = 0;
    try {
        float value = std::stof(text, &consumed);
        if (consumed != text.size() || !std::isfinite(value)) {
            return std::nullopt;
        }
        return value;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::optional<int> integer_in(const std::string& text, const Range<int>& range)
{
    std::optional<long long> n = parse_integer(text);
    if (!n || *n < range.min || *n > range.max) {
        return std::nullopt;
    }
    return static_cast<int>(*n);
}

std::optional<float> real_in(const std::string& text, const Range<float>& range)
{
    std::optional<float> x = parse_real(text);
    if (!x || !range.contains(*x)) {
        return std::nullopt;
    }
    return x;
}

std::string preset_names()
{
    std::string names;
    for (const Preset& p : all_presets()) {
        if (!names.empty()) {
            names += '|';
        }
        names += p.name;
    }
    return names;
}

}  // namespace

std::string usage_text()
{
    using L = ParamLimits;
    std::ostringstream out;
    out << "usage: softbody [options] [MESH_FILE]             open the window\n"
           "       softbody --headless [options]              simulate without a window\n"
           "       softbody --bench [options]                 time the solvers, print a table\n"
           "\n"
           "Real-time tetrahedral XPBD soft bodies.\n"
           "\n"
           "  --headless              run without a window, print a summary, exit\n"
           "  --solver cpu|gpu|auto   solver; auto, the window's default on a GPU: time\n"
           "                          both on the first world and run the faster (default\n"
           "                          cpu headless and where OpenGL draws on the CPU,\n"
           "                          e.g. llvmpipe); headless gpu runs in an EGL context\n"
           "  --preset NAME           body: "
        << preset_names()
        << " (default bunny)\n"
           "  --scene NAME|FILE.json  a world of bodies instead: "
        << builtin_scene_names()
        << ",\n"
           "                          or a scene file (README, \"Scene files\")\n"
           "  --mesh FILE             simulate a mesh file instead: .obj (tetrahedralized),\n"
           "                          .node/.ele (TetGen) or .tet; also as the last argument\n"
           "  --resolution N          OBJ tetrahedralization: cells along the longest side,\n"
           "                          "
        << L::mesh_resolution.min << "-" << L::mesh_resolution.max << " (default "
        << kDefaultMeshResolution
        << ")\n"
           "  --frames N              frames of 1/60 s to simulate, "
        << L::frames.min << "-" << L::frames.max
        << "\n"
           "                          (headless default 300; in the window: quit after N)\n"
           "  --substeps S            substeps per frame, "
        << L::substeps.min << "-" << L::substeps.max
        << " (default 10)\n"
           "  --method NAME           gauss-seidel (default: colour by colour, the\n"
           "                          stiffness you set) or jacobi (DESIGN.md's reference)\n"
           "  --iterations K          iterations per substep, "
        << L::iterations.min << "-" << L::iterations.max
        << " (default 8)\n"
           "  --threads N             CPU solver threads, 1-"
        << cpu_thread_range().max
        << " (this machine's hardware\n"
           "                          threads, the default; results are identical for any N)\n"
           "  --simd NAME             the CPU solver's SIMD kernel: "
        << available_tet_block_kernel_names()
        << " on this CPU\n"
           "                          (default: the first; results are identical for any)\n"
           "  --youngs PA             Young's modulus in pascals, "
        << L::youngs_pa.min << "-" << L::youngs_pa.max
        << "\n"
           "                          (default: the preset's)\n"
           "  --poisson NU            Poisson ratio, "
        << L::poisson.min << "-" << L::poisson.max
        << " (default 0.3)\n"
           "  --damping PER_S         air damping per second, "
        << L::damping_per_s.min << "-" << L::damping_per_s.max
        << " (default 0.1)\n"
           "  --material-damping S    the material's damping time in seconds (a damping\n"
           "                          force S times the stiffness's), "
        << L::material_damping_s.min << "-" << L::material_damping_s.max
        << " (default 0.003)\n"
           "  --wobble-damping PER_S  the share of its wobble (its motion besides its drift\n"
           "                          and spin) a body loses per second, "
        << L::damping_per_s.min << "-" << L::damping_per_s.max
        << " (default 3)\n"
           "  --stats FILE.json       write summary figures as JSON\n"
           "  --dump-positions FILE   write the final positions, one 'x y z' line per vertex\n"
           "  --drag S:E:V:DX,DY,DZ   grab vertex V at frame S, move the target linearly to its\n"
           "                          rest position + (DX,DY,DZ) m by frame E, release there\n"
           "                          (repeatable; the same grab as the mouse); each of\n"
           "                          DX, DY, DZ at most "
        << L::max_drag_offset_m
        << " m in size\n"
           "  --grab-stiffness N_M    stiffness of --drag's grab in N/m, "
        << L::grab_stiffness_n_per_m.min << "-" << L::grab_stiffness_n_per_m.max
        << " (default 5e4;\n"
           "                          the mouse's scales with the grabbed body's mass)\n"
           "  --screenshot FILE.png   render the last frame to a PNG (headless: offscreen)\n"
           "  --view surface|tets|strain  draw each body's own surface (default), its\n"
           "                          tets' boundary, or its surface coloured by von Mises\n"
           "                          stress (red: a tenth of Young's modulus)\n"
           "  --size WxH              window or screenshot size in pixels, each side\n"
           "                          "
        << L::image_side_px.min << "-" << L::image_side_px.max
        << " (default 1280x720)\n"
           "  --bench                 benchmark: warm up, time frames at the schedule (10 x 8\n"
           "                          unless --substeps/--iterations/--method say otherwise)\n"
           "                          on each mesh and solver, print ms/frame, tet solves\n"
           "                          per second and the per-pass split; --frames N fixes\n"
           "                          the timed frames, --solver cpu|gpu|both (default both)\n"
           "  --bench-meshes LIST     comma-separated: bunny, cube, torus, beam, bunny-2x,\n"
           "                          bunny-4x, lattice-10k, lattice-50k, lattice-200k,\n"
           "                          lattice-1m, pile, pile-large (default all but\n"
           "                          lattice-1m)\n"
           "  --bench-profile         with --bench: GPU rows also time every dispatch and\n"
           "                          list the programs that took the most of a frame\n"
           "  --json FILE             with --bench: write the rows as a JSON list\n"
           "  --help                  show this text\n"
           "\n"
           "Exit status: 0 done; 1 a file could not be read or written, no OpenGL, or an\n"
           "internal error; 2 a refused option or an output path that cannot be written;\n"
           "3 the simulation diverged (a position became NaN or infinite).\n";
    return out.str();
}

Result<Options> parse_command_line(const std::vector<std::string>& args)
{
    Options options;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& flag = args[i];
        if (flag == "--help" || flag == "-h") {
            options.help = true;
            continue;
        }
        if (flag == "--headless") {
            options.headless = true;
            continue;
        }
        if (flag == "--bench") {
            options.bench = true;
            continue;
        }
        if (flag == "--bench-profile") {
            options.bench_profile = true;
            continue;
        }
        static const char* const kValueFlags[] = {
            "--solver", "--preset", "--frames", "--substeps", "--iterations", "--youngs",
            "--poisson", "--damping", "--material-damping", "--wobble-damping", "--stats",
            "--dump-positions", "--screenshot", "--size", "--drag", "--grab-stiffness", "--mesh",
            "--resolution", "--method", "--json", "--bench-meshes", "--threads", "--scene",
            "--view", "--simd"};
        bool takes_value = false;
        for (const char* known : kValueFlags) {
            takes_value = takes_value || flag == known;
        }
        if (!takes_value) {
            if (flag.empty()) {
                return fail("an empty argument: a mesh file path is needed there");
            }
            if (flag[0] != '-' && options.mesh_path.empty()) {
                options.mesh_path = flag;  // softbody model.obj
                continue;
            }
            return fail("unknown option '" + flag + "' (see --help)");
        }
        if (i + 1 >= args.size()) {
            return fail(flag + " needs a value");
        }
        const std::string& value = args[++i];
        auto bad = [&](const std::string& why) {
            return fail(flag + " '" + value + "': " + why);
        };

        // Values that name files or lists: an empty one is a mistake (an
        // unset shell variable), never "use the default".
        static const char* const kPathFlags[] = {"--stats", "--dump-positions", "--screenshot",
                                                 "--mesh", "--json", "--bench-meshes",
                                                 "--scene"};
        for (const char* path_flag : kPathFlags) {
            if (flag == path_flag && value.empty()) {
                return bad("an empty value");
            }
        }

        using L = ParamLimits;
        if (flag == "--solver") {
            if (value != "cpu" && value != "gpu" && value != "auto" && value != "both") {
                return bad("expected cpu, gpu, auto (the window only) or both (--bench only)");
            }
            options.solver = value;
        } else if (flag == "--preset") {
            std::optional<PresetId> id = preset_from_name(value);
            if (!id) {
                return bad("unknown preset, expected one of " + preset_names());
            }
            options.preset = *id;
            options.preset_given = true;
        } else if (flag == "--scene") {
            if (!names_scene_file(value) && !is_builtin_scene(value)) {
                return bad("unknown scene, expected a scene file (.json) or one of " +
                           builtin_scene_names());
            }
            options.scene = value;
        } else if (flag == "--frames") {
            std::optional<int> n = integer_in(value, L::frames);
            if (!n) {
                return bad("expected an integer " + range_text(L::frames) +
                           " (a million frames is 4.6 hours of simulated time)");
            }
            options.frames = *n;
        } else if (flag == "--substeps" || flag == "--iterations") {
            const Range<int>& range = flag == "--substeps" ? L::substeps : L::iterations;
            std::optional<int> n = integer_in(value, range);
            if (!n) {
                return bad("expected an integer " + range_text(range) +
                           " (64 substeps x 256 iterations already take the bunny 34 s "
                           "per frame on two cores)");
            }
            (flag == "--substeps" ? options.substeps : options.iterations) = *n;
        } else if (flag == "--youngs") {
            std::optional<float> e = real_in(value, L::youngs_pa);
            if (!e) {
                return bad("expected pascals " + range_text(L::youngs_pa));
            }
            options.youngs_modulus_pa = *e;
        } else if (flag == "--poisson") {
            std::optional<float> nu = real_in(value, L::poisson);
            if (!nu) {
                return bad("expected a ratio " + range_text(L::poisson) +
                           " (0.5 is incompressible: the volume stiffness divides by zero)");
            }
            options.poisson_ratio = *nu;
        } else if (flag == "--damping") {
            std::optional<float> d = real_in(value, L::damping_per_s);
            if (!d) {
                return bad("expected a rate per second " + range_text(L::damping_per_s));
            }
            options.damping_per_s = *d;
        } else if (flag == "--material-damping") {
            std::optional<float> tau = real_in(value, L::material_damping_s);
            if (!tau) {
                return bad("expected a time in seconds " + range_text(L::material_damping_s) +
                           " (at 0.1 s every mode above 3 Hz is overdamped)");
            }
            options.material_damping_s = *tau;
        } else if (flag == "--wobble-damping") {
            std::optional<float> d = real_in(value, L::damping_per_s);
            if (!d) {
                return bad("expected a rate per second " + range_text(L::damping_per_s));
            }
            options.wobble_damping_per_s = *d;
        } else if (flag == "--threads") {
            const Range<int> range = cpu_thread_range();
            std::optional<int> n = integer_in(value, range);
            if (!n) {
                return bad("expected an integer " + range_text(range) + ": this machine has " +
                           std::to_string(range.max) +
                           " hardware threads, more only wait on each other");
            }
            options.threads = *n;
        } else if (flag == "--simd") {
            if (!tet_block_kernel_named(value)) {
                const bool known = value == "avx512" || value == "avx2" || value == "sse2";
                return bad(std::string(known ? "this CPU does not run it" : "unknown kernel") +
                           "; expected " + available_tet_block_kernel_names());
            }
            options.simd = value;
        } else if (flag == "--json") {
            options.json_path = value;
        } else if (flag == "--bench-meshes") {
            options.bench_meshes = value;
        } else if (flag == "--stats") {
            options.stats_path = value;
        } else if (flag == "--dump-positions") {
            options.dump_positions_path = value;
        } else if (flag == "--method") {
            if (value == "gauss-seidel") {
                options.method = SolverMethod::gauss_seidel;
            } else if (value == "jacobi") {
                options.method = SolverMethod::jacobi;
            } else {
                return bad("expected gauss-seidel or jacobi");
            }
        } else if (flag == "--mesh") {
            options.mesh_path = value;
        } else if (flag == "--resolution") {
            std::optional<int> n = integer_in(value, L::mesh_resolution);
            if (!n) {
                return bad("expected an integer " + range_text(L::mesh_resolution) +
                           ": above " + std::to_string(L::mesh_resolution.max) +
                           " the body has more than ~" +
                           std::to_string(L::max_tets_at_max_resolution) +
                           " tets on the bunny (64 took 5 CPU-s to fill and runs at seconds per frame)");
            }
            options.mesh_resolution = *n;
        } else if (flag == "--drag") {
            Result<DragSpec> drag = parse_drag(value);
            if (!drag) {
                return fail(drag.error());
            }
            options.drags.push_back(drag.value());
        } else if (flag == "--grab-stiffness") {
            std::optional<float> k = real_in(value, L::grab_stiffness_n_per_m);
            if (!k) {
                return bad("expected newtons per metre " + range_text(L::grab_stiffness_n_per_m));
            }
            options.grab_stiffness_n_per_m = *k;
        } else if (flag == "--screenshot") {
            options.screenshot_path = value;
        } else if (flag == "--view") {
            std::optional<BodyView> view = body_view_from_name(value);
            if (!view) {
                return bad(std::string("expected ") + kBodyViewNames);
            }
            options.view = *view;
            options.view_given = true;
        } else if (flag == "--size") {
            const size_t x = value.find('x');
            std::optional<int> w = integer_in(value.substr(0, x), L::image_side_px);
            std::optional<int> h = x == std::string::npos
                                       ? std::nullopt
                                       : integer_in(value.substr(x + 1), L::image_side_px);
            if (!w || !h) {
                return bad("expected WIDTHxHEIGHT, each side " + range_text(L::image_side_px) +
                           " pixels (8192 x 8192 took 42 s and 3 GB to render)");
            }
            options.size = glm::ivec2(*w, *h);
            options.size_given = true;
        }
    }
    if (!options.scene.empty() && (options.preset_given || !options.mesh_path.empty())) {
        return fail("--scene '" + options.scene + "' and " +
                    (options.preset_given ? "--preset" : "a mesh file") +
                    " both name what to simulate: give one");
    }
    if (options.solver == "auto" && (options.headless || options.bench)) {
        return fail("--solver auto is the window's (it times both solvers on the first world "
                    "and runs the faster): headless runs and --bench take cpu or gpu");
    }
    if (!options.bench) {
        if (options.solver == "both") {
            return fail("--solver both needs --bench");
        }

        if (!options.json_path.empty()) {
            return fail("--json needs --bench (--stats writes a run's figures)");
        }
        if (options.bench_meshes != "all") {
            return fail("--bench-meshes needs --bench");
        }
        if (options.bench_profile) {
            return fail("--bench-profile needs --bench");
        }
    } else if (options.frames == 0) {
        return fail("--frames 0: the benchmark needs at least one timed frame");
    }
    return options;
}

int Options::threads_or_default() const
{
    return threads.value_or(default_thread_count());
}

TetBlockKernelInfo Options::tet_kernel_or_default() const
{
    if (!simd.empty()) {
        if (std::optional<TetBlockKernelInfo> named = tet_block_kernel_named(simd)) {
            return *named;
        }
    }
    return available_tet_block_kernels().front();
}

SimParams params_for_world(const Options& options, const World& world)
{
    SimParams params = params_from_options(options);
    apply_world_settings(world, params);
    for (BodyMaterial& material : params.body_materials) {
        if (options.youngs_modulus_pa) material.youngs_modulus_pa = *options.youngs_modulus_pa;
        if (options.poisson_ratio) material.poisson_ratio = *options.poisson_ratio;
    }
    return params;
}

SimParams params_from_options(const Options& options)
{
    SimParams params;
    params.youngs_modulus_pa = options.mesh_path.empty()
                                   ? preset_info(options.preset).suggested_youngs_pa
                                   : kLoadedBodyYoungsPa;
    if (options.youngs_modulus_pa) params.youngs_modulus_pa = *options.youngs_modulus_pa;
    if (options.poisson_ratio) params.poisson_ratio = *options.poisson_ratio;
    if (options.damping_per_s) params.air_damping_per_s = *options.damping_per_s;
    if (options.material_damping_s) params.material_damping_s = *options.material_damping_s;
    if (options.wobble_damping_per_s) params.wobble_damping_per_s = *options.wobble_damping_per_s;
    if (options.substeps) params.substeps = *options.substeps;
    if (options.iterations) params.iterations = *options.iterations;
    if (options.method) params.method = *options.method;
    return params;
}

Result<bool> check_output_paths(const Options& options)
{
    const std::pair<const char*, const std::string*> outputs[] = {
        {"--stats", &options.stats_path},
        {"--dump-positions", &options.dump_positions_path},
        {"--screenshot", &options.screenshot_path},
        {"--json", &options.json_path},
    };
    for (const auto& [flag, path] : outputs) {
        if (path->empty()) {
            continue;  // not asked for (an empty value is refused by the parser)
        }
        if (Result<bool> writable = check_writable_path(*path); !writable) {
            return Result<bool>::failure(std::string(flag) + " '" + *path +
                                         "': " + writable.error());
        }
    }
    return true;
}

std::string describe_run(const Options& options)
{
    std::ostringstream out;
    if (options.bench) {
        out << "benchmark of " << options.bench_meshes << " on the "
            << options.solver.value_or("both") << " solver(s)";
        return out.str();
    }
    if (!options.scene.empty()) {
        out << "scene " << options.scene;
    } else if (options.mesh_path.empty()) {
        out << "preset " << preset_info(options.preset).name;
    } else {
        out << "mesh '" << options.mesh_path << "' at resolution " << options.mesh_resolution;
    }
    out << ", " << options.solver_or_default() << " solver, ";
    if (options.headless) {
        out << options.frames_or_default() << " frames headless";
    } else {
        out << "window";
    }
    return out.str();
}
