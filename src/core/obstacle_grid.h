// The static obstacles' boxes binned into columns over the ground plane, so
// that a vertex tests only the obstacles whose boxes reach its column
// instead of every one: `pile-large`'s six bins are 24 walls, and every
// vertex tested all 24 boxes after every iteration.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <span>
#include <vector>

class ObstacleGrid {
public:
    // From the obstacles' boxes: lowest then highest corner, obstacle by
    // obstacle.
    void build(const std::vector<glm::vec3>& boxes);

    // The obstacles whose boxes reach the column (x, z) of `x`, ascending: no
    // other obstacle's box holds x. Empty outside every box's column.
    std::span<const uint32_t> near(const glm::vec3& x) const;

private:
    glm::vec2 lo_{0.0f};          // the grid's corner, (x, z)
    glm::vec2 inv_cell_{0.0f};    // columns per metre along x and z
    glm::ivec2 columns_{0};
    bool everywhere_ = false;     // one column for every vertex: a box without bounds
    std::vector<uint32_t> offsets_;  // per column, into entries_; + 1
    std::vector<uint32_t> entries_;  // obstacle indices, ascending per column
};
