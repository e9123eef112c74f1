#include "app/stats_json.h"

#include "app/json_text.h"

#include <sstream>

std::string report_to_json(const RunReport& r)
{
    const SimStats& s = r.stats;
    std::ostringstream out;
    out << "{\n"
        << "  \"preset\": " << json_string(r.preset) << ",\n"
        << "  \"solver\": " << json_string(r.solver) << ",\n"
        << "  \"vertices\": " << r.vertices << ",\n"
        << "  \"tets\": " << r.tets << ",\n"
        << "  \"frames\": " << r.frames << ",\n"
        << "  \"diverged\": " << (r.diverged ? "true" : "false") << ",\n"
        << "  \"method\": " << json_string(solver_method_name(r.params.method)) << ",\n"
        << "  \"substeps\": " << r.params.substeps << ",\n"
        << "  \"iterations\": " << r.params.iterations << ",\n"
        << "  \"youngs_modulus_pa\": " << json_number(r.params.youngs_modulus_pa) << ",\n"
        << "  \"poisson_ratio\": " << json_number(r.params.poisson_ratio) << ",\n"
        << "  \"ms_per_frame\": " << json_number(r.ms_per_frame) << ",\n"
        << "  \"min_y\": " << json_number(s.min_y_m) << ",\n"
        << "  \"max_y\": " << json_number(s.max_y_m) << ",\n"
        << "  \"centroid\": [" << json_number(s.centroid_m.x) << ", " << json_number(s.centroid_m.y)
        << ", " << json_number(s.centroid_m.z) << "],\n"
        << "  \"inverted_tets\": " << s.inverted_tets << ",\n"
        << "  \"nan_count\": " << s.nan_count << ",\n"
        << "  \"max_speed\": " << json_number(s.max_speed_m_s) << ",\n"
        << "  \"centroid_speed\": " << json_number(s.centroid_speed_m_s) << ",\n"
        << "  \"mean_residual\": "
        << (r.mean_residual ? json_number(*r.mean_residual) : std::string("null")) << "\n"
        << "}\n";
    return out.str();
}
