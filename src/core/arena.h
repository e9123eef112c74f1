// Optional walls around the stage (a panel toggle): four static boxes
// standing on the ground (and reaching as deep below it), so that a thrown body bounces back into view
// instead of flying off. They are ordinary obstacles: both solvers' contact
// with obstacles holds bodies inside them.
#pragma once

#include "core/obstacle.h"

#include <glm/glm.hpp>

#include <vector>

inline constexpr float kArenaWallHeightM = 1.0f;
inline constexpr float kArenaWallThicknessM = 0.2f;

// The walls of a square arena whose inner faces lie `half_size_m` from
// `centre` along x and z (its y is ignored: the walls stand on y = 0).
std::vector<Obstacle> arena_walls(glm::vec3 centre, float half_size_m);

// The half size that leaves `margin_m` around the box lo..hi, at least
// `least_m`.
float arena_half_size_m(glm::vec3 lo, glm::vec3 hi, float margin_m = 1.0f, float least_m = 2.5f);
