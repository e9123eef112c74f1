#include "core/box_tree.h"

#include <algorithm>
#include <numeric>

BoxTree::BoxTree(const std::vector<BoxD>& boxes)
{
    assert(boxes.size() < std::numeric_limits<uint32_t>::max());
    const size_t n = boxes.size();
    items_.resize(n);
    std::iota(items_.begin(), items_.end(), 0u);
    if (n == 0) return;
    nodes_.reserve(n);  // leaves hold at least 2 items (one only when n == 1)
    build(0, static_cast<uint32_t>(n), boxes);
    boxes_.resize(n);
    for (size_t i = 0; i < n; ++i) boxes_[i] = boxes[items_[i]];
}

uint32_t BoxTree::build(uint32_t begin, uint32_t end, const std::vector<BoxD>& boxes)
{
    const uint32_t index = static_cast<uint32_t>(nodes_.size());
    nodes_.emplace_back();
    BoxD box;
    for (uint32_t i = begin; i < end; ++i) box.add(boxes[items_[i]]);
    nodes_[index].box = box;
    nodes_[index].begin = begin;
    nodes_[index].end = end;
    if (end - begin <= kLeafItems) return index;

    // Median of the box centres along the node's longest side; ties broken
    // by item index, so that the tree depends on the boxes alone and not on
    // how the standard library's nth_element orders equal keys.
    const glm::dvec3 size = box.hi - box.lo;
    const int axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
    const uint32_t mid = begin + (end - begin) / 2;
    std::nth_element(items_.begin() + begin, items_.begin() + mid, items_.begin() + end,
                     [&](uint32_t a, uint32_t b) {
                         const double ca = boxes[a].lo[axis] + boxes[a].hi[axis];
                         const double cb = boxes[b].lo[axis] + boxes[b].hi[axis];
                         return ca < cb || (ca == cb && a < b);
                     });
    build(begin, mid, boxes);
    nodes_[index].right = build(mid, end, boxes);
    return index;
}
