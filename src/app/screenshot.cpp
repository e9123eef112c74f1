#include "app/screenshot.h"

#include "gpu/gl_loader.h"
#include "gpu/png_writer.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

Result<bool> save_framebuffer_png(const std::string& path, glm::ivec2 size)
{
    std::vector<uint8_t> bottom_first(static_cast<size_t>(size.x) * size.y * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, size.x, size.y, GL_RGBA, GL_UNSIGNED_BYTE, bottom_first.data());
    std::vector<uint8_t> top_first(bottom_first.size());
    const size_t row = static_cast<size_t>(size.x) * 4;
    for (int y = 0; y < size.y; ++y) {
        std::copy_n(&bottom_first[static_cast<size_t>(size.y - 1 - y) * row], row,
                    &top_first[static_cast<size_t>(y) * row]);
    }
    for (size_t i = 3; i < top_first.size(); i += 4) {
        top_first[i] = 255;  // the window's alpha means nothing in a picture
    }
    return write_png(path, size, top_first);
}

std::string timestamped_screenshot_name()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char name[64];
    std::strftime(name, sizeof name, "softbody-%Y%m%d-%H%M%S.png", std::localtime(&now));
    return name;
}
