#include "core/winding_number.h"

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

namespace {

// Half the signed solid angle of triangle (a, b, c), corners relative to the
// query point (Van Oosterom and Strackee 1983): tan(Omega / 2) = det[a b c] /
// (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|). atan2 keeps the right
// branch when the denominator is negative, and gives 0, not NaN, when the
// point is a corner (0 / 0).
double half_solid_angle(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c)
{
    const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
    const double det = glm::dot(a, glm::cross(b, c));
    const double denom = la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la +
                         glm::dot(c, a) * lb;
    return std::atan2(det, denom);
}

// Traversal stack: median splits halve the range, so a uint32 count of
// triangles makes at most 33 levels, each leaving one node on the stack.
constexpr int kMaxDepth = 64;

}  // namespace

WindingNumberField::WindingNumberField(const SurfaceMesh& surface)
{
    const size_t n = surface.triangles.size();
    if (n == 0) {
        return;
    }
    std::vector<glm::dvec3> centroids(n);
    for (size_t t = 0; t < n; ++t) {
        const glm::uvec3& tri = surface.triangles[t];
        centroids[t] = (glm::dvec3(surface.positions[tri.x]) +
                        glm::dvec3(surface.positions[tri.y]) +
                        glm::dvec3(surface.positions[tri.z])) / 3.0;
    }
    // The tree orders the triangles so that every node's are contiguous.
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    // Leaves hold kLeafTriangles / 2 or more, so there are at most
    // 4n / kLeafTriangles nodes.
    nodes_.reserve(4 * (n / kLeafTriangles + 1));
    build(0, static_cast<uint32_t>(n), order, centroids);
    a_.resize(n);
    b_.resize(n);
    c_.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const glm::uvec3& tri = surface.triangles[order[i]];
        a_[i] = glm::dvec3(surface.positions[tri.x]);
        b_[i] = glm::dvec3(surface.positions[tri.y]);
        c_[i] = glm::dvec3(surface.positions[tri.z]);
    }
    // Each node straight from its triangles: n log n in all, a few
    // milliseconds for 80,000 triangles.
    for (Node& node : nodes_) {
        summarize(node);
    }
}

uint32_t WindingNumberField::build(uint32_t begin, uint32_t end, std::vector<uint32_t>& order,
                                   const std::vector<glm::dvec3>& centroids)
{
    const uint32_t index = static_cast<uint32_t>(nodes_.size());
    nodes_.emplace_back();
    nodes_[index].begin = begin;
    nodes_[index].end = end;
    if (end - begin <= kLeafTriangles) {
        return index;
    }
    // Split at the median centroid along the longest side of the centroids'
    // box: balanced, so the depth is log2(n) whatever the surface.
    glm::dvec3 lo = centroids[order[begin]], hi = lo;
    for (uint32_t i = begin; i < end; ++i) {
        lo = glm::min(lo, centroids[order[i]]);
        hi = glm::max(hi, centroids[order[i]]);
    }
    const glm::dvec3 size = hi - lo;
    const int axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
    const uint32_t middle = begin + (end - begin) / 2;
    std::nth_element(order.begin() + begin, order.begin() + middle, order.begin() + end,
                     [&](uint32_t s, uint32_t t) { return centroids[s][axis] < centroids[t][axis]; });
    build(begin, middle, order, centroids);  // the left child is index + 1
    const uint32_t right = build(middle, end, order, centroids);
    nodes_[index].right = right;
    return index;
}

