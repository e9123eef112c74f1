// The bodies of a world shared out among threads for the Gauss-Seidel pass.
// Bodies share no vertex, so a thread that owns whole bodies runs all their
// colours without waiting for the other threads between colours: one wait
// per iteration instead of one per colour (the pile's 34 colours x 8
// iterations x 10 substeps were 2,720 waits a frame).
#pragma once

#include "core/world.h"

#include <cstdint>
#include <vector>

// An even split may miss by this much: the share with the most tets holds
// at most this times its even part, or the bodies are not shared out.
inline constexpr double kMaxShareImbalance = 1.2;
// Nor are they when a share would hold fewer tets than this: waking a
// thread every iteration would cost more than its share of the work.
inline constexpr size_t kMinTetsPerShare = 1024;

// Per tet, its share (0 .. threads - 1): whole bodies, the largest first,
// each to the share with the fewest tets so far. Empty when there is one
// thread, when no such split is within kMaxShareImbalance of even (a
// single body, or one body holding most of the tets), or when the shares
// would be smaller than kMinTetsPerShare.
std::vector<uint32_t> share_bodies_among(const World& world, int threads);
