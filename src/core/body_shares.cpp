#include "core/body_shares.h"

#include <algorithm>
#include <numeric>

std::vector<uint32_t> share_bodies_among(const World& world, int threads)
{
    if (threads < 2 || world.body_count() < static_cast<size_t>(threads)) {
        return {};
    }
    std::vector<size_t> order(world.body_count());
    std::iota(order.begin(), order.end(), size_t{0});
    // Largest first; equal bodies in world order, so the split is the same
    // on every run.
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const uint32_t tets_a = world.bodies[a].tet_count;
        const uint32_t tets_b = world.bodies[b].tet_count;
        return tets_a != tets_b ? tets_a > tets_b : a < b;
    });
    std::vector<size_t> share_tets(static_cast<size_t>(threads), 0);
    std::vector<uint32_t> body_share(world.body_count(), 0);
    for (const size_t body : order) {
        const size_t lightest = static_cast<size_t>(
            std::min_element(share_tets.begin(), share_tets.end()) - share_tets.begin());
        body_share[body] = static_cast<uint32_t>(lightest);
        share_tets[lightest] += world.bodies[body].tet_count;
    }
    const size_t total = world.mesh->tet_count();
    const size_t heaviest = *std::max_element(share_tets.begin(), share_tets.end());
    const size_t least = *std::min_element(share_tets.begin(), share_tets.end());
    if (least < kMinTetsPerShare ||
        static_cast<double>(heaviest) * threads > kMaxShareImbalance * static_cast<double>(total)) {
        return {};
    }
    std::vector<uint32_t> tet_share(total, 0);
    for (size_t t = 0; t < total; ++t) {
        tet_share[t] = body_share[tet_body(world, t)];
    }
    return tet_share;
}