void WindingNumberField::summarize(Node& node) const
{
    // The integrals of Barill et al. 2018, section 3.2, exact for flat
    // triangles: order 1 is sum n_t A_t, order 2 is
    // sum (centroid_t - centre) (n_t A_t)^T, since the first moment of a
    // triangle is its area times its centroid.
    glm::dvec3 weighted_sum(0.0), plain_sum(0.0);
    double area_sum = 0.0;
    for (uint32_t i = node.begin; i < node.end; ++i) {
        const glm::dvec3 area_normal = 0.5 * glm::cross(b_[i] - a_[i], c_[i] - a_[i]);
        const double area = glm::length(area_normal);
        const glm::dvec3 centroid = (a_[i] + b_[i] + c_[i]) / 3.0;
        node.area_normal += area_normal;
        weighted_sum += area * centroid;
        plain_sum += centroid;
        area_sum += area;
    }
    // A node of zero-area triangles has no expansion to speak of; its
    // centre still bounds them.
    node.centre = area_sum > 0.0 ? weighted_sum / area_sum
                                 : plain_sum / static_cast<double>(node.end - node.begin);
    double radius_sq = 0.0;
    for (uint32_t i = node.begin; i < node.end; ++i) {
        const glm::dvec3 area_normal = 0.5 * glm::cross(b_[i] - a_[i], c_[i] - a_[i]);
        const glm::dvec3 centroid = (a_[i] + b_[i] + c_[i]) / 3.0;
        node.moment += glm::outerProduct(centroid - node.centre, area_normal);
        for (const glm::dvec3* corner : {&a_[i], &b_[i], &c_[i]}) {
            const glm::dvec3 d = *corner - node.centre;
            radius_sq = std::max(radius_sq, glm::dot(d, d));
        }
    }
    node.far_distance_sq = kFarFieldRatio * kFarFieldRatio * radius_sq;
}

double WindingNumberField::sum_exact(const Node& leaf, const glm::dvec3& p) const
{
    double sum = 0.0;
    for (uint32_t i = leaf.begin; i < leaf.end; ++i) {
        sum += half_solid_angle(a_[i] - p, b_[i] - p, c_[i] - p);
    }
    return sum;
}

double WindingNumberField::at(const glm::vec3& point) const
{
    if (nodes_.empty()) {
        return 0.0;
    }
    const glm::dvec3 p(point);
    // Two sums: half solid angles of the near triangles, and 4 pi times the
    // far nodes' share.
    double half_angles = 0.0;
    double far_4pi = 0.0;
    uint32_t stack[kMaxDepth + 1];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = nodes_[stack[--top]];
        const glm::dvec3 r = node.centre - p;
        const double d_sq = glm::dot(r, r);
        if (d_sq > node.far_distance_sq) {
            // The kernel (x - p) / |x - p|^3 and its gradient at the centre,
            // against the node's moments (Barill et al. 2018, equation 7):
            // r.N / d^3 + tr(M) / d^3 - 3 r.(M r) / d^5.
            const double d = std::sqrt(d_sq);
            const double inv_d3 = 1.0 / (d_sq * d);
            const glm::dmat3& m = node.moment;
            const double trace = m[0][0] + m[1][1] + m[2][2];
            far_4pi += (glm::dot(r, node.area_normal) + trace) * inv_d3 -
                       3.0 * glm::dot(r, m * r) * inv_d3 / d_sq;
        } else if (node.right == 0) {
            half_angles += sum_exact(node, p);
        } else {
            stack[top++] = node.right;
            stack[top++] = static_cast<uint32_t>(&node - nodes_.data()) + 1;
        }
    }
    return half_angles / (2.0 * glm::pi<double>()) + far_4pi / (4.0 * glm::pi<double>());
}

std::vector<double> WindingNumberField::at_points(const std::vector<glm::vec3>& points) const
{
    std::vector<double> w(points.size());
    const size_t threads =
        std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 16);
    // Below a few hundred points a thread costs more than it saves.
    if (threads == 1 || points.size() < 256) {
        for (size_t i = 0; i < points.size(); ++i) {
            w[i] = at(points[i]);
        }
        return w;
    }
    // Interleaved (i = k, k + threads, ...), so every thread gets a share of
    // the near-surface points, whatever the lattice order.
    std::vector<std::thread> pool;
    for (size_t k = 0; k < threads; ++k) {
        pool.emplace_back([&, k] {
            for (size_t i = k; i < points.size(); i += threads) {
                w[i] = at(points[i]);
            }
        });
    }
    for (std::thread& t : pool) {
        t.join();
    }
    return w;
}
