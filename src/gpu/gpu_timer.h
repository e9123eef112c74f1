// Measures GPU time of a span of commands with GL_TIME_ELAPSED queries,
// without stalling: results are picked up a few frames later, when ready.
#pragma once

#include "gpu/gl_objects.h"

#include <array>
#include <optional>

class GpuTimer {
public:
    GpuTimer();
    void begin();
    // Closes the span, which did `work_units` units of work (e.g. frames).
    void end(int work_units = 1);
    // The most recent finished measurement, in milliseconds per work unit.
    std::optional<double> latest_ms();

private:
    static constexpr int kInFlight = 4;
    std::array<GlQuery, kInFlight> queries_;
    std::array<bool, kInFlight> pending_{};
    std::array<int, kInFlight> work_units_{};
    int next_ = 0;
    bool open_ = false;
    std::optional<double> latest_ms_;
};
