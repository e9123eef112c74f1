#include "gpu/pass_timer.h"

#include "gpu/gpu_time_check.h"

#include <cmath>

namespace {

double& field_of(PassTimes& times, PassGroup group)
{
    switch (group) {
    case PassGroup::predict: return times.predict_ms;
    case PassGroup::solve: return times.solve_ms;
    case PassGroup::apply: return times.apply_ms;
    case PassGroup::contact_find: return times.contact_find_ms;
    case PassGroup::contact_solve: return times.contact_solve_ms;
    case PassGroup::grab: return times.grab_ms;
    case PassGroup::velocity: return times.velocity_ms;
    case PassGroup::normals: return times.normals_ms;
    case PassGroup::other: break;
    }
    return times.other_ms;
}

}  // namespace

void PassTimer::begin_frame(bool enabled)
{
    enabled_ = enabled;
    if (!enabled_) {
        return;
    }
    if (clock_ == Clock::probe) {
        GLint bits = 0;
        glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
        if (bits == 0) {
            clock_ = Clock::wall;
        }
    }
    groups_.clear();
    wall_marks_.clear();
    glFinish();
    mark();
}

void PassTimer::mark()
{
    const size_t index = wall_marks_.size();
    if (clock_ != Clock::wall) {
        if (queries_.size() <= index) {
            GLuint name = 0;
            glGenQueries(1, &name);
            queries_.emplace_back(name);
        }
        glQueryCounter(queries_[index].get(), GL_TIMESTAMP);
    }
    if (clock_ != Clock::queries && index > 0) {  // begin_frame waited for the first
        glFinish();
    }
    wall_marks_.push_back(WallClock::now());
}

void PassTimer::end(PassGroup group)
{
    if (!enabled_) {
        return;
    }
    groups_.push_back(group);
    mark();
}

bool PassTimer::queries_are_sane(const std::vector<GLuint64>& stamps, double frame_wall_ms) const
{
    for (size_t i = 0; i < stamps.size(); ++i) {
        if (stamps[i] == 0 || (i > 0 && stamps[i] < stamps[i - 1])) {
            return false;
        }
    }
    const double span_ms = static_cast<double>(stamps.back() - stamps.front()) * 1e-6;
    return gpu_time_trustworthy(span_ms, frame_wall_ms);
}

PassTimes PassTimer::finish_frame()
{
    PassTimes times;
    if (!enabled_) {
        return times;
    }
    glFinish();
    const double frame_wall_ms =
        std::chrono::duration<double, std::milli>(WallClock::now() - wall_marks_.front()).count();
    if (clock_ != Clock::wall) {
        std::vector<GLuint64> stamps(wall_marks_.size());
        for (size_t i = 0; i < stamps.size(); ++i) {
            glGetQueryObjectui64v(queries_[i].get(), GL_QUERY_RESULT, &stamps[i]);
        }
        if (queries_are_sane(stamps, frame_wall_ms)) {
            clock_ = Clock::queries;
            times.clock = "GL timer queries";
            for (size_t i = 0; i < groups_.size(); ++i) {
                field_of(times, groups_[i]) += static_cast<double>(stamps[i + 1] - stamps[i]) * 1e-6;
            }
            return times;
        }
        if (clock_ == Clock::queries) {
            // Sane before, not now: this frame had no fenced marks, so only
            // its total is known; later frames use the wall clock.
            clock_ = Clock::wall;
            times.clock = "fenced wall clock (frame total only)";
            times.other_ms = frame_wall_ms;
            return times;
        }
        clock_ = Clock::wall;
    }
    times.clock = "fenced wall clock";
    for (size_t i = 0; i < groups_.size(); ++i) {
        field_of(times, groups_[i]) +=
            std::chrono::duration<double, std::milli>(wall_marks_[i + 1] - wall_marks_[i]).count();
    }
    return times;
}
