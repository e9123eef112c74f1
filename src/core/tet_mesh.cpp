#include "core/tet_mesh.h"

#include "core/tet_coloring.h"
#include "core/tet_math.h"
#include "core/tet_repair.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace {

// Relative size, against the bounding box volume, below which a tet counts as
// degenerate (DESIGN.md 1.1).
constexpr double kDegenerateVolumeFraction = 1e-12;

// Tet t's rest edges from corner 0 (Dm), in double.
glm::dmat3 rest_edges(const TetMesh& mesh, size_t t)
{
    const glm::uvec4& tet = mesh.tets[t];
    const glm::dvec3 x0(mesh.rest_positions[tet.x]);
    return glm::dmat3(glm::dvec3(mesh.rest_positions[tet.y]) - x0,
                      glm::dvec3(mesh.rest_positions[tet.z]) - x0,
                      glm::dvec3(mesh.rest_positions[tet.w]) - x0);
}

std::string prefix(const TetMeshDesc& desc)
{
    return "mesh '" + (desc.name.empty() ? std::string("unnamed") : desc.name) + "': ";
}

double signed_rest_volume(const std::vector<glm::vec3>& x, const glm::uvec4& t)
{
    glm::dvec3 x0(x[t.x]);
    glm::dmat3 Dm(glm::dvec3(x[t.y]) - x0, glm::dvec3(x[t.z]) - x0, glm::dvec3(x[t.w]) - x0);
    return glm::determinant(Dm) / 6.0;
}

}  // namespace

Csr build_csr(size_t rows, const std::vector<uint32_t>& row_of_entry)
{
    Csr csr;
    csr.offsets.assign(rows + 1, 0);
    for (uint32_t row : row_of_entry) {
        ++csr.offsets[row + 1];
    }
    std::partial_sum(csr.offsets.begin(), csr.offsets.end(), csr.offsets.begin());
    csr.entries.resize(row_of_entry.size());
    std::vector<uint32_t> cursor(csr.offsets.begin(), csr.offsets.end() - 1);
    for (uint32_t entry = 0; entry < row_of_entry.size(); ++entry) {
        csr.entries[cursor[row_of_entry[entry]]++] = entry;
    }
    return csr;
}

std::vector<glm::uvec3> boundary_triangles(const std::vector<glm::uvec4>& tets)
{
    struct Face {
        std::array<uint32_t, 3> key;
        glm::uvec3 oriented;
    };
    std::vector<Face> faces;
    faces.reserve(tets.size() * 4);
    for (const glm::uvec4& t : tets) {
        const glm::uvec3 outward[4] = {
            {t.y, t.z, t.w}, {t.x, t.w, t.z}, {t.x, t.y, t.w}, {t.x, t.z, t.y}};
        for (const glm::uvec3& f : outward) {
            std::array<uint32_t, 3> key = {f.x, f.y, f.z};
            std::sort(key.begin(), key.end());
            faces.push_back({key, f});
        }
    }
    std::sort(faces.begin(), faces.end(),
              [](const Face& a, const Face& b) { return a.key < b.key; });
    std::vector<glm::uvec3> surface;
    for (size_t i = 0; i < faces.size();) {
        size_t j = i + 1;
        while (j < faces.size() && faces[j].key == faces[i].key) {
            ++j;
        }
        if (j - i == 1) {
            surface.push_back(faces[i].oriented);
        }
        i = j;
    }
    return surface;
}

std::string dropped_tets_warning(const TetMesh& mesh)
{
    std::string dropped;
    if (mesh.dropped_duplicate_tets > 0) {
        dropped = std::to_string(mesh.dropped_duplicate_tets) +
                  " repeated tets (the same four vertices as an earlier tet)";
    }
    if (mesh.dropped_degenerate_tets > 0) {
        dropped += (dropped.empty() ? "" : " and ") +
                   std::to_string(mesh.dropped_degenerate_tets) + " tets without volume";
    }
    if (dropped.empty()) {
        return dropped;
    }
    return "mesh '" + (mesh.name.empty() ? std::string("unnamed") : mesh.name) + "': dropped " +
           dropped;
}

