// Screenshots of what is on screen: read the current framebuffer, write PNG.
#pragma once

#include "core/result.h"

#include <glm/glm.hpp>

#include <string>

// Reads the bound read framebuffer (bottom row first in GL) and writes it
// top row first as PNG.
Result<bool> save_framebuffer_png(const std::string& path, glm::ivec2 size);

// "softbody-20261129-153012.png" in the working directory.
std::string timestamped_screenshot_name();
