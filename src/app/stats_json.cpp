#include "app/stats_json.h"

#include "app/json_numbers.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>

std::string report_to_json(const RunReport& r)
{
    const SimStats& s = r.stats;
    // ordered_json keeps the keys in the order written here.
    nlohmann::ordered_json json;
    json["preset"] = r.preset;
    json["solver"] = r.solver;
    json["vertices"] = r.vertices;
    json["tets"] = r.tets;
    json["frames"] = r.frames;
    json["diverged"] = r.diverged;
    json["method"] = solver_method_name(r.params.method);
    json["substeps"] = r.params.substeps;
    json["iterations"] = r.params.iterations;
    json["youngs_modulus_pa"] = shortest_decimal(r.params.youngs_modulus_pa);
    json["poisson_ratio"] = shortest_decimal(r.params.poisson_ratio);
    json["ms_per_frame"] = r.ms_per_frame;
    json["min_y"] = shortest_decimal(s.min_y_m);
    json["max_y"] = shortest_decimal(s.max_y_m);
    json["centroid"] = {shortest_decimal(s.centroid_m.x), shortest_decimal(s.centroid_m.y),
                        shortest_decimal(s.centroid_m.z)};
    json["inverted_tets"] = s.inverted_tets;
    json["nan_count"] = s.nan_count;
    json["max_speed"] = shortest_decimal(s.max_speed_m_s);
    json["centroid_speed"] = shortest_decimal(s.centroid_speed_m_s);
    const auto triple = [](const glm::dvec3& v) {
        return nlohmann::ordered_json{shortest_decimal(float(v.x)), shortest_decimal(float(v.y)),
                                      shortest_decimal(float(v.z))};
    };
    json["momentum"] = triple(r.momenta.linear);
    json["angular_momentum"] = triple(r.momenta.angular);
    json["kinetic_energy"] = shortest_decimal(float(r.momenta.kinetic_energy_j));
    json["mean_residual"] = nullptr;  // until the solver has iterated once
    if (r.mean_residual) {
        json["mean_residual"] = shortest_decimal(*r.mean_residual);
    }
    nlohmann::ordered_json bodies = nlohmann::ordered_json::array();
    for (const BodyStats& b : r.bodies) {
        nlohmann::ordered_json body;
        body["vertices"] = b.vertices;
        body["tets"] = b.tets;
        body["centroid"] = {shortest_decimal(b.centroid_m.x), shortest_decimal(b.centroid_m.y),
                            shortest_decimal(b.centroid_m.z)};
        body["min_y"] = shortest_decimal(b.min_y_m);
        body["inverted_tets"] = b.inverted_tets;
        bodies.push_back(body);
    }
    json["bodies"] = bodies;
    json["max_penetration_m"] = r.max_penetration_m;
    json["max_penetration_between_bodies_m"] = r.max_penetration_between_bodies_m;
    // A mesh path is whatever bytes the file system holds: replace what is
    // not UTF-8 rather than throw (dump's default) after the whole run.
    return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}
