#include "app/bench_report.h"

#include <nlohmann/json.hpp>

#include <cstdio>

double BenchRow::tet_solves_per_s() const
{
    if (ms_per_frame <= 0.0) {
        return 0.0;
    }
    return static_cast<double>(tets) * substeps * iterations / (ms_per_frame * 1e-3);
}

namespace {

std::string format(const char* pattern, auto... values)
{
    char text[256];
    std::snprintf(text, sizeof text, pattern, values...);
    return text;
}

std::string pass_columns(const std::optional<PassTimes>& p)
{
    if (!p) {
        return format("%8s %8s %8s %8s %8s %8s %8s", "-", "-", "-", "-", "-", "-", "-");
    }
    return format("%8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f", p->predict_ms, p->solve_ms,
                  p->apply_ms + p->grab_ms, p->contact_find_ms, p->contact_solve_ms,
                  p->velocity_ms, p->normals_ms + p->other_ms);
}

// ordered_json keeps the keys in the order written here.
nlohmann::ordered_json row_json(const BenchRow& r, const std::string& machine)
{
    nlohmann::ordered_json row;
    row["mesh"] = r.mesh;
    row["solver"] = r.solver;
    row["method"] = r.method;
    row["simd"] = r.simd;
    row["threads"] = r.threads;
    row["ran_on_one_thread"] = r.ran_on_one_thread;
    row["vertices"] = r.vertices;
    row["tets"] = r.tets;
    row["substeps"] = r.substeps;
    row["iterations"] = r.iterations;
    row["frames"] = r.frames;
    row["ms_per_frame"] = r.ms_per_frame;
    row["ms_p10"] = r.ms_p10;
    row["ms_p90"] = r.ms_p90;
    row["tet_solves_per_s"] = r.tet_solves_per_s();
    row["frame_clock"] = r.frame_clock;
    row["bytes_per_tet"] = r.bytes_per_tet;
    if (r.dispatches_per_frame) {
        row["dispatches_per_frame"] = *r.dispatches_per_frame;
    }
    if (!r.tet_pass.empty()) {
        row["tet_pass"] = r.tet_pass;
    }
    row["machine"] = machine;
    if (r.passes) {
        const PassTimes& p = *r.passes;
        row["passes_ms"] = {{"predict", p.predict_ms},
                            {"solve", p.solve_ms},
                            {"apply", p.apply_ms},
                            {"contact_find", p.contact_find_ms},
                            {"contact_solve", p.contact_solve_ms},
                            {"grab", p.grab_ms},
                            {"velocity", p.velocity_ms},
                            {"normals", p.normals_ms},
                            {"other", p.other_ms},
                            {"clock", p.clock}};
    }
    if (!r.profile.empty()) {
        nlohmann::ordered_json programs = nlohmann::ordered_json::array();
        for (const ProgramTime& program : r.profile) {
            programs.push_back({{"program", program.program},
                                {"ms_per_frame", program.ms_per_frame},
                                {"dispatches_per_frame", program.dispatches_per_frame}});
        }
        row["profile"] = programs;
    }
    return row;
}

}  // namespace

std::string bench_table(const std::vector<BenchRow>& rows)
{
    std::string text =
        format("%-13s %-6s %-12s %-6s %3s %7s %7s %6s %9s %17s %9s %6s %6s | %8s %8s %8s %8s "
               "%8s %8s %8s  %s\n",
               "mesh", "solver", "method", "simd", "thr", "verts", "tets", "frames", "ms/frame",
               "p10..p90 ms", "M solve/s", "B/tet", "disp", "predict", "solve", "apply",
               "c.find", "c.solve", "velocity", "normals", "frame clock");
    for (const BenchRow& r : rows) {
        const std::string dispatches =
            r.dispatches_per_frame ? std::to_string(*r.dispatches_per_frame) : "-";
        text += format("%-13s %-6s %-12s %-6s %3d %7zu %7zu %6d %9.2f %8.2f..%-8.2f %9.2f %6.0f "
                       "%6s | ",
                       r.mesh.c_str(), r.solver.c_str(), r.method.c_str(), r.simd.c_str(),
                       r.ran_on_one_thread ? 1 : r.threads, r.vertices, r.tets, r.frames,
                       r.ms_per_frame, r.ms_p10, r.ms_p90, r.tet_solves_per_s() * 1e-6,
                       r.bytes_per_tet, dispatches.c_str());
        text += pass_columns(r.passes) + "  " + r.frame_clock + "\n";
    }
    for (const BenchRow& r : rows) {
        if (r.ran_on_one_thread) {
            text += "thr 1 in a row of --threads " + std::to_string(r.threads) +
                    ": the team timed slower than one thread (busy cores) and stepped aside.\n";
            break;
        }
    }
    text += "M solve/s: million tet solves (shape + volume) per second = tets x substeps x "
            "iterations / median frame.\nB/tet: memory per tet (CPU: the heap the world and the "
            "solver hold; GPU: the solver's buffers). disp: compute dispatches per frame.\nPass "
            "columns: ms per frame, mean over extra frames "
            "timed pass by pass (";
    bool first = true;
    for (const BenchRow& r : rows) {
        if (r.passes && text.find(r.solver + ": " + r.passes->clock) == std::string::npos) {
            text += (first ? "" : "; ") + r.solver + ": " + r.passes->clock;
            first = false;
        }
    }
    text += "); apply includes the grab, velocity the material damping, normals the rest of "
            "the frame; c.find and c.solve are the body contacts' search (per substep) and "
            "steps (per iteration).\n";
    for (const BenchRow& r : rows) {
        if (r.profile.empty()) {
            continue;
        }
        text += format("profile of %s, %s on the %s, ms a frame (dispatches a frame), a GL "
                       "timestamp after every dispatch:\n",
                       r.mesh.c_str(), r.method.c_str(), r.solver.c_str());
        constexpr size_t kShown = 10;
        double rest_ms = 0.0;
        for (size_t i = 0; i < r.profile.size(); ++i) {
            const ProgramTime& p = r.profile[i];
            if (i < kShown) {
                text += format("  %-36s %8.3f (%g)\n", p.program.c_str(), p.ms_per_frame,
                               p.dispatches_per_frame);
            } else {
                rest_ms += p.ms_per_frame;
            }
        }
        if (r.profile.size() > kShown) {
            text += format("  %-36s %8.3f\n", "the others", rest_ms);
        }
    }
    return text;
}

std::string bench_json(const std::vector<BenchRow>& rows, const std::string& machine)
{
    // One row per line, as in the table on the screen (and so a row per
    // line in a diff), each row a compact object.
    std::string text = "[\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        // The machine's name comes from the CPU and the GL driver: replace
        // what is not UTF-8 rather than throw (dump's default) after the runs.
        const nlohmann::ordered_json row = row_json(rows[i], machine);
        text += "  " + row.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        text += i + 1 < rows.size() ? ",\n" : "\n";
    }
    return text + "]\n";
}
