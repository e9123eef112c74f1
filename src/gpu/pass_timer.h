// Per-pass timing of the GPU solver's frame (Solver::set_pass_timing). The
// solver calls end(group) after each group of passes; the commands issued
// since the previous mark are charged to that group. Two clocks:
//   - GL timer queries: a GL_TIMESTAMP counter at every mark, read when the
//     frame is finished;
//   - fenced wall clock: glFinish and the steady clock at every mark, for
//     drivers whose timestamps are not usable.
// The first timed frame runs both and keeps the queries only if their values
// are sane: non-zero, monotonic, and spanning roughly the frame's fenced wall
// time. Every later query frame is checked against its wall time again.
// Disabled, every call returns at once: no query, no wait.
#pragma once

#include "core/pass_times.h"
#include "gpu/gl_objects.h"

#include <chrono>
#include <vector>

enum class PassGroup {
    predict,
    solve,
    apply,
    contact_find,
    contact_solve,
    grab,
    velocity,
    normals,
    other
};

class PassTimer {
public:
    // Starts a frame; waits for the GPU so that the frame is measured alone.
    void begin_frame(bool enabled);
    // Charges the commands since the previous mark to `group`.
    void end(PassGroup group);
    // Waits for the frame's commands and returns where the time went.
    PassTimes finish_frame();

private:
    enum class Clock { probe, queries, wall };
    using WallClock = std::chrono::steady_clock;

    void mark();
    bool queries_are_sane(const std::vector<GLuint64>& stamps, double frame_wall_ms) const;

    Clock clock_ = Clock::probe;
    bool enabled_ = false;
    std::vector<GlQuery> queries_;       // one per mark, reused every frame
    std::vector<PassGroup> groups_;      // group of mark i + 1
    std::vector<WallClock::time_point> wall_marks_;
};
