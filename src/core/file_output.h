// Writing the files the program produces (stats, positions, benchmark rows,
// screenshots) so that a failure is never silent: a full disk, a missing
// folder or a read-only file is an error that names the path and the
// operating system's reason.
#pragma once

#include "core/result.h"

#include <string>
#include <string_view>

// Replaces `path` with `bytes`. Every step (open, write, flush, close) is
// checked: "cannot write 'PATH': No space left on device".
Result<bool> write_whole_file(const std::string& path, std::string_view bytes);

// Whether `path` could be written now, without touching it: an existing
// file must be writable and not a folder, a new one needs an existing,
// writable folder. For checking a run's outputs before the run, not after.
// The failure says why ("folder '/x' does not exist"); the caller names the
// path and what it was for.
Result<bool> check_writable_path(const std::string& path);
