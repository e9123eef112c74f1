#include "app/log.h"

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <memory>

namespace {

std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt>& ring()
{
    static std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink =
        std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64);
    return sink;
}

}  // namespace

void setup_logging()
{
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    ring()->set_pattern("%H:%M:%S %l: %v");
    auto logger = std::make_shared<spdlog::logger>(
        "softbody", spdlog::sinks_init_list{console, ring()});
    logger->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    ring()->set_pattern("%H:%M:%S %l: %v");
    spdlog::set_default_logger(logger);
}

std::vector<std::string> recent_log_lines(size_t count)
{
    return ring()->last_formatted(count);
}
