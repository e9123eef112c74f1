#include "core/render_surface.h"

#include "core/box_tree.h"
#include "core/point_triangle_distance.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace {

// A surface vertex outside the tets follows, of the tets within this many
// tet edges of the nearest one's distance, the one it lies least far beyond.
constexpr double kNearEnoughEdges = 0.5;
// A body's own surface is drawn only while every vertex of it lies within
// this many tet edges of its tets: the bunny's ear tips lie 2.3 away at
// 12 cells, 5 at 10, where the tets leave the ears out.
constexpr double kMaxGapEdges = 8.0;

struct Candidate {
    double distance_m;
    double smallest_weight;  // its smallest barycentric weight there
    uint32_t tet;
};

// A vertex with more triangles than this (a fan of slivers in a hostile
// file) is not split: the pairwise test would cost the square of its count.
constexpr size_t kMaxSplitValence = 64;

// Barycentric weights of p in a tet (may be negative outside it).
glm::dvec4 barycentric(const glm::dvec3& p, const glm::dvec3 (&x)[4])
{
    const glm::dmat3 shape(x[1] - x[0], x[2] - x[0], x[3] - x[0]);
    const glm::dvec3 b = glm::inverse(shape) * (p - x[0]);
    return {1.0 - b.x - b.y - b.z, b.x, b.y, b.z};
}

double smallest(const glm::dvec4& w) { return std::min(std::min(w.x, w.y), std::min(w.z, w.w)); }

// A surface before splitting: each vertex with what it follows, its rest
// position (for the crease test) and its body.
struct Unsplit {
    std::vector<glm::uvec4> corners;
    std::vector<glm::vec4> weights;
    std::vector<glm::dvec3> rest;
    std::vector<glm::uvec3> triangles;
};

// Each vertex of `skin` embedded in one of the body's tets: the tet holding
// it with the largest smallest weight, or, when none holds it, of the tets
// about as near as the nearest, the one it lies least far beyond (which
// extrapolates the least). Nothing when a vertex a triangle uses lies more
// than kMaxGapEdges tet edges from every tet, or is not finite: such a
// surface would fly about as the tets deform.
std::optional<Unsplit> embed_skin(const TetMesh& mesh, const WorldBody& body,
                                  const SurfaceMesh& skin, RenderSurface& surface,
                                  double& farthest_m)
{
    const auto tet_corners = [&](uint32_t local, glm::dvec3 (&x)[4]) {
        const glm::uvec4 t = mesh.tets[body.first_tet + local];
        for (int a = 0; a < 4; ++a) x[a] = glm::dvec3(mesh.rest_positions[t[a]]);
    };
    const auto distance_to_tet = [&](const glm::dvec3& q, uint32_t i, double& weight) {
        glm::dvec3 x[4];
        tet_corners(i, x);
        weight = smallest(barycentric(q, x));
        if (weight >= 0.0) {
            return 0.0;
        }
        return std::min(std::min(point_triangle_distance(q, x[0], x[1], x[2]),
                                 point_triangle_distance(q, x[0], x[1], x[3])),
                        std::min(point_triangle_distance(q, x[0], x[2], x[3]),
                                 point_triangle_distance(q, x[1], x[2], x[3])));
    };
    std::vector<BoxD> boxes(body.tet_count);
    for (uint32_t i = 0; i < body.tet_count; ++i) {
        glm::dvec3 x[4];
        tet_corners(i, x);
        for (const glm::dvec3& p : x) boxes[i].add(p);
    }
    const BoxTree tree(boxes);
    const double edge_m = mesh.mean_surface_edge_m(body.first_triangle, body.triangle_count);
    const double slack_m = kNearEnoughEdges * edge_m;

    std::vector<uint8_t> used(skin.positions.size(), 0);
    for (const glm::uvec3& t : skin.triangles) {
        used[t.x] = used[t.y] = used[t.z] = 1;
    }
    Unsplit out;
    out.triangles = skin.triangles;
    std::vector<Candidate> candidates;
    size_t outside = 0;
    for (size_t v = 0; v < skin.positions.size(); ++v) {
        const glm::dvec3 p(skin.positions[v]);
        if (!used[v]) {  // drawn nowhere: follows the first tet's corner
            out.corners.push_back(glm::uvec4(mesh.tets[body.first_tet].x));
            out.weights.push_back(glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
            out.rest.push_back(p);
            continue;
        }
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            farthest_m = INFINITY;
            return std::nullopt;
        }
        std::optional<uint32_t> best;
        double best_smallest = -INFINITY;
        tree.for_each_containing(p, [&](uint32_t i) {
            glm::dvec3 x[4];
            tet_corners(i, x);
            const double s = smallest(barycentric(p, x));
            if (s > best_smallest) {
                best_smallest = s;
                best = i;
            }
        });
        if (!best || best_smallest < 0.0) {
            ++outside;
            double weight = 0.0;
            const double nearest_m = tree.nearest(
                p, [&](const glm::dvec3& q, uint32_t i) { return distance_to_tet(q, i, weight); });
            farthest_m = std::max(farthest_m, nearest_m);
            if (!(nearest_m <= kMaxGapEdges * edge_m)) {
                return std::nullopt;
            }
            candidates.clear();
            tree.nearest(p, [&](const glm::dvec3& q, uint32_t i) {
                const double d = distance_to_tet(q, i, weight);
                candidates.push_back({d, weight, i});
                // Reported farther than it is, so that the walk also visits
                // the tets within the slack of the nearest.
                return d + slack_m;
            });
            best_smallest = -INFINITY;
            for (const Candidate& c : candidates) {
                if (c.distance_m <= nearest_m + slack_m && c.smallest_weight > best_smallest) {
                    best_smallest = c.smallest_weight;
                    best = c.tet;
                }
            }
            if (!best) {
                return std::nullopt;  // only NaN weights: a degenerate tet
            }
        }
        glm::dvec3 x[4];
        tet_corners(*best, x);
        out.corners.push_back(mesh.tets[body.first_tet + *best]);
        out.weights.push_back(glm::vec4(barycentric(p, x)));
        out.rest.push_back(p);
    }
    surface.vertices_outside_tets += outside;
    return out;
}

