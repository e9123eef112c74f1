// The program's log: to the terminal, and the last lines kept for the panel.
#pragma once

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

void setup_logging();

// The most recent log lines, oldest first (for the panel's message area).
std::vector<std::string> recent_log_lines(size_t count);
