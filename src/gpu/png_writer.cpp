#include "gpu/png_writer.h"

#include "core/file_output.h"

// Debian's libstb ships the implementation compiled into libstb.so: no
// STB_IMAGE_WRITE_IMPLEMENTATION here.
#include <stb_image_write.h>

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
    // Encoded in memory, then written with every I/O step checked: stb's
    // own file writer ignores write errors (a full disk gave "written").
    std::string encoded;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                                   static_cast<size_t>(size));
    };
    const int ok = stbi_write_png_to_func(append, &encoded, size.x, size.y, 4,
                                          rgba_top_first.data(), size.x * 4);
    if (ok == 0) {
        return R::failure("cannot write PNG '" + path + "': encoding failed");
    }
    return write_whole_file(path, encoded);
}
