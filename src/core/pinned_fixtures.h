// What shows that a body is held in place, for drawing only: a wall behind
// a pinned face (the beam's left end) standing on the ground, and a small
// marker on every pinned vertex. Neither is an obstacle: bodies do not
// collide with them (the pinned vertices are what holds the body).
#pragma once

#include "core/obstacle.h"
#include "core/world.h"

#include <vector>

struct PinnedFixtures {
    std::vector<Obstacle> walls;    // boxes
    std::vector<Obstacle> markers;  // spheres
};

// The most markers drawn; a body pinned at more vertices shows the first.
inline constexpr size_t kMaxPinnedMarkers = 4096;

// For each body whose pinned vertices (at rest) lie in a plane
// perpendicular to an axis, a wall on the far side of that plane from the
// body's centre, reaching down to the ground (y = 0) when the ground is on.
PinnedFixtures pinned_fixtures(const World& world, bool ground);
