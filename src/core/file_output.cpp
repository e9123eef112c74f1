#include "core/file_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include <unistd.h>

namespace {

std::string os_error(int error)
{
    return error != 0 ? std::strerror(error) : "unknown error";
}

}  // namespace

Result<bool> write_whole_file(const std::string& path, std::string_view bytes)
{
    auto fail = [&](int error) {
        return Result<bool>::failure("cannot write '" + path + "': " + os_error(error));
    };
    errno = 0;
    std::FILE* raw = std::fopen(path.c_str(), "wb");
    if (raw == nullptr) {
        return fail(errno);
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(raw, std::fclose);
    errno = 0;
    if (std::fwrite(bytes.data(), 1, bytes.size(), file.get()) != bytes.size() ||
        std::fflush(file.get()) != 0) {
        return fail(errno);
    }
    // Some errors (a full disk behind a network file system) only show here.
    errno = 0;
    if (std::fclose(file.release()) != 0) {
        return fail(errno);
    }
    return true;
}

Result<bool> check_writable_path(const std::string& path)
{
    namespace fs = std::filesystem;
    using R = Result<bool>;
    if (path.empty()) {
        return R::failure("an empty path");
    }
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::exists(status)) {
        if (fs::is_directory(status)) {
            return R::failure("it is a folder");
        }
        if (::access(path.c_str(), W_OK) != 0) {
            return R::failure(os_error(errno));
        }
        return true;
    }
    const fs::path parent = fs::path(path).parent_path();
    const std::string folder = parent.empty() ? std::string(".") : parent.string();
    const fs::file_status folder_status = fs::status(folder, ec);
    if (!fs::exists(folder_status)) {
        return R::failure("folder '" + folder + "' does not exist");
    }
    if (!fs::is_directory(folder_status)) {
        return R::failure("'" + folder + "' is not a folder");
    }
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
        return R::failure("folder '" + folder + "': " + os_error(errno));
    }
    return true;
}
