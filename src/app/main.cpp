// softbody: entry point. Parses the command line and runs the chosen mode.
#include "app/benchmark.h"
#include "app/command_line.h"
#include "app/headless_run.h"
#include "app/log.h"
#include "app/window_app.h"

#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

int run(const std::vector<std::string>& args, std::string& running)
{
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
    running = describe_run(options);
    if (Result<bool> writable = check_output_paths(options); !writable) {
        std::cerr << "softbody: " << writable.error() << "\n";
        return 2;
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

std::string joined(const std::vector<std::string>& args)
{
    std::string text = "softbody";
    for (const std::string& arg : args) {
        text += " " + arg;
    }
    return text;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    // What is being run, for the last-resort messages below; set once the
    // command line is understood.
    std::string running = "the command line";
    // Errors are values everywhere; this net only catches what slipped
    // through (an allocation that failed, a library that threw), so that the
    // program still says what it was doing instead of aborting.
    try {
        return run(args, running);
    } catch (const std::exception& e) {
        std::cerr << "softbody: internal error while running " << running << " ("
                  << joined(args) << "): " << e.what() << "\n";
    } catch (...) {
        std::cerr << "softbody: internal error while running " << running << " ("
                  << joined(args) << "): an unknown exception\n";
    }
    return 1;
}
