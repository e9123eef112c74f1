#include "core/tet_quality.h"

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

void dihedral_angles_deg(const glm::vec3& x0, const glm::vec3& x1, const glm::vec3& x2,
                         const glm::vec3& x3, double out[6])
{
    const glm::dvec3 x[4] = {x0, x1, x2, x3};
    // Face f is opposite vertex f; its normal points away from vertex f.
    glm::dvec3 n[4];
    for (int f = 0; f < 4; ++f) {
        const glm::dvec3& a = x[(f + 1) % 4];
        const glm::dvec3& b = x[(f + 2) % 4];
        const glm::dvec3& c = x[(f + 3) % 4];
        glm::dvec3 normal = glm::cross(b - a, c - a);
        if (glm::dot(normal, x[f] - a) > 0.0) {
            normal = -normal;
        }
        const double length = glm::length(normal);
        n[f] = length > 0.0 ? normal / length : glm::dvec3(0.0);
    }
    // The edge shared by faces f and g: the interior angle between them is
    // pi minus the angle between their outward normals.
    int e = 0;
    for (int f = 0; f < 4; ++f) {
        for (int g = f + 1; g < 4; ++g) {
            const double c = std::clamp(glm::dot(n[f], n[g]), -1.0, 1.0);
            out[e++] = 180.0 - glm::degrees(std::acos(c));
        }
    }
}

TetQuality measure_tet_quality(const TetMeshDesc& mesh)
{
    TetQuality q;
    q.tets = mesh.tets.size();
    q.min_dihedral_deg = mesh.tets.empty() ? 0.0 : 180.0;
    q.max_dihedral_deg = 0.0;
    std::vector<uint8_t> used(mesh.positions.size(), 0);
    for (const glm::uvec4& t : mesh.tets) {
        const glm::dvec3 x0(mesh.positions[t.x]);
        const double volume = glm::determinant(glm::dmat3(glm::dvec3(mesh.positions[t.y]) - x0,
                                                          glm::dvec3(mesh.positions[t.z]) - x0,
                                                          glm::dvec3(mesh.positions[t.w]) - x0)) /
                              6.0;
        q.volume_m3 += volume;
        q.nonpositive_tets += volume <= 0.0 ? 1 : 0;
        double angles[6];
        dihedral_angles_deg(mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z],
                            mesh.positions[t.w], angles);
        for (double a : angles) {
            q.min_dihedral_deg = std::min(q.min_dihedral_deg, a);
            q.max_dihedral_deg = std::max(q.max_dihedral_deg, a);
        }
        for (int a = 0; a < 4; ++a) {
            used[t[a]] = 1;
        }
    }
    q.vertices = static_cast<size_t>(std::count(used.begin(), used.end(), uint8_t(1)));
    return q;
}

bool boundary_is_closed_manifold(const TetMeshDesc& mesh, std::string* why)
{
    const std::vector<glm::uvec3> surface = boundary_triangles(mesh.tets);
    auto fail = [&](const std::string& message) {
        if (why) *why = message;
        return false;
    };
    if (surface.empty()) {
        return fail("no boundary");
    }
    // Every directed edge once, and its reverse once.
    std::map<std::pair<uint32_t, uint32_t>, int> directed;
    for (const glm::uvec3& f : surface) {
        for (int a = 0; a < 3; ++a) {
            ++directed[{f[a], f[(a + 1) % 3]}];
        }
    }
    for (const auto& [edge, count] : directed) {
        auto twin = directed.find({edge.second, edge.first});
        if (count != 1 || twin == directed.end() || twin->second != 1) {
            return fail("boundary edge " + std::to_string(edge.first) + "-" +
                        std::to_string(edge.second) + " is not shared by exactly two triangles");
        }
    }
    // Around each vertex the triangles form one cycle: following "next
    // triangle across the outgoing edge" from any of them visits them all.
    std::unordered_map<uint32_t, std::vector<uint32_t>> around;
    for (uint32_t f = 0; f < surface.size(); ++f) {
        for (int a = 0; a < 3; ++a) {
            around[surface[f][a]].push_back(f);
        }
    }
    for (const auto& [v, fan] : around) {
        // Each triangle at v maps its edge (v, next) to the triangle whose
        // edge (prev, v) comes back: prev == next of the first.
        std::unordered_map<uint32_t, uint32_t> next_of;  // outgoing neighbour -> incoming neighbour
        for (uint32_t f : fan) {
            const glm::uvec3& t = surface[f];
            int a = 0;
            while (t[a] != v) ++a;
            next_of[t[(a + 1) % 3]] = t[(a + 2) % 3];
        }
        size_t steps = 0;
        const uint32_t start = next_of.begin()->first;
        uint32_t w = start;
        do {
            auto it = next_of.find(w);
            if (it == next_of.end()) {
                return fail("boundary vertex " + std::to_string(v) + " has an open fan");
            }
            w = it->second;
            ++steps;
        } while (w != start && steps <= fan.size());
        if (steps != fan.size()) {
            return fail("boundary vertex " + std::to_string(v) +
                        " joins two or more separate sheets of the surface");
        }
    }
    return true;
}
