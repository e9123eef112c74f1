#include "core/arena.h"

#include <algorithm>
#include <cmath>

std::vector<Obstacle> arena_walls(glm::vec3 centre, float half_size_m)
{
    const float h = half_size_m;
    const float t = 0.5f * kArenaWallThicknessM;
    // As deep below the ground as they stand above it: a vertex sliding
    // into a wall along the ground must find the inner face nearer than the
    // bottom one, or it is pushed down, the ground pushes it back up, and it
    // stays inside the wall.
    const float y = 0.0f;
    const float half_height = kArenaWallHeightM;
    // Long enough along each side to close the corners.
    const float length = h + kArenaWallThicknessM;
    std::vector<Obstacle> walls;
    for (const float side : {-1.0f, 1.0f}) {
        Obstacle along_z;  // the walls at x = +-h
        along_z.shape = ObstacleShape::box;
        along_z.a = glm::vec3(centre.x + side * (h + t), y, centre.z);
        along_z.b = glm::vec3(t, half_height, length);
        walls.push_back(along_z);
        Obstacle along_x;  // at z = +-h
        along_x.shape = ObstacleShape::box;
        along_x.a = glm::vec3(centre.x, y, centre.z + side * (h + t));
        along_x.b = glm::vec3(length, half_height, t);
        walls.push_back(along_x);
    }
    return walls;
}

float arena_half_size_m(glm::vec3 lo, glm::vec3 hi, float margin_m, float least_m)
{
    const glm::vec3 half = 0.5f * (hi - lo);
    const float wanted = std::max(half.x, half.z) + margin_m;
    return std::isfinite(wanted) ? std::max(wanted, least_m) : least_m;
}
