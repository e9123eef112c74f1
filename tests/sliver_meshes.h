// Meshes with sliver tets, for the inversion tests: four nearly coplanar
// corners, the kind a Delaunay mesher leaves and a user's file brings.
#pragma once

#include "core/lattice.h"
#include "core/tet_mesh.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

// The mean-ratio quality of a tet: 6 sqrt(2) V / l_rms^3, 1 for the regular
// tet, 0 for a flat one, negative when inverted.
inline double tet_mean_ratio(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, glm::dvec3 d)
{
    const double volume = glm::dot(b - a, glm::cross(c - a, d - a)) / 6.0;
    const glm::dvec3 edges[6] = {b - a, c - a, d - a, c - b, d - b, d - c};
    double squares = 0.0;
    for (const glm::dvec3& e : edges) squares += glm::dot(e, e);
    const double l_rms = std::sqrt(squares / 6.0);
    return 6.0 * std::sqrt(2.0) * volume / (l_rms * l_rms * l_rms);
}

inline double tet_mean_ratio(const TetMeshDesc& mesh, size_t t)
{
    const glm::uvec4 tet = mesh.tets[t];
    return tet_mean_ratio(glm::dvec3(mesh.positions[tet.x]), glm::dvec3(mesh.positions[tet.y]),
                          glm::dvec3(mesh.positions[tet.z]), glm::dvec3(mesh.positions[tet.w]));
}

// The cube preset's lattice (0.5 m, 6 cells a side, its lowest face at
// `lowest_y`) with slivers: interior vertices, no two sharing a tet, each
// moved straight towards the opposite face of one of its tets until that
// tet's mean ratio is `sliver_quality`, where no tet around it turns inside
// out. The moves make neighbouring tets thin too (the least mean ratio ends
// a little below `sliver_quality`). Which tet each vertex flattens is
// chosen in turn around it, so the slivers lie every way; deterministic.
inline TetMeshDesc sliver_cube(double sliver_quality, float lowest_y, int* slivers_made)
{
    const glm::vec3 lowest(-0.25f, lowest_y, -0.25f);
    const glm::vec3 size(0.5f);
    const Result<TetMesh> oriented = prepare_tet_mesh(box_lattice(glm::ivec3(6), lowest, size));
    TetMeshDesc mesh;
    mesh.name = "sliver cube";
    mesh.positions = oriented.value().rest_positions;
    mesh.tets = oriented.value().tets;
    std::vector<std::vector<uint32_t>> tets_at(mesh.positions.size());
    for (uint32_t t = 0; t < mesh.tets.size(); ++t) {
        for (int a = 0; a < 4; ++a) tets_at[mesh.tets[t][a]].push_back(t);
    }
    std::set<uint32_t> moved;
    int made = 0;
    for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
        const glm::vec3 start = mesh.positions[v];
        const glm::vec3 from_lowest = start - lowest;
        bool on_boundary = false;
        for (int k = 0; k < 3; ++k) {
            on_boundary = on_boundary || from_lowest[k] < 1e-4f || from_lowest[k] > size[k] - 1e-4f;
        }
        bool next_to_moved = false;
        for (uint32_t t : tets_at[v]) {
            for (int a = 0; a < 4; ++a) next_to_moved = next_to_moved || moved.count(mesh.tets[t][a]);
        }
        if (on_boundary || next_to_moved) continue;
        const uint32_t t = tets_at[v][static_cast<size_t>(made) % tets_at[v].size()];
        glm::dvec3 face[3];
        int k = 0;
        for (int a = 0; a < 4; ++a) {
            if (mesh.tets[t][a] != v) face[k++] = glm::dvec3(mesh.positions[mesh.tets[t][a]]);
        }
        const glm::dvec3 normal = glm::normalize(glm::cross(face[1] - face[0], face[2] - face[0]));
        const double height = glm::dot(glm::dvec3(start) - face[0], normal);
        // Bisect the share of the height taken away.
        double keep_low = 0.0;
        double keep_high = 1.0;
        for (int step = 0; step < 60; ++step) {
            const double share = 0.5 * (keep_low + keep_high);
            mesh.positions[v] = glm::vec3(glm::dvec3(start) - share * height * normal);
            (std::abs(tet_mean_ratio(mesh, t)) > sliver_quality ? keep_low : keep_high) = share;
        }
        mesh.positions[v] = glm::vec3(glm::dvec3(start) - keep_low * height * normal);
        const bool all_positive = std::all_of(tets_at[v].begin(), tets_at[v].end(),
                                              [&](uint32_t u) { return tet_mean_ratio(mesh, u) > 0.0; });
        if (!all_positive) {
            mesh.positions[v] = start;
            continue;
        }
        moved.insert(v);
        ++made;
    }
    if (slivers_made) *slivers_made = made;
    return mesh;
}

// A double cone of `wedges` slivers around one edge: the two apexes 0.6 m
// apart on a vertical axis, its lowest at `lowest_y`, and a ring of radius
// 0.3 m around the axis's middle; wedge i joins the apexes to ring vertices
// i and i + 1. With 2,000 wedges each is 0.9 mm thick at the ring (mean
// ratio about 3e-3), every tet shares the axis, and the apexes weigh a
// thousand times a ring vertex: the mesh that once blew the solvers up.
inline TetMeshDesc sliver_fan(int wedges, float lowest_y)
{
    TetMeshDesc mesh;
    mesh.name = "sliver fan";
    mesh.positions = {{0.0f, lowest_y + 0.6f, 0.0f}, {0.0f, lowest_y, 0.0f}};
    for (int i = 0; i < wedges; ++i) {
        const double angle = 2.0 * 3.14159265358979323846 * i / wedges;
        mesh.positions.push_back(glm::vec3(glm::dvec3(0.3 * std::cos(angle), lowest_y + 0.3,
                                                      0.3 * std::sin(angle))));
    }
    for (int i = 0; i < wedges; ++i) {
        mesh.tets.push_back(glm::uvec4(0, 1, 2 + i, 2 + (i + 1) % wedges));
    }
    return mesh;
}
