#include "core/penetration.h"

#include "core/box_tree.h"
#include "core/point_triangle_distance.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>

namespace {

// The deformed positions in double, and which of them are finite.
struct Positions {
    std::vector<glm::dvec3> x;
    std::vector<uint8_t> finite;

    bool all_finite(const glm::uvec3& t) const { return finite[t.x] && finite[t.y] && finite[t.z]; }
    bool all_finite(const glm::uvec4& t) const
    {
        return finite[t.x] && finite[t.y] && finite[t.z] && finite[t.w];
    }
};

Positions to_double(const std::vector<glm::vec3>& positions)
{
    Positions p;
    p.x.resize(positions.size());
    p.finite.resize(positions.size());
    for (size_t v = 0; v < positions.size(); ++v) {
        p.x[v] = glm::dvec3(positions[v]);
        p.finite[v] = std::isfinite(p.x[v].x) && std::isfinite(p.x[v].y) && std::isfinite(p.x[v].z);
    }
    return p;
}

bool has_corner(const glm::uvec4& tet, uint32_t v)
{
    return tet.x == v || tet.y == v || tet.z == v || tet.w == v;
}

bool has_corner(const glm::uvec3& tri, uint32_t v)
{
    return tri.x == v || tri.y == v || tri.z == v;
}

double longest_edge(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                    const glm::dvec3& d)
{
    auto l2 = [](const glm::dvec3& u) { return glm::dot(u, u); };
    return std::sqrt(std::max({l2(b - a), l2(c - a), l2(d - a), l2(c - b), l2(d - b), l2(d - c)}));
}

// Whether p lies in tet (a, b, c, d), its faces included: each barycentric
// coordinate above -margin, so that a point on a face between two tets is in
// both whatever the rounding. Either orientation: an inverted tet has an
// inside too; a flat one has none.
bool in_tet(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
            const glm::dvec3& d)
{
    const glm::dvec3 e1 = b - a, e2 = c - a, e3 = d - a, r = p - a;
    const double det = glm::dot(e1, glm::cross(e2, e3));
    const double size = longest_edge(a, b, c, d);
    if (!(std::abs(det) > kFlatTetFraction * size * size * size)) return false;
    // Cramer's rule on [e1 e2 e3] l = r.
    const double l1 = glm::dot(r, glm::cross(e2, e3)) / det;
    const double l2 = glm::dot(e1, glm::cross(r, e3)) / det;
    const double l3 = glm::dot(e1, glm::cross(e2, r)) / det;
    const double l0 = 1.0 - l1 - l2 - l3;
    const double m = -kPenetrationInsideMargin;
    return l0 > m && l1 > m && l2 > m && l3 > m;
}

// A vertex in (or on) a tet of `body`: inside the body when its depth
// there is more than rounding (kPenetrationInsideMargin).
struct Candidate {
    uint32_t vertex;
    uint32_t body;
    double tet_size_m;  // the longest edge of the body's tets that hold it, the largest
};

// Every (vertex, body) pair where the vertex lies in one of the body's tets
// that does not have it as a corner, by vertex then body. (The margin alone
// would keep a corner out, at barycentric (1, 0, 0, 0); the corner test says
// so without the arithmetic.)
std::vector<Candidate> find_candidates(const TetMesh& mesh, const std::vector<uint32_t>& vertex_body,
                                       const Positions& pos)
{
    std::vector<BoxD> boxes;
    std::vector<uint32_t> tet_of_box;
    boxes.reserve(mesh.tet_count());
    tet_of_box.reserve(mesh.tet_count());
    for (uint32_t t = 0; t < mesh.tet_count(); ++t) {
        const glm::uvec4& tet = mesh.tets[t];
        if (!pos.all_finite(tet)) continue;
        BoxD box;
        for (int k = 0; k < 4; ++k) box.add(pos.x[tet[k]]);
        boxes.push_back(box);
        tet_of_box.push_back(t);
    }
    const BoxTree tree(boxes);

    std::vector<Candidate> found;
    std::vector<Candidate> here;  // the current vertex's, one per body
    for (uint32_t v = 0; v < pos.x.size(); ++v) {
        if (!pos.finite[v]) continue;
        const glm::dvec3& p = pos.x[v];
        here.clear();
        tree.for_each_containing(p, [&](uint32_t box) {
            const glm::uvec4& tet = mesh.tets[tet_of_box[box]];
            if (has_corner(tet, v)) return;
            const glm::dvec3 &a = pos.x[tet.x], &b = pos.x[tet.y], &c = pos.x[tet.z],
                             &d = pos.x[tet.w];
            if (!in_tet(p, a, b, c, d)) return;
            const uint32_t body = vertex_body[tet.x];
            const double size = longest_edge(a, b, c, d);
            auto same_body = [&](const Candidate& h) { return h.body == body; };
            const auto known = std::find_if(here.begin(), here.end(), same_body);
            if (known == here.end()) {
                here.push_back({v, body, size});
            } else {
                known->tet_size_m = std::max(known->tet_size_m, size);
            }
        });
        std::sort(here.begin(), here.end(),
                  [](const Candidate& x, const Candidate& y) { return x.body < y.body; });
        found.insert(found.end(), here.begin(), here.end());
    }
    return found;
}

// One body's surface triangles (mesh indices) and a tree of their boxes.
struct BodySurface {
    std::vector<uint32_t> triangles;
    BoxTree tree{std::vector<BoxD>{}};
};

// The surfaces of the bodies that may hold a vertex; the others are not needed.
std::map<uint32_t, BodySurface> surfaces_of(const std::vector<Candidate>& candidates,
                                            const TetMesh& mesh,
                                            const std::vector<uint32_t>& vertex_body,
                                            const Positions& pos)
{
    std::map<uint32_t, BodySurface> surfaces;
    for (const Candidate& c : candidates) surfaces[c.body];
    std::map<uint32_t, std::vector<BoxD>> boxes;
    for (uint32_t t = 0; t < mesh.surface_triangles.size(); ++t) {
        const glm::uvec3& tri = mesh.surface_triangles[t];
        const auto surface = surfaces.find(vertex_body[tri.x]);
        if (surface == surfaces.end() || !pos.all_finite(tri)) continue;
        BoxD box;
        for (int k = 0; k < 3; ++k) box.add(pos.x[tri[k]]);
        surface->second.triangles.push_back(t);
        boxes[surface->first].push_back(box);
    }
    for (auto& [body, surface] : surfaces) surface.tree = BoxTree(boxes[body]);
    return surfaces;
}

// How far vertex v is inside a body: its distance to the boundary of the
// part of the body that it may not be in. For another body, that is the
// body's surface. For its own body, it is the rest of the body less the tets
// around v: the surface less the triangles that have v as a corner, and
// the faces of v's tets opposite v. A vertex that crept a hair's breadth
// into its neighbour's tet is then a hair's breadth deep, not an edge's
// length (the sagging beam preset has a pinned vertex 36 um into the tet
// next to it, 27 mm from the nearest surface triangle not its own).
double depth(uint32_t v, bool own_body, const BodySurface& surface, const TetMesh& mesh,
             const Csr& slots, const Positions& pos)
{
    double d = surface.tree.nearest(pos.x[v], [&](const glm::dvec3& p, uint32_t item) {
        const glm::uvec3& tri = mesh.surface_triangles[surface.triangles[item]];
        if (has_corner(tri, v)) return std::numeric_limits<double>::infinity();
        return point_triangle_distance(p, pos.x[tri.x], pos.x[tri.y], pos.x[tri.z]);
    });
    if (!own_body) return d;
    for (uint32_t s = slots.begin(v); s < slots.end(v); ++s) {
        const uint32_t slot = slots.entries[s];
        const glm::uvec4& tet = mesh.tets[slot / 4];
        if (!pos.all_finite(tet)) continue;
        const uint32_t corner = slot % 4;
        const glm::uvec3 opposite(tet[(corner + 1) % 4], tet[(corner + 2) % 4],
                                  tet[(corner + 3) % 4]);
        d = std::min(d, point_triangle_distance(pos.x[v], pos.x[opposite.x], pos.x[opposite.y],
                                                pos.x[opposite.z]));
    }
    return d;
}

}  // namespace

