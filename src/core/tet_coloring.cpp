#include "core/tet_coloring.h"

#include <algorithm>

Csr color_tets(const std::vector<glm::uvec4>& tets, size_t vertex_count)
{
    // Colours used around each vertex, as a growing bit set per vertex.
    std::vector<std::vector<bool>> used(vertex_count);
    std::vector<uint32_t> color_of(tets.size(), 0);
    uint32_t color_count = 0;
    for (size_t t = 0; t < tets.size(); ++t) {
        uint32_t color = 0;
        for (;; ++color) {
            bool free = true;
            for (int a = 0; a < 4 && free; ++a) {
                const std::vector<bool>& u = used[tets[t][a]];
                free = color >= u.size() || !u[color];
            }
            if (free) {
                break;
            }
        }
        color_of[t] = color;
        color_count = std::max(color_count, color + 1);
        for (int a = 0; a < 4; ++a) {
            std::vector<bool>& u = used[tets[t][a]];
            if (u.size() <= color) {
                u.resize(color + 1, false);
            }
            u[color] = true;
        }
    }
    Csr colors;
    colors.offsets.assign(color_count + 1, 0);
    for (uint32_t c : color_of) {
        ++colors.offsets[c + 1];
    }
    for (size_t c = 0; c < color_count; ++c) {
        colors.offsets[c + 1] += colors.offsets[c];
    }
    colors.entries.resize(tets.size());
    std::vector<uint32_t> cursor(colors.offsets.begin(), colors.offsets.end() - 1);
    for (uint32_t t = 0; t < tets.size(); ++t) {
        colors.entries[cursor[color_of[t]]++] = t;
    }
    return colors;
}
