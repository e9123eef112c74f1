#include "app/stats_json.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace {

// JSON has no NaN or infinity: a blown-up run reports null, not invalid JSON.
std::string number(double value)
{
    if (!std::isfinite(value)) {
        return "null";
    }
    std::ostringstream out;
    out.precision(9);
    out << value;
    return out.str();
}

// A JSON string literal: quotes, backslashes and control characters escaped
// (the preset field may be a file path).
std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

}  // namespace

std::string report_to_json(const RunReport& r)
{
    const SimStats& s = r.stats;
    std::ostringstream out;
    out << "{\n"
        << "  \"preset\": " << quoted(r.preset) << ",\n"
        << "  \"solver\": " << quoted(r.solver) << ",\n"
        << "  \"vertices\": " << r.vertices << ",\n"
        << "  \"tets\": " << r.tets << ",\n"
        << "  \"frames\": " << r.frames << ",\n"
        << "  \"method\": " << quoted(solver_method_name(r.params.method)) << ",\n"
        << "  \"substeps\": " << r.params.substeps << ",\n"
        << "  \"iterations\": " << r.params.iterations << ",\n"
        << "  \"youngs_modulus_pa\": " << number(r.params.youngs_modulus_pa) << ",\n"
        << "  \"poisson_ratio\": " << number(r.params.poisson_ratio) << ",\n"
        << "  \"ms_per_frame\": " << number(r.ms_per_frame) << ",\n"
        << "  \"min_y\": " << number(s.min_y_m) << ",\n"
        << "  \"max_y\": " << number(s.max_y_m) << ",\n"
        << "  \"centroid\": [" << number(s.centroid_m.x) << ", " << number(s.centroid_m.y)
        << ", " << number(s.centroid_m.z) << "],\n"
        << "  \"inverted_tets\": " << s.inverted_tets << ",\n"
        << "  \"nan_count\": " << s.nan_count << ",\n"
        << "  \"max_speed\": " << number(s.max_speed_m_s) << ",\n"
        << "  \"centroid_speed\": " << number(s.centroid_speed_m_s) << ",\n"
        << "  \"mean_residual\": "
        << (r.mean_residual ? number(*r.mean_residual) : std::string("null")) << "\n"
        << "}\n";
    return out.str();
}
