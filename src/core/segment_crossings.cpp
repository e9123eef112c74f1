#include "core/segment_crossings.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

// Median splits halve the range: a uint32 count makes at most 33 levels.
constexpr int kMaxDepth = 64;

}  // namespace

std::optional<double> segment_hits_triangle(const glm::dvec3& p, const glm::dvec3& q,
                                            const glm::dvec3& a, const glm::dvec3& b,
                                            const glm::dvec3& c)
{
    const glm::dvec3 dir = q - p;
    const glm::dvec3 e1 = b - a, e2 = c - a;
    const glm::dvec3 s = glm::cross(dir, e2);
    const double det = glm::dot(e1, s);
    if (std::abs(det) < 1e-300) {
        return std::nullopt;  // parallel to the triangle's plane
    }
    const double inv = 1.0 / det;
    const glm::dvec3 r = p - a;
    const double u = glm::dot(r, s) * inv;
    if (u < 0.0 || u > 1.0) return std::nullopt;
    const glm::dvec3 rq = glm::cross(r, e1);
    const double v = glm::dot(dir, rq) * inv;
    if (v < 0.0 || u + v > 1.0) return std::nullopt;
    const double t = glm::dot(e2, rq) * inv;
    if (t < 0.0 || t > 1.0) return std::nullopt;
    return t;
}

SegmentCrossings::SegmentCrossings(const SurfaceMesh& surface) : surface_(surface)
{
    const size_t n = surface.triangles.size();
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), 0u);
    boxes_.resize(n);
    for (size_t t = 0; t < n; ++t) {
        const glm::uvec3& tri = surface.triangles[t];
        const glm::vec3 &a = surface.positions[tri.x], &b = surface.positions[tri.y],
                        &c = surface.positions[tri.z];
        boxes_[t] = {glm::min(a, glm::min(b, c)), glm::max(a, glm::max(b, c))};
    }
    if (n == 0) {
        return;
    }
    nodes_.reserve(4 * (n / kLeafTriangles + 1));
    build(0, static_cast<uint32_t>(n));
    std::vector<Bounds> ordered(n);
    for (size_t i = 0; i < n; ++i) ordered[i] = boxes_[order_[i]];
    boxes_ = std::move(ordered);
}

uint32_t SegmentCrossings::build(uint32_t begin, uint32_t end)
{
    const uint32_t index = static_cast<uint32_t>(nodes_.size());
    nodes_.emplace_back();
    Bounds box = boxes_[order_[begin]];
    for (uint32_t i = begin; i < end; ++i) {
        box.lo = glm::min(box.lo, boxes_[order_[i]].lo);
        box.hi = glm::max(box.hi, boxes_[order_[i]].hi);
    }
    nodes_[index].box = box;
    nodes_[index].begin = begin;
    nodes_[index].end = end;
    if (end - begin <= kLeafTriangles) {
        return index;
    }
    // Median of the box centres along the longest side.
    const glm::vec3 size = box.size();
    const int axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
    const uint32_t middle = begin + (end - begin) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
                     [&](uint32_t s, uint32_t t) {
                         return boxes_[s].lo[axis] + boxes_[s].hi[axis] <
                                boxes_[t].lo[axis] + boxes_[t].hi[axis];
                     });
    build(begin, middle);  // the left child is index + 1
    nodes_[index].right = build(middle, end);
    return index;
}

std::optional<double> SegmentCrossings::first_hit(const glm::vec3& from, const glm::vec3& to) const
{
    if (nodes_.empty()) {
        return std::nullopt;
    }
    const Bounds segment{glm::min(from, to), glm::max(from, to)};
    std::optional<double> best;
    uint32_t stack[kMaxDepth + 1];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const uint32_t index = stack[--top];
        const Node& node = nodes_[index];
        if (!node.box.overlaps(segment)) {
            continue;
        }
        if (node.right != 0) {
            stack[top++] = node.right;
            stack[top++] = index + 1;
            continue;
        }
        for (uint32_t i = node.begin; i < node.end; ++i) {
            if (!boxes_[i].overlaps(segment)) continue;
            const glm::uvec3& tri = surface_.triangles[order_[i]];
            const std::optional<double> hit = segment_hits_triangle(
                from, to, surface_.positions[tri.x], surface_.positions[tri.y],
                surface_.positions[tri.z]);
            if (hit && (!best || *hit < *best)) best = hit;
        }
    }
    return best;
}
