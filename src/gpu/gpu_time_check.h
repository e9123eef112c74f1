// The one rule for whether a GPU timer's figure can stand for the time a
// span of GPU work took, used by the window's simulation time, the
// benchmark's frames and its pass-by-pass split: it must be positive and
// agree with the fenced wall-clock time of the same span (or, in the
// window, of a recent one) from a fifth of it (the wall clock also counts
// submitting the work and waiting for it) to a little over it (the two
// clocks round differently). llvmpipe's GL_TIME_ELAPSED fails it (its
// figures are far below the wall time), its timestamps pass it.
#pragma once

inline constexpr double kGpuTimeMinFractionOfWall = 0.2;
inline constexpr double kGpuTimeMaxFractionOfWall = 1.05;

inline bool gpu_time_trustworthy(double gpu_ms, double fenced_wall_ms)
{
    return gpu_ms > 0.0 && gpu_ms >= fenced_wall_ms * kGpuTimeMinFractionOfWall &&
           gpu_ms <= fenced_wall_ms * kGpuTimeMaxFractionOfWall;
}
