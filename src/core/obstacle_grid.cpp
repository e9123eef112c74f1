#include "core/obstacle_grid.h"

#include <algorithm>
#include <cmath>

namespace {

// Columns per axis for n obstacles: a few per obstacle along each axis, so
// that walls around a bin leave its inside columns empty, and few enough
// that the lists stay small.
int columns_for(size_t obstacles)
{
    const int per_axis = 4 * static_cast<int>(std::ceil(std::sqrt(static_cast<double>(obstacles))));
    return std::clamp(per_axis, 1, 64);
}

}  // namespace

void ObstacleGrid::build(const std::vector<glm::vec3>& boxes)
{
    const size_t obstacles = boxes.size() / 2;
    offsets_.assign(1, 0u);
    entries_.clear();
    columns_ = glm::ivec2(0);
    everywhere_ = false;
    if (obstacles == 0) {
        return;
    }
    const auto lo = [&](size_t o) { return boxes[2 * o]; };
    const auto hi = [&](size_t o) { return boxes[2 * o + 1]; };
    glm::vec2 grid_lo(INFINITY);
    glm::vec2 grid_hi(-INFINITY);
    for (size_t o = 0; o < obstacles; ++o) {
        grid_lo = glm::min(grid_lo, glm::vec2(lo(o).x, lo(o).z));
        grid_hi = glm::max(grid_hi, glm::vec2(hi(o).x, hi(o).z));
    }
    const glm::vec2 extent = glm::max(grid_hi - grid_lo, glm::vec2(1e-6f));
    // A box without bounds would leave no columns to bin into: one column
    // then holds every obstacle, wherever the vertex is.
    if (!std::isfinite(extent.x) || !std::isfinite(extent.y)) {
        everywhere_ = true;
        for (size_t o = 0; o < obstacles; ++o) {
            entries_.push_back(static_cast<uint32_t>(o));
        }
        offsets_.push_back(static_cast<uint32_t>(entries_.size()));
        return;
    }
    columns_ = glm::ivec2(columns_for(obstacles));
    lo_ = grid_lo;
    inv_cell_ = glm::vec2(columns_) / extent;

    const auto column_of = [&](float x, float z) {
        const glm::ivec2 c(glm::floor((glm::vec2(x, z) - lo_) * inv_cell_));
        return glm::clamp(c, glm::ivec2(0), columns_ - 1);
    };
    std::vector<std::vector<uint32_t>> lists(static_cast<size_t>(columns_.x * columns_.y));
    for (size_t o = 0; o < obstacles; ++o) {
        const glm::ivec2 first = column_of(lo(o).x, lo(o).z);
        const glm::ivec2 last = column_of(hi(o).x, hi(o).z);
        for (int cz = first.y; cz <= last.y; ++cz) {
            for (int cx = first.x; cx <= last.x; ++cx) {
                lists[static_cast<size_t>(cz * columns_.x + cx)].push_back(static_cast<uint32_t>(o));
            }
        }
    }
    for (const std::vector<uint32_t>& list : lists) {
        entries_.insert(entries_.end(), list.begin(), list.end());
        offsets_.push_back(static_cast<uint32_t>(entries_.size()));
    }
}

std::span<const uint32_t> ObstacleGrid::near(const glm::vec3& x) const
{
    if (entries_.empty()) {
        return {};  // no obstacles: no columns either
    }
    if (everywhere_) {
        return {entries_.data(), entries_.size()};
    }
    const glm::vec2 at = (glm::vec2(x.x, x.z) - lo_) * inv_cell_;
    // Outside the grid no box reaches (beyond its far edge by up to a column,
    // the last column answers: the far edge times inv_cell_ may round past
    // the column count); the comparisons also refuse NaN.
    if (!(at.x >= 0.0f && at.y >= 0.0f && at.x < static_cast<float>(columns_.x + 1) &&
          at.y < static_cast<float>(columns_.y + 1))) {
        return {};
    }
    const glm::ivec2 c = glm::min(glm::ivec2(at), columns_ - 1);
    const size_t column = static_cast<size_t>(c.y * columns_.x + c.x);
    return {entries_.data() + offsets_[column], entries_.data() + offsets_[column + 1]};
}
