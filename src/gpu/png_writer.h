// Writes RGBA8 pixels to a PNG file: screenshots and test images.
#pragma once

#include "core/result.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>
#include <vector>

// `rgba_top_first` holds size.x * size.y * 4 bytes, the top row first.
// Fails with a message that names `path` when the file cannot be written.
Result<bool> write_png(const std::string& path, glm::ivec2 size,
                       const std::vector<uint8_t>& rgba_top_first);
