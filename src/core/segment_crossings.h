// Where a short segment first crosses a triangle surface: a tree of boxes
// over the triangles, so a query visits the few near the segment instead of
// all of them. The tetrahedralizer asks once per cut lattice edge: testing
// every triangle's box took about 2.5 CPU-s, single-threaded, of the 4.7 s
// that an 81,920-triangle sphere at resolution 40 took, measured.
#pragma once

#include "core/surface_mesh.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <optional>
#include <vector>

// Where the segment p + t (q - p), t in [0, 1], hits triangle (a, b, c)
// (Moller and Trumbore 1997), in double precision.
std::optional<double> segment_hits_triangle(const glm::dvec3& p, const glm::dvec3& q,
                                            const glm::dvec3& a, const glm::dvec3& b,
                                            const glm::dvec3& c);

class SegmentCrossings {
public:
    explicit SegmentCrossings(const SurfaceMesh& surface);

    // The smallest t at which segment from -> to hits a triangle, or none.
    // Exactly what testing every triangle whose box meets the segment's box
    // gives: the tree only skips triangles whose boxes cannot.
    std::optional<double> first_hit(const glm::vec3& from, const glm::vec3& to) const;

    // Triangles per leaf.
    static constexpr uint32_t kLeafTriangles = 4;

private:
    struct Node {
        Bounds box;              // of its triangles' boxes
        uint32_t begin = 0, end = 0;  // triangles [begin, end) of the tree order
        uint32_t right = 0;      // the right child; 0 for a leaf (left is the next node)
    };

    uint32_t build(uint32_t begin, uint32_t end);

    const SurfaceMesh& surface_;
    std::vector<Node> nodes_;
    std::vector<uint32_t> order_;  // triangle indices in tree order
    std::vector<Bounds> boxes_;    // per triangle, in tree order
};
