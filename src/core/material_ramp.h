// Live material changes without a launch. A body crushed under a soft
// material stores little energy; made a thousand times stiffer in one frame,
// XPBD restores its shape within a few substeps and the restoring speed
// throws it metres up. The ramp lets a stiffening take effect gradually
// (Young's modulus at most kStiffeningPerSecond times larger each second,
// Poisson's ratio at most kPoissonPerSecond closer to 0.5), so that the body
// unfolds where it lies; softening and density act at once (neither stores
// energy that could launch anything).
#pragma once

#include "core/sim_params.h"

#include <vector>

class MaterialRamp {
public:
    // A factor of 10 in 0.4 s: from jelly (2 kPa) to plastic (10 MPa) in
    // about 1.5 s.
    static constexpr float kStiffeningPerSecond = 316.0f;
    static constexpr float kPoissonPerSecond = 0.5f;

    // The parameters to simulate the next `dt_s` with: `wanted`, with each
    // body's material no further from the previous frame's than the ramp
    // allows. The first call (and the first after reset()) takes `wanted`
    // as it is: a new world starts with its own materials.
    SimParams next(const SimParams& wanted, float dt_s);

    // Forget the applied materials: a new world, a reset, a preset.
    void reset() { applied_.clear(); }
    // A body left the world: the others keep ramping from where they are.
    // (A body added at the end starts at its own material.)
    void remove_body(size_t body);

    // Whether the last next() held a material back from the wanted one.
    bool ramping() const { return ramping_; }

private:
    std::vector<BodyMaterial> applied_;  // per body, as last simulated
    bool ramping_ = false;
};
