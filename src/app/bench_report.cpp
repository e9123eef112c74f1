#include "app/bench_report.h"

#include "app/json_text.h"

#include <cstdio>
#include <sstream>

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
        return format("%8s %8s %8s %8s %8s", "-", "-", "-", "-", "-");
    }
    return format("%8.2f %8.2f %8.2f %8.2f %8.2f", p->predict_ms, p->solve_ms,
                  p->apply_ms + p->grab_ms, p->velocity_ms, p->normals_ms + p->other_ms);
}

}  // namespace

std::string bench_table(const std::vector<BenchRow>& rows)
{
    std::string text =
        format("%-13s %-6s %-12s %-6s %3s %7s %7s %6s %9s %17s %9s | %8s %8s %8s %8s %8s  %s\n",
               "mesh", "solver", "method", "simd", "thr", "verts", "tets", "frames", "ms/frame",
               "p10..p90 ms", "M solve/s", "predict", "solve", "apply", "velocity", "normals",
               "frame clock");
    for (const BenchRow& r : rows) {
        text += format("%-13s %-6s %-12s %-6s %3d %7zu %7zu %6d %9.2f %8.2f..%-8.2f %9.2f | ",
                       r.mesh.c_str(), r.solver.c_str(), r.method.c_str(), r.simd.c_str(),
                       r.threads, r.vertices, r.tets, r.frames, r.ms_per_frame, r.ms_p10, r.ms_p90,
                       r.tet_solves_per_s() * 1e-6);
        text += pass_columns(r.passes) + "  " + r.frame_clock + "\n";
    }
    text += "M solve/s: million tet solves (shape + volume) per second = tets x substeps x "
            "iterations / median frame.\nPass columns: ms per frame, mean over extra frames "
            "timed pass by pass (";
    bool first = true;
    for (const BenchRow& r : rows) {
        if (r.passes && text.find(r.solver + ": " + r.passes->clock) == std::string::npos) {
            text += (first ? "" : "; ") + r.solver + ": " + r.passes->clock;
            first = false;
        }
    }
    text += "); apply includes the grab, normals the rest of the frame.\n";
    return text;
}

std::string bench_json(const std::vector<BenchRow>& rows, const std::string& machine)
{
    std::ostringstream out;
    out << "[\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        const BenchRow& r = rows[i];
        out << "  {\"mesh\": " << json_string(r.mesh) << ", \"solver\": " << json_string(r.solver)
            << ", \"method\": " << json_string(r.method) << ", \"simd\": " << json_string(r.simd)
            << ", \"threads\": " << r.threads
            << ", \"vertices\": " << r.vertices << ", \"tets\": " << r.tets
            << ", \"substeps\": " << r.substeps << ", \"iterations\": " << r.iterations
            << ", \"frames\": " << r.frames
            << ", \"ms_per_frame\": " << json_number(r.ms_per_frame)
            << ", \"ms_p10\": " << json_number(r.ms_p10)
            << ", \"ms_p90\": " << json_number(r.ms_p90)
            << ", \"tet_solves_per_s\": " << json_number(r.tet_solves_per_s())
            << ", \"frame_clock\": " << json_string(r.frame_clock)
            << ", \"machine\": " << json_string(machine);
        if (r.passes) {
            const PassTimes& p = *r.passes;
            out << ", \"passes_ms\": {\"predict\": " << json_number(p.predict_ms)
                << ", \"solve\": " << json_number(p.solve_ms)
                << ", \"apply\": " << json_number(p.apply_ms)
                << ", \"grab\": " << json_number(p.grab_ms)
                << ", \"velocity\": " << json_number(p.velocity_ms)
                << ", \"normals\": " << json_number(p.normals_ms)
                << ", \"other\": " << json_number(p.other_ms)
                << ", \"clock\": " << json_string(p.clock) << "}";
        }
        out << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "]\n";
    return out.str();
}
