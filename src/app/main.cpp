// softbody: entry point. Parses the command line and runs the chosen mode.
#include "app/benchmark.h"
#include "app/command_line.h"
#include "app/headless_run.h"
#include "app/log.h"
#include "app/window_app.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    Result<Options> parsed = parse_command_line(args);
    if (!parsed) {
        std::cerr << "softbody: " << parsed.error() << "\n";
        return 2;
    }
    const Options& options = parsed.value();
    if (options.help) {
        std::cout << usage_text();
        return 0;
    }
    if (options.bench) {
        return run_benchmark(options);
    }
    if (options.headless) {
        return run_headless(options);
    }
    setup_logging();
    return run_window_app(options);
}
