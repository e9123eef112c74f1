#include "gpu/dispatch_profile.h"

#include <algorithm>

void DispatchProfile::name_program(GLuint program, std::string name)
{
    names_[program] = std::move(name);
}

void DispatchProfile::set_enabled(bool enabled)
{
    enabled_ = enabled;
    if (enabled_) {
        sums_.clear();
        frames_ = 0;
        GLint bits = 0;
        glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
        usable_ = bits > 0;
    }
}

void DispatchProfile::begin_frame()
{
    if (!enabled_ || !usable_) {
        return;
    }
    glFinish();
    stamps_ = 0;
    labels_.clear();
    frame_open_ = true;
}

void DispatchProfile::before_dispatch()
{
    // The frame's first stamp just before its first dispatch, not at
    // begin_frame: the GPU idles meanwhile while the CPU prepares the frame.
    if (enabled_ && usable_ && frame_open_ && stamps_ == 0) {
        stamp({}, false);
    }
}

void DispatchProfile::stamp(std::string label, bool dispatch)
{
    if (queries_.size() <= stamps_) {
        GLuint name = 0;
        glGenQueries(1, &name);
        queries_.emplace_back(name);
    }
    glQueryCounter(queries_[stamps_].get(), GL_TIMESTAMP);
    if (stamps_ > 0) {
        labels_.push_back({std::move(label), dispatch});
    }
    ++stamps_;
}

void DispatchProfile::after_dispatch()
{
    if (!enabled_ || !usable_ || stamps_ == 0) {
        return;
    }
    GLint program = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    const auto named = names_.find(static_cast<GLuint>(program));
    stamp(named != names_.end() ? named->second : "program " + std::to_string(program), true);
}

void DispatchProfile::after_command(const char* what)
{
    if (enabled_ && usable_ && stamps_ > 0) {
        stamp(what, false);
    }
}

void DispatchProfile::finish_frame()
{
    const size_t stamped = stamps_;
    stamps_ = 0;  // no stamps between frames
    frame_open_ = false;
    if (!enabled_ || !usable_ || stamped < 2) {
        return;
    }
    glFinish();
    std::vector<GLuint64> stamps(stamped);
    for (size_t i = 0; i < stamped; ++i) {
        glGetQueryObjectui64v(queries_[i].get(), GL_QUERY_RESULT, &stamps[i]);
    }
    for (size_t i = 0; i + 1 < stamped; ++i) {
        if (stamps[i] == 0 || stamps[i + 1] < stamps[i]) {
            usable_ = false;  // a driver whose stamps mean nothing: no profile
            sums_.clear();
            return;
        }
    }
    for (size_t i = 0; i + 1 < stamped; ++i) {
        Sum& sum = sums_[labels_[i].first];
        sum.ms += static_cast<double>(stamps[i + 1] - stamps[i]) * 1e-6;
        sum.dispatches += labels_[i].second ? 1 : 0;
    }
    ++frames_;
}

std::vector<ProgramTime> DispatchProfile::per_frame() const
{
    std::vector<ProgramTime> out;
    if (frames_ == 0 || !usable_) {
        return out;
    }
    for (const auto& [program, sum] : sums_) {
        out.push_back({program, sum.ms / frames_, static_cast<double>(sum.dispatches) / frames_});
    }
    std::sort(out.begin(), out.end(), [](const ProgramTime& a, const ProgramTime& b) {
        return a.ms_per_frame > b.ms_per_frame;
    });
    return out;
}