// The body's share of the tets' boundary, each vertex following itself.
Unsplit boundary_of(const TetMesh& mesh, const WorldBody& body)
{
    Unsplit out;
    std::vector<uint32_t> drawn_of(body.vertex_count, UINT32_MAX);
    for (uint32_t f = body.first_triangle; f < body.first_triangle + body.triangle_count; ++f) {
        glm::uvec3 tri = mesh.surface_triangles[f];
        for (int a = 0; a < 3; ++a) {
            uint32_t& drawn = drawn_of[tri[a] - body.first_vertex];
            if (drawn == UINT32_MAX) {
                drawn = static_cast<uint32_t>(out.corners.size());
                out.corners.push_back(glm::uvec4(tri[a]));
                out.weights.push_back(glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
                out.rest.push_back(glm::dvec3(mesh.rest_positions[tri[a]]));
            }
            tri[a] = drawn;
        }
        out.triangles.push_back(tri);
    }
    return out;
}

int shared_corners(const glm::uvec3& a, const glm::uvec3& b)
{
    int shared = 0;
    for (int i = 0; i < 3; ++i) {
        shared += (a[i] == b.x || a[i] == b.y || a[i] == b.z) ? 1 : 0;
    }
    return shared;
}

// Appends `part` to `surface`, giving each vertex one drawn vertex per
// smooth group of its triangles: triangles meeting along an edge through it
// join a group when their rest normals are within the crease angle (a
// triangle without area joins its neighbours).
void append_split(const Unsplit& part, uint32_t body, double cos_crease, RenderSurface& surface)
{
    const size_t nv = part.rest.size();
    std::vector<glm::dvec3> normals(part.triangles.size());
    std::vector<uint32_t> corner_rows;
    corner_rows.reserve(part.triangles.size() * 3);
    for (size_t f = 0; f < part.triangles.size(); ++f) {
        const glm::uvec3& t = part.triangles[f];
        const glm::dvec3 n = glm::cross(part.rest[t.y] - part.rest[t.x],
                                        part.rest[t.z] - part.rest[t.x]);
        const double length = glm::length(n);
        normals[f] = length > 0.0 ? n / length : glm::dvec3(0.0);
        for (int a = 0; a < 3; ++a) corner_rows.push_back(t[a]);
    }
    const Csr around = build_csr(nv, corner_rows);  // entries: corners, f * 3 + a

    const uint32_t base_triangle = static_cast<uint32_t>(surface.triangles.size());
    for (const glm::uvec3& t : part.triangles) surface.triangles.push_back(t);
    std::vector<uint32_t> parent;
    std::vector<uint32_t> drawn_of_root;
    for (uint32_t v = 0; v < nv; ++v) {
        const uint32_t begin = around.begin(v);
        const uint32_t count = around.end(v) - begin;
        parent.resize(count);
        std::iota(parent.begin(), parent.end(), 0u);
        const auto find = [&](uint32_t i) {
            while (parent[i] != i) i = parent[i] = parent[parent[i]];
            return i;
        };
        if (count > kMaxSplitValence) {
            std::fill(parent.begin(), parent.end(), 0u);  // one group, unsplit
        }
        for (uint32_t i = 0; count <= kMaxSplitValence && i < count; ++i) {
            const uint32_t fi = around.entries[begin + i] / 3;
            for (uint32_t j = i + 1; j < count; ++j) {
                const uint32_t fj = around.entries[begin + j] / 3;
                const bool along_edge =
                    shared_corners(part.triangles[fi], part.triangles[fj]) >= 2;
                const double cos_angle = glm::dot(normals[fi], normals[fj]);
                const bool flat = normals[fi] == glm::dvec3(0.0) ||
                                  normals[fj] == glm::dvec3(0.0) || cos_angle >= cos_crease;
                if (along_edge && flat) {
                    parent[find(i)] = find(j);
                }
            }
        }
        drawn_of_root.assign(count, UINT32_MAX);
        for (uint32_t i = 0; i < count; ++i) {
            uint32_t& drawn = drawn_of_root[find(i)];
            if (drawn == UINT32_MAX) {
                drawn = static_cast<uint32_t>(surface.corners.size());
                surface.corners.push_back(part.corners[v]);
                surface.weights.push_back(part.weights[v]);
                surface.body.push_back(body);
            }
            const uint32_t corner = around.entries[begin + i];
            surface.triangles[base_triangle + corner / 3][corner % 3] = drawn;
        }
    }
}

}  // namespace

