#include "core/param_limits.h"

#include "core/worker_team.h"

#include <sstream>

Range<int> cpu_thread_range()
{
    return {1, default_thread_count()};
}

std::string range_text(const Range<int>& range)
{
    return "from " + std::to_string(range.min) + " to " + std::to_string(range.max);
}

std::string range_text(const Range<float>& range)
{
    std::ostringstream out;
    out << "from " << range.min << " to " << range.max;
    return out.str();
}