PenetrationReport measure_penetration(const TetMesh& mesh,
                                      const std::vector<uint32_t>& vertex_body,
                                      const std::vector<glm::vec3>& positions)
{
    assert(positions.size() == mesh.vertex_count() && "one position per mesh vertex");
    assert(vertex_body.size() == mesh.vertex_count() && "one body per mesh vertex");
    const Positions pos = to_double(positions);
    const std::vector<Candidate> candidates = find_candidates(mesh, vertex_body, pos);
    const std::map<uint32_t, BodySurface> surfaces =
        surfaces_of(candidates, mesh, vertex_body, pos);

    const Csr slots = vertex_tet_corners(mesh);  // a vertex's own tets
    PenetrationReport report;
    uint32_t last_counted = PenetrationReport::kNone;
    for (const Candidate& c : candidates) {
        const bool own_body = c.body == vertex_body[c.vertex];
        const double d = depth(c.vertex, own_body, surfaces.at(c.body), mesh, slots, pos);
        // On the body's surface, to within rounding: touching, not inside.
        // (+infinity, a body with no surface left to measure, counts with
        // no depth.)
        if (!(d > kPenetrationInsideMargin * c.tet_size_m)) continue;
        if (c.vertex != last_counted) ++report.vertices_inside;
        last_counted = c.vertex;
        if (!std::isfinite(d)) continue;
        if (!own_body) {
            report.max_depth_between_bodies_m = std::max(report.max_depth_between_bodies_m, d);
        }
        // Strictly deeper: candidates come by vertex, then body, so ties
        // keep the lowest of each.
        if (report.deepest_vertex == PenetrationReport::kNone || d > report.max_depth_m) {
            report.max_depth_m = d;
            report.deepest_vertex = c.vertex;
            report.body_inside = c.body;
        }
    }
    return report;
}
