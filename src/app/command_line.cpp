#include "app/command_line.h"

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

constexpr int kMaxThreads = 256;

std::string preset_names()
{
    std::string names;
    for (const Preset& p : all_presets()) {
        names += (names.empty() ? "" : "|") + std::string(p.name);
    }
    return names;
}

}  // namespace

std::string usage_text()
{
    std::ostringstream out;
    out << "usage: softbody [options] [MESH_FILE]             open the window\n"
           "       softbody --headless [options]              simulate without a window\n"
           "       softbody --bench [options]                 time the solvers, print a table\n"
           "\n"
           "Real-time tetrahedral XPBD soft bodies.\n"
           "\n"
           "  --headless              run without a window, print a summary, exit\n"
           "  --solver cpu|gpu        solver (default: gpu in the window, cpu headless);\n"
           "                          headless gpu runs in a surfaceless EGL context\n"
           "  --preset NAME           body: "
        << preset_names()
        << " (default bunny)\n"
           "  --mesh FILE             simulate a mesh file instead: .obj (tetrahedralized),\n"
           "                          .node/.ele (TetGen) or .tet; also as the last argument\n"
           "  --resolution N          OBJ tetrahedralization: cells along the longest side,\n"
           "                          2-200 (default 12)\n"
           "  --frames N              frames of 1/60 s to simulate (headless default 300;\n"
           "                          in the window: quit after N frames)\n"
           "  --substeps S            substeps per frame, 1-"
        << ParamLimits::max_substeps
        << " (default 10)\n"
           "  --method NAME           gauss-seidel (default: colour by colour, the\n"
           "                          stiffness you set) or jacobi (DESIGN.md's reference)\n"
           "  --iterations K          iterations per substep, 1-"
        << ParamLimits::max_iterations
        << " (default 8)\n"
           "  --threads N             CPU solver threads (default: every hardware thread;\n"
           "                          results are identical for any N)\n"
           "  --youngs PA             Young's modulus in pascals (default: the preset's)\n"
           "  --poisson NU            Poisson ratio, 0-"
        << ParamLimits::max_poisson
        << " (default 0.3)\n"
           "  --damping PER_S         air damping per second (default 0.1)\n"
           "  --stats FILE.json       write summary figures as JSON\n"
           "  --dump-positions FILE   write the final positions, one 'x y z' line per vertex\n"
           "  --drag S:E:V:DX,DY,DZ   grab vertex V at frame S, move the target linearly to its\n"
           "                          rest position + (DX,DY,DZ) m by frame E, release there\n"
           "                          (repeatable; the same grab as the mouse)\n"
           "  --grab-stiffness N_M    stiffness of the grab in N/m (default 5e4)\n"
           "  --screenshot FILE.png   render the last frame to a PNG (headless: offscreen)\n"
           "  --size WxH              window or screenshot size in pixels (default 1280x720)\n"
           "  --bench                 benchmark: warm up, time frames at the schedule (10 x 8\n"
           "                          unless --substeps/--iterations/--method say otherwise)\n"
           "                          on each mesh and solver, print ms/frame, tet solves\n"
           "                          per second and the per-pass split; --frames N fixes\n"
           "                          the timed frames, --solver cpu|gpu|both (default both)\n"
           "  --bench-meshes LIST     comma-separated: bunny, cube, torus, beam, bunny-2x,\n"
           "                          bunny-4x, lattice-10k, lattice-50k, lattice-200k\n"
           "                          (default all)\n"
           "  --json FILE             with --bench: write the rows as a JSON list\n"
           "  --help                  show this text\n";
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
        static const char* const kValueFlags[] = {
            "--solver", "--preset", "--frames", "--substeps", "--iterations", "--youngs",
            "--poisson", "--damping", "--stats", "--dump-positions", "--screenshot", "--size",
            "--drag", "--grab-stiffness", "--mesh", "--resolution", "--method", "--json",
            "--bench-meshes", "--threads"};
        bool takes_value = false;
        for (const char* known : kValueFlags) {
            takes_value = takes_value || flag == known;
        }
        if (!takes_value) {
            if (!flag.empty() && flag[0] != '-' && options.mesh_path.empty()) {
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

        if (flag == "--solver") {
            if (value != "cpu" && value != "gpu" && value != "both") {
                return bad("expected cpu, gpu or both (both with --bench only)");
            }
            options.solver = value;
        } else if (flag == "--preset") {
            std::optional<PresetId> id = preset_from_name(value);
            if (!id) {
                return bad("unknown preset, expected one of " + preset_names());
            }
            options.preset = *id;
        } else if (flag == "--frames" || flag == "--substeps" || flag == "--iterations") {
            std::optional<long long> n = parse_integer(value);
            const long long lo = flag == "--frames" ? 0 : 1;
            const long long hi = flag == "--frames"     ? 100000000LL
                                 : flag == "--substeps" ? ParamLimits::max_substeps
                                                        : ParamLimits::max_iterations;
            if (!n || *n < lo || *n > hi) {
                return bad("expected an integer from " + std::to_string(lo) + " to " +
                           std::to_string(hi));
            }
            int& target = flag == "--frames"     ? options.frames.emplace()
                          : flag == "--substeps" ? options.substeps.emplace()
                                                 : options.iterations.emplace();
            target = static_cast<int>(*n);
        } else if (flag == "--youngs") {
            std::optional<float> e = parse_real(value);
            if (!e || *e < ParamLimits::min_youngs_pa || *e > ParamLimits::max_youngs_pa) {
                std::ostringstream range;
                range << "expected pascals from " << ParamLimits::min_youngs_pa << " to "
                      << ParamLimits::max_youngs_pa;
                return bad(range.str());
            }
            options.youngs_modulus_pa = *e;
        } else if (flag == "--poisson") {
            std::optional<float> nu = parse_real(value);
            if (!nu || *nu < ParamLimits::min_poisson || *nu > ParamLimits::max_poisson) {
                return bad("expected a ratio from 0 to 0.49");
            }
            options.poisson_ratio = *nu;
        } else if (flag == "--damping") {
            std::optional<float> d = parse_real(value);
            if (!d || *d < 0.0f || *d > ParamLimits::max_damping_per_s) {
                return bad("expected a rate per second from 0 to 100");
            }
            options.damping_per_s = *d;
        } else if (flag == "--threads") {
            std::optional<long long> n = parse_integer(value);
            if (!n || *n < 1 || *n > kMaxThreads) {
                return bad("expected an integer from 1 to " + std::to_string(kMaxThreads));
            }
            options.threads = static_cast<int>(*n);
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
            std::optional<long long> n = parse_integer(value);
            if (!n || *n < 2 || *n > 200) {
                return bad("expected an integer from 2 to 200");
            }
            options.mesh_resolution = static_cast<int>(*n);
        } else if (flag == "--drag") {
            Result<DragSpec> drag = parse_drag(value);
            if (!drag) {
                return fail(drag.error());
            }
            options.drags.push_back(drag.value());
        } else if (flag == "--grab-stiffness") {
            std::optional<float> k = parse_real(value);
            if (!k || *k < 1.0f || *k > 1.0e9f) {
                return bad("expected newtons per metre from 1 to 1e9");
            }
            options.grab_stiffness_n_per_m = *k;
        } else if (flag == "--screenshot") {
            options.screenshot_path = value;
        } else if (flag == "--size") {
            const size_t x = value.find('x');
            std::optional<long long> w = parse_integer(value.substr(0, x));
            std::optional<long long> h =
                x == std::string::npos ? std::nullopt : parse_integer(value.substr(x + 1));
            if (!w || !h || *w < 16 || *h < 16 || *w > 8192 || *h > 8192) {
                return bad("expected WIDTHxHEIGHT, each 16 to 8192 pixels");
            }
            options.size = glm::ivec2(static_cast<int>(*w), static_cast<int>(*h));
        }
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
    } else if (options.frames == 0) {
        return fail("--frames 0: the benchmark needs at least one timed frame");
    }
    return options;
}

int Options::threads_or_default() const
{
    return threads.value_or(default_thread_count());
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
    if (options.substeps) params.substeps = *options.substeps;
    if (options.iterations) params.iterations = *options.iterations;
    if (options.method) params.method = *options.method;
    return params;
}