double TetMesh::mean_surface_edge_m(size_t first_triangle, size_t triangle_count) const
{
    double sum = 0.0;
    size_t count = 0;
    for (size_t f = first_triangle; f < first_triangle + triangle_count; ++f) {
        const glm::uvec3& t = surface_triangles[f];
        for (int a = 0; a < 3; ++a) {
            sum += glm::length(rest_positions[t[a]] - rest_positions[t[(a + 1) % 3]]);
            ++count;
        }
    }
    return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

double TetMesh::total_rest_volume_m3() const
{
    double sum = 0.0;
    for (float v : rest_volumes_m3) {
        sum += v;
    }
    return sum;
}

glm::mat3 inv_rest_shape(const TetMesh& mesh, size_t t)
{
    return glm::mat3(glm::inverse(rest_edges(mesh, t)));
}

bool is_sliver(const TetMesh& mesh, size_t t)
{
    return tet_math::tm_is_sliver(glm::mat3(rest_edges(mesh, t)));
}

Csr vertex_tet_corners(const TetMesh& mesh)
{
    std::vector<uint32_t> vertex_of_slot(mesh.tet_count() * 4);
    for (size_t t = 0; t < mesh.tet_count(); ++t) {
        for (int a = 0; a < 4; ++a) {
            vertex_of_slot[t * 4 + a] = mesh.tets[t][a];
        }
    }
    return build_csr(mesh.vertex_count(), vertex_of_slot);
}

float max_corner_valence(const Csr& corners, const glm::uvec4& tet)
{
    uint32_t most = 0;
    for (int a = 0; a < 4; ++a) {
        most = std::max(most, corners.end(tet[a]) - corners.begin(tet[a]));
    }
    return static_cast<float>(most);
}

float jacobi_weight(float k, float max_corner_valence)
{
    return std::clamp(k / std::max(max_corner_valence, 1.0f), 0.08f, 0.5f);
}

std::vector<float> inverse_masses(const TetMesh& mesh, float density_kg_m3)
{
    return inverse_masses(mesh, std::vector<float>(mesh.vertex_count(), density_kg_m3));
}

std::vector<float> inverse_masses(const TetMesh& mesh, const std::vector<float>& densities_kg_m3)
{
    std::vector<float> w(mesh.vertex_count());
    for (size_t v = 0; v < w.size(); ++v) {
        // (1 / V) / rho, in this order, as it always was.
        w[v] = mesh.pinned[v] ? 0.0f : (1.0f / mesh.lumped_volumes_m3[v]) / densities_kg_m3[v];
    }
    return w;
}

Result<TetMesh> prepare_tet_mesh(const TetMeshDesc& desc, LoadProgress* progress)
{
    enter_stage(progress, kPreparingStage);
    // Between steps: how far, and whether to go on. The fractions are where
    // each step ended on a 416k-tet mesh (1.3 s in all; finding the boundary
    // faces took 83% of it, the colours 13%).
    const auto step_done = [&](double fraction) {
        report_progress(progress, fraction);
        return !load_cancelled(progress);
    };
    const auto cancelled = [&] {
        return Result<TetMesh>::failure(load_cancelled_message(desc.name));
    };
    const size_t nv_in = desc.positions.size();
    if (nv_in == 0 || desc.tets.empty()) {
        return Result<TetMesh>::failure(prefix(desc) + "has no " +
                                        (nv_in == 0 ? "vertices" : "tetrahedra"));
    }

    // 1. Validation.
    glm::dvec3 lo(desc.positions[0]);
    glm::dvec3 hi(desc.positions[0]);
    for (size_t v = 0; v < nv_in; ++v) {
        const glm::vec3& p = desc.positions[v];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            return Result<TetMesh>::failure(prefix(desc) + "vertex " + std::to_string(v) +
                                            " has a non-finite coordinate");
        }
        lo = glm::min(lo, glm::dvec3(p));
        hi = glm::max(hi, glm::dvec3(p));
    }
    for (size_t t = 0; t < desc.tets.size(); ++t) {
        const glm::uvec4& tet = desc.tets[t];
        for (int a = 0; a < 4; ++a) {
            if (tet[a] >= nv_in) {
                return Result<TetMesh>::failure(
                    prefix(desc) + "tet " + std::to_string(t) + " uses vertex " +
                    std::to_string(tet[a]) + ", out of range (" + std::to_string(nv_in) +
                    " vertices)");
            }
            for (int b = 0; b < a; ++b) {
                if (tet[a] == tet[b]) {
                    return Result<TetMesh>::failure(prefix(desc) + "tet " + std::to_string(t) +
                                                    " repeats vertex " + std::to_string(tet[a]));
                }
            }
        }
    }
    for (uint32_t v : desc.pinned_vertices) {
        if (v >= nv_in) {
            return Result<TetMesh>::failure(prefix(desc) + "pinned vertex " + std::to_string(v) +
                                            " is out of range");
        }
    }

    if (!step_done(0.01)) return cancelled();

    // 2. Orientation; drop repeated and degenerate tets.
    const glm::dvec3 extent = hi - lo;
    const double min_volume = kDegenerateVolumeFraction * extent.x * extent.y * extent.z;
    TetMesh mesh;
    mesh.name = desc.name;
    mesh.skin = desc.skin;
    std::vector<glm::uvec4> kept;
    kept.reserve(desc.tets.size());
    const std::vector<uint8_t> repeated = repeated_tets(desc.tets);
    for (size_t t = 0; t < desc.tets.size(); ++t) {
        const glm::uvec4& tet = desc.tets[t];
        if (repeated[t]) {
            ++mesh.dropped_duplicate_tets;
            continue;
        }
        double volume = signed_rest_volume(desc.positions, tet);
        if (!(std::abs(volume) > min_volume)) {
            ++mesh.dropped_degenerate_tets;
            continue;
        }
        kept.push_back(volume < 0.0 ? glm::uvec4(tet.x, tet.y, tet.w, tet.z) : tet);
    }
    if (kept.empty()) {
        return Result<TetMesh>::failure(prefix(desc) + "all " + std::to_string(desc.tets.size()) +
                                        " tetrahedra are degenerate (no volume)");
    }

    // Remove vertices that no tet uses, keeping the order of the rest.
    std::vector<uint32_t> new_index(nv_in, UINT32_MAX);
    for (const glm::uvec4& tet : kept) {
        for (int a = 0; a < 4; ++a) {
            new_index[tet[a]] = 0;
        }
    }
    for (uint32_t v = 0; v < nv_in; ++v) {
        if (new_index[v] == 0) {
            new_index[v] = static_cast<uint32_t>(mesh.rest_positions.size());
            mesh.rest_positions.push_back(desc.positions[v]);
            mesh.source_vertex.push_back(v);
        }
    }
    const size_t nv = mesh.rest_positions.size();
    mesh.tets.reserve(kept.size());
    for (const glm::uvec4& tet : kept) {
        mesh.tets.emplace_back(new_index[tet.x], new_index[tet.y], new_index[tet.z],
                               new_index[tet.w]);
    }
    mesh.pinned.assign(nv, 0);
    for (uint32_t v : desc.pinned_vertices) {
        if (new_index[v] != UINT32_MAX) {
            mesh.pinned[new_index[v]] = 1;
        }
    }

    if (!step_done(0.03)) return cancelled();

    // 3.-4. Rest volumes and lumped volumes (mass = density * lumped volume).
    const size_t nt = mesh.tets.size();
    mesh.rest_volumes_m3.resize(nt);
    mesh.lumped_volumes_m3.assign(nv, 0.0f);
    for (size_t t = 0; t < nt; ++t) {
        const glm::uvec4& tet = mesh.tets[t];
        const double volume = glm::determinant(rest_edges(mesh, t)) / 6.0;
        mesh.rest_volumes_m3[t] = static_cast<float>(volume);
        for (int a = 0; a < 4; ++a) {
            mesh.lumped_volumes_m3[tet[a]] += static_cast<float>(volume / 4.0);
        }
    }

    if (!step_done(0.04)) return cancelled();

    // 5. Boundary surface.
    mesh.surface_triangles = boundary_triangles(mesh.tets);

    if (!step_done(0.86)) return cancelled();

    // 6. Adjacency of the surface: each vertex's triangles.
    std::vector<uint32_t> triangle_rows;
    for (uint32_t f = 0; f < mesh.surface_triangles.size(); ++f) {
        for (int a = 0; a < 3; ++a) {
            triangle_rows.push_back(mesh.surface_triangles[f][a]);
        }
    }
    Csr corners = build_csr(nv, triangle_rows);
    // Entries are triangle corners (f * 3 + a); the normal gather wants faces.
    for (uint32_t& e : corners.entries) {
        e /= 3;
    }
    mesh.vertex_triangles = std::move(corners);

    if (!step_done(0.87)) return cancelled();

    // 7. Colours for the Gauss-Seidel solver: region by region where the
    // GPU would otherwise pass colour by colour, else (or if that needs
    // more colours than allowed) greedily in tet order.
    if (nt >= kRegionSweepMinTets) {
        Result<TetColoring> by_region = color_tets_by_region(
            mesh.tets, mesh.rest_positions,
            region_side_for(mesh.total_rest_volume_m3(), nt, kTetsPerRegion));
        if (by_region) {
            mesh.tet_colors = std::move(by_region.value().colors);
            mesh.region_sweeps = std::move(by_region.value().sweeps);
            report_progress(progress, 1.0);
            return mesh;
        }
    }
    Result<Csr> colors = color_tets(mesh.tets, nv);
    if (!colors) {
        // The colours needed are at least the most tets at one vertex.
        std::vector<uint32_t> valence(nv, 0u);
        for (const glm::uvec4& tet : mesh.tets) {
            for (int a = 0; a < 4; ++a) ++valence[tet[a]];
        }
        const size_t crowded = static_cast<size_t>(
            std::max_element(valence.begin(), valence.end()) - valence.begin());
        return Result<TetMesh>::failure(
            prefix(desc) + "vertex " + std::to_string(mesh.source_vertex[crowded]) +
            " is shared by " + std::to_string(valence[crowded]) +
            " tets, and tets that share a vertex need colours of their own: the mesh " +
            colors.error() + ", at most " + std::to_string(kMaxTetColors) +
            " are allowed, one solver pass each per iteration");
    }
    mesh.tet_colors = std::move(colors).value();
    report_progress(progress, 1.0);
    return mesh;
}
