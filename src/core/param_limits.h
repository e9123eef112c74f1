// The one table of what every number the user can give may be: the command
// line refuses values outside it (naming the limit and its reason), the
// panel's sliders span it, and sanitized() clamps into it. Each limit says
// why it is where it is; figures measured on a 2-core AMD EPYC, 24 GB.
#pragma once

#include <string>

template <typename T>
struct Range {
    T min;
    T max;
    bool contains(T value) const { return value >= min && value <= max; }  // false for NaN
};

struct ParamLimits {
    // --- Material ---------------------------------------------------------
    // 1e2 Pa is softer than any gel (gelatine is ~1e4 Pa): the presets sag
    // flat under their own weight below it. 1e10 Pa is wood or bone; the
    // solver at 10 x 8 already shows stiff bodies softer than E says, more
    // shows nothing new.
    static constexpr Range<float> youngs_pa{1.0e2f, 1.0e10f};
    // lambda = E nu / ((1 + nu)(1 - 2 nu)) divides by zero at 0.5; at 0.49
    // lambda is already 16 mu. Below 0 (auxetic) is left out.
    static constexpr Range<float> poisson{0.0f, 0.49f};
    // From aerogel-light to four times osmium, the densest element.
    static constexpr Range<float> density_kg_m3{1.0f, 1.0e5f};

    // --- Schedule ---------------------------------------------------------
    // 64 substeps x 256 iterations is 205 times the default 10 x 8 work:
    // the bunny preset took 34 s per frame at that on the 2-core machine.
    static constexpr Range<int> substeps{1, 64};
    static constexpr Range<int> iterations{1, 256};
    // omega_t = clamp(k / max corner valence, 0.08, 0.5): with valences of a
    // few to a few dozen tets, k outside 0.1..10 only moves along the clamps.
    static constexpr Range<float> jacobi_k{0.1f, 10.0f};

    // --- Environment ------------------------------------------------------
    // Ten times Earth's gravity per axis, far past anything the demo shows;
    // one substep's fall h^2 g stays under 0.3 mm at the default schedule.
    static constexpr Range<float> gravity_m_s2{-100.0f, 100.0f};
    // Air and wobble damping: 100 per second stops a body (or its wobble)
    // within 1/100 s: more is just stopped. Negative damping would pump
    // energy in.
    static constexpr Range<float> damping_per_s{0.0f, 100.0f};
    // Material damping's time constant: at 0.1 s every mode above 3 Hz is
    // overdamped (w tau / 2 > 1), a body hardly bounces or wobbles at all.
    static constexpr Range<float> material_damping_s{0.0f, 0.1f};
    // Rubber on dry concrete is about 1; 2 covers any real pair of materials.
    static constexpr Range<float> friction{0.0f, 2.0f};

    // --- Grab (mouse and --drag) -----------------------------------------
    // 1 N/m holds 1 N (a 0.1 kg body) only a metre from its target: weaker
    // grabs lift nothing. At 1e9 N/m alpha~ = 1 / (k h^2) is 3.6e-4 at the
    // default schedule, orders of magnitude below a vertex's inverse mass
    // (1/kg): the grab is rigid already, stiffer changes nothing.
    static constexpr Range<float> grab_stiffness_n_per_m{1.0f, 1.0e9f};
    static constexpr Range<float> grab_strength_per_kg{1.0f, 1.0e6f};  // N/m per kg
    // The grab's reach, a fraction of the grabbed body's largest side.
    static constexpr Range<float> grab_radius_fraction{0.0f, 0.5f};
    // Each component of a --drag offset. Positions are float32: at 100 m one
    // ulp is 7.6e-6 m, 1/5000 of a bunny tet's ~4 cm edge; much farther the
    // tets drown in rounding, and at ~2e19 m |offset| overflows to infinity
    // and every vertex turns NaN.
    static constexpr float max_drag_offset_m = 100.0f;

    // --- Run --------------------------------------------------------------
    // A million frames is 4.6 hours of simulated time, three hours of wall
    // time for the bunny preset on the CPU solver (11 ms per frame on two
    // idle cores), 38 hours on llvmpipe.
    static constexpr Range<int> frames{0, 1000000};
    // OBJ tetrahedralization, cells along the longest side. assets/bunny.obj
    // with the hierarchical winding number, measured on 2 cores: 32 ->
    // 84,649 tets (0.7 CPU-s to fill, ~130 ms per frame), 48 -> 279,508
    // (2.2 CPU-s, ~0.4 s per frame on two cores: the benchmark's bunny-4x),
    // 64 -> 653,778 (5.2 CPU-s, seconds per frame). With the brute-force
    // winding number 200 took 1,756 CPU-s and 5 GB, then 221 s per frame. A
    // shape that fills its box has more tets than the bunny at the same
    // resolution. Files load in the background, so the limit is what still
    // simulates at a few frames per second.
    static constexpr Range<int> mesh_resolution{2, 48};
    static constexpr int max_tets_at_max_resolution = 280000;  // the bunny at 48, for messages
    // Window or offscreen image side, pixels. On llvmpipe 8192 x 8192 took
    // 42 s and 3 GB; 4096 x 4096 takes 9 CPU-s and 0.8 GB, and is above any
    // common screen (4K UHD is 3840 x 2160). Below 16 the picture shows
    // nothing.
    static constexpr Range<int> image_side_px{16, 4096};
};

// CPU solver threads: 1 to the hardware threads of this machine. More
// threads than cores only wait on each other (256 threads ran the bunny at
// 16 s per frame on 2 cores).
Range<int> cpu_thread_range();

// "from 1 to 100" (integers) or "from 0.1 to 1e+10": for messages.
std::string range_text(const Range<int>& range);
std::string range_text(const Range<float>& range);
