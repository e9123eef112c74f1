#include "gpu/gpu_timer.h"

#include <algorithm>

GpuTimer::GpuTimer()
{
    for (GlQuery& q : queries_) {
        GLuint name = 0;
        glGenQueries(1, &name);
        q = GlQuery(name);
    }
}

void GpuTimer::begin()
{
    // If every query is still in flight, skip this measurement rather than wait.
    if (pending_[next_]) {
        return;
    }
    glBeginQuery(GL_TIME_ELAPSED, queries_[next_].get());
    open_ = true;
}

void GpuTimer::end(int work_units)
{
    if (!open_) {
        return;
    }
    glEndQuery(GL_TIME_ELAPSED);
    pending_[next_] = true;
    work_units_[next_] = std::max(work_units, 1);
    next_ = (next_ + 1) % kInFlight;
    open_ = false;
}

std::optional<double> GpuTimer::latest_ms()
{
    for (int i = 0; i < kInFlight; ++i) {
        const int slot = (next_ + i) % kInFlight;  // oldest first
        if (!pending_[slot]) {
            continue;
        }
        GLint available = 0;
        glGetQueryObjectiv(queries_[slot].get(), GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available) {
            break;
        }
        GLuint64 ns = 0;
        glGetQueryObjectui64v(queries_[slot].get(), GL_QUERY_RESULT, &ns);
        pending_[slot] = false;
        latest_ms_ = static_cast<double>(ns) * 1e-6 / work_units_[slot];
    }
    return latest_ms_;
}
