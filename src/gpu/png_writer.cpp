#include "gpu/png_writer.h"

// Debian's libstb ships the implementation compiled into libstb.so: no
// STB_IMAGE_WRITE_IMPLEMENTATION here.
#include <stb_image_write.h>

#include <cerrno>
#include <cstring>

Result<bool> write_png(const std::string& path, glm::ivec2 size,
                       const std::vector<uint8_t>& rgba_top_first)
{
    using R = Result<bool>;
    if (size.x <= 0 || size.y <= 0) {
        return R::failure("cannot write PNG '" + path + "': empty image (" +
                          std::to_string(size.x) + " x " + std::to_string(size.y) + ")");
    }
    const size_t expected_bytes = static_cast<size_t>(size.x) * static_cast<size_t>(size.y) * 4;
    if (rgba_top_first.size() != expected_bytes) {
        return R::failure("cannot write PNG '" + path + "': " +
                          std::to_string(rgba_top_first.size()) + " bytes of pixels for " +
                          std::to_string(size.x) + " x " + std::to_string(size.y) +
                          " RGBA (expected " + std::to_string(expected_bytes) + ")");
    }
    // stb reports failure as 0; the reason, if the C library gave one, is in errno.
    errno = 0;
    const int ok = stbi_write_png(path.c_str(), size.x, size.y, 4, rgba_top_first.data(),
                                  size.x * 4);
    if (ok == 0) {
        const std::string reason = errno != 0 ? std::strerror(errno) : "write failed";
        return R::failure("cannot write PNG '" + path + "': " + reason);
    }
    return true;
}
