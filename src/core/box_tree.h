// A tree of axis-aligned boxes in double precision, for point queries over
// the tets and surface triangles of deformed bodies: which boxes hold a
// point, and which item is nearest to it. Median splits of the box centres
// along the longest side, a few items per leaf.
//
// A tree rather than a uniform grid: a vertex flung far (or a NaN that the
// caller filtered out a step too late) stretches its tets' boxes across the
// whole world; a grid would list such a tet in every cell it crosses and
// size its cells to the stretched world, while the tree just grows one
// tall node and keeps the others tight.
#pragma once

#include <glm/glm.hpp>

#include <array>
#include <cassert>
#include <cstdint>
#include <limits>
#include <vector>

struct BoxD {
    glm::dvec3 lo{std::numeric_limits<double>::infinity()};
    glm::dvec3 hi{-std::numeric_limits<double>::infinity()};

    void add(const glm::dvec3& p)
    {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    void add(const BoxD& b)
    {
        lo = glm::min(lo, b.lo);
        hi = glm::max(hi, b.hi);
    }
    // Boundary included.
    bool contains(const glm::dvec3& p) const
    {
        return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z &&
               p.z <= hi.z;
    }
    // Squared distance from p to the box, 0 inside.
    double distance2(const glm::dvec3& p) const
    {
        const glm::dvec3 d = glm::max(glm::dvec3(0.0), glm::max(lo - p, p - hi));
        return glm::dot(d, d);
    }
};

class BoxTree {
public:
    // The items are the indices of `boxes`; every box must be finite.
    explicit BoxTree(const std::vector<BoxD>& boxes);

    // Calls visit(item) for every item whose box holds p, boundary included,
    // in an order fixed by the boxes alone.
    template <typename Visit>
    void for_each_containing(const glm::dvec3& p, Visit&& visit) const;

    // The smallest distance(p, item) over the items, +infinity when there is
    // none. `distance` may return +infinity to leave an item out, and must
    // never return less than the distance from p to the item's box: whole
    // subtrees farther than the best found so far are skipped on that
    // promise.
    template <typename Distance>
    double nearest(const glm::dvec3& p, Distance&& distance) const;

    size_t size() const { return items_.size(); }

    static constexpr uint32_t kLeafItems = 4;

private:
    struct Node {
        BoxD box;                     // of its items' boxes
        uint32_t begin = 0, end = 0;  // items [begin, end) of the tree order
        uint32_t right = 0;           // the right child; 0 for a leaf (left is the next node)
    };

    uint32_t build(uint32_t begin, uint32_t end, const std::vector<BoxD>& boxes);

    // Median splits halve the items: depth <= 33 for 2^32 items, and a
    // depth-first walk keeps at most depth + 1 nodes waiting.
    static constexpr size_t kStackSize = 64;

    std::vector<Node> nodes_;
    std::vector<uint32_t> items_;  // item indices in tree order
    std::vector<BoxD> boxes_;      // per item, in tree order
};

template <typename Visit>
void BoxTree::for_each_containing(const glm::dvec3& p, Visit&& visit) const
{
    if (nodes_.empty()) return;
    std::array<uint32_t, kStackSize> stack;
    size_t top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = nodes_[stack[--top]];
        if (!node.box.contains(p)) continue;
        if (node.right == 0) {
            for (uint32_t i = node.begin; i < node.end; ++i) {
                if (boxes_[i].contains(p)) visit(items_[i]);
            }
            continue;
        }
        assert(top + 2 <= kStackSize);
        stack[top++] = node.right;
        stack[top++] = static_cast<uint32_t>(&node - nodes_.data()) + 1;
    }
}

template <typename Distance>
double BoxTree::nearest(const glm::dvec3& p, Distance&& distance) const
{
    double best = std::numeric_limits<double>::infinity();
    if (nodes_.empty()) return best;
    struct Waiting {
        uint32_t node;
        double distance2;  // from p to the node's box
    };
    std::array<Waiting, kStackSize> stack;
    size_t top = 0;
    stack[top++] = {0, nodes_[0].box.distance2(p)};
    while (top > 0) {
        const Waiting w = stack[--top];
        // Nothing in a box at least as far as the best can be nearer.
        if (w.distance2 >= best * best) continue;
        const Node& node = nodes_[w.node];
        if (node.right == 0) {
            for (uint32_t i = node.begin; i < node.end; ++i) {
                if (boxes_[i].distance2(p) >= best * best) continue;
                const double d = distance(p, items_[i]);
                if (d < best) best = d;
            }
            continue;
        }
        // The nearer child on top, so that it is searched first and the
        // farther one is more often skipped.
        const Waiting left{w.node + 1, nodes_[w.node + 1].box.distance2(p)};
        const Waiting right{node.right, nodes_[node.right].box.distance2(p)};
        assert(top + 2 <= kStackSize);
        if (left.distance2 <= right.distance2) {
            stack[top++] = right;
            stack[top++] = left;
        } else {
            stack[top++] = left;
            stack[top++] = right;
        }
    }
    return best;
}