RenderSurface build_render_surface(const World& world, DrawnSurface choice,
                                   float crease_angle_deg)
{
    RenderSurface surface;
    const double cos_crease = std::cos(glm::radians(static_cast<double>(crease_angle_deg)));
    for (uint32_t b = 0; b < world.body_count(); ++b) {
        const WorldBody& body = world.bodies[b];
        std::optional<Unsplit> part;
        if (choice == DrawnSurface::own && body.skin && !body.skin->triangles.empty()) {
            double farthest_m = 0.0;
            part = embed_skin(*world.mesh, body, *body.skin, surface, farthest_m);
            if (part) {
                surface.farthest_outside_m =
                    std::max(surface.farthest_outside_m, static_cast<float>(farthest_m));
            } else {
                surface.tets_instead.push_back(b);
            }
        }
        append_split(part ? *part : boundary_of(*world.mesh, body), b, cos_crease, surface);
    }
    std::vector<uint32_t> rows;
    rows.reserve(surface.triangles.size() * 3);
    for (const glm::uvec3& t : surface.triangles) {
        for (int a = 0; a < 3; ++a) rows.push_back(t[a]);
    }
    surface.vertex_triangles = build_csr(surface.vertex_count(), rows);
    for (uint32_t& e : surface.vertex_triangles.entries) e /= 3;
    return surface;
}

void skin_positions(const RenderSurface& surface, const std::vector<glm::vec3>& simulation,
                    std::vector<glm::vec3>& drawn)
{
    drawn.resize(surface.vertex_count());
    for (size_t i = 0; i < drawn.size(); ++i) {
        const glm::uvec4& c = surface.corners[i];
        const glm::vec4& w = surface.weights[i];
        drawn[i] = w.x * simulation[c.x] + w.y * simulation[c.y] + w.z * simulation[c.z] +
                   w.w * simulation[c.w];
    }
}

void skin_normals(const RenderSurface& surface, const std::vector<glm::vec3>& drawn,
                  std::vector<glm::vec3>& normals)
{
    normals.resize(surface.vertex_count());
    for (size_t v = 0; v < normals.size(); ++v) {
        glm::vec3 sum(0.0f);
        for (uint32_t s = surface.vertex_triangles.begin(v); s < surface.vertex_triangles.end(v);
             ++s) {
            const glm::uvec3& t = surface.triangles[surface.vertex_triangles.entries[s]];
            sum += glm::cross(drawn[t.y] - drawn[t.x], drawn[t.z] - drawn[t.x]);
        }
        const float length = glm::length(sum);
        normals[v] = length > 0.0f ? sum / length : glm::vec3(0.0f, 1.0f, 0.0f);
    }
}

std::string render_surface_note(const World& world, const RenderSurface& surface)
{
    std::string note;
    for (const uint32_t b : surface.tets_instead) {
        note += (note.empty() ? "" : "; ") + std::string("drawing the tets of '") +
                world.bodies[b].name +
                "': its own surface lies too far outside them (a piece left out of the tets, "
                "or a stray vertex)";
    }
    return note;
}
