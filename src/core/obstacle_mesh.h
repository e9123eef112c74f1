// Triangle meshes of the obstacles, for drawing: spheres and capsules as
// latitude-longitude grids, boxes as six faces, all counter-clockwise seen
// from outside with outward normals.
#pragma once

#include "core/obstacle.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

struct ObstacleMesh {
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;
    std::vector<uint32_t> indices;  // 3 per triangle
};

ObstacleMesh make_obstacle_mesh(const std::vector<Obstacle>& obstacles);
