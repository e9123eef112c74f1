// Wobble damping (docs/algorithm.md 2, "Wobble"): once a frame, each body
// loses a share of what it moves besides its rigid motion, so that its
// slowest wobbles die as fast as its quick ones. The material damping,
// proportional to the stiffness, damps a mode by its frequency squared and
// leaves a pinned beam's slow swing ringing for many seconds.
#pragma once

#include "core/world.h"

#include <glm/glm.hpp>

#include <vector>

// Velocities of every body of `world` with the share `1 - keep` of their
// motion beside the body's rigid motion taken away (substep_math's
// sm_damp_wobble): the rigid motion is the mass-weighted fit of a drift and
// a spin about the centroid, so momentum and angular momentum stay. A body
// with a pinned vertex is held by the world, which is its frame: it loses
// the share of all its motion.
void damp_wobble(const World& world, const std::vector<float>& inverse_masses,
                 const std::vector<glm::vec3>& positions, std::vector<glm::vec3>& velocities,
                 float keep);
