// Where a GPU frame's time goes, program by program (the benchmark's
// --bench-profile): a GL_TIMESTAMP query after every compute dispatch, the
// time since the stamp before charged to the program that dispatched. A
// buffer clear or barrier issued between two dispatches is charged to the
// later one, unless the solver stamps it on its own (after_command). Only
// where the driver's timestamps are usable; the frames it times are
// separate from the benchmark's, since a stamp after every dispatch costs.
#pragma once

#include "core/pass_times.h"
#include "gpu/gl_objects.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

class DispatchProfile {
public:
    void name_program(GLuint program, std::string name);
    // On: the next frames are profiled, their sums started afresh.
    void set_enabled(bool enabled);
    // Waits for the GPU, so that the frame is measured alone.
    void begin_frame();
    // Stamps the frame's start before its first dispatch.
    void before_dispatch();
    // Stamps after a dispatch of the program now in use.
    void after_dispatch();
    // Stamps after a command that is no dispatch, under its own name (not
    // timed before the frame's first dispatch).
    void after_command(const char* what);
    // Waits for the frame's stamps and adds them to the sums.
    void finish_frame();
    // Mean per profiled frame, the most time first; empty where the
    // driver's timestamps were unusable.
    std::vector<ProgramTime> per_frame() const;

private:
    void stamp(std::string label, bool dispatch);

    bool enabled_ = false;
    bool usable_ = true;
    bool frame_open_ = false;  // between begin_frame and finish_frame
    int frames_ = 0;
    std::map<GLuint, std::string> names_;
    std::vector<GlQuery> queries_;     // one per stamp, reused every frame
    // Label of stamp i + 1, and whether it followed a dispatch.
    std::vector<std::pair<std::string, bool>> labels_;
    size_t stamps_ = 0;                // this frame's so far
    struct Sum {
        double ms = 0.0;
        uint64_t dispatches = 0;
    };
    std::map<std::string, Sum> sums_;
};
