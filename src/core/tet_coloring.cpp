#include "core/tet_coloring.h"

#include <algorithm>
#include <bit>
#include <string>

Result<Csr> color_tets(const std::vector<glm::uvec4>& tets, size_t vertex_count,
                       uint32_t max_colors)
{
    // used[v]: bit c of word c / 64 is set when a tet at v has colour c.
    // Each set grows only as far as its highest colour, so a vertex with few
    // tets costs one word, and a tet scans at most max_colors / 64 words a
    // corner: linear in the tets even when a vertex has thousands.
    std::vector<std::vector<uint64_t>> used(vertex_count);
    std::vector<uint32_t> color_of(tets.size(), 0);
    uint32_t color_count = 0;
    for (size_t t = 0; t < tets.size(); ++t) {
        const glm::uvec4& tet = tets[t];
        size_t words = 0;
        for (int a = 0; a < 4; ++a) {
            words = std::max(words, used[tet[a]].size());
        }
        uint32_t color = static_cast<uint32_t>(words * 64);  // past every set
        for (size_t w = 0; w < words; ++w) {
            uint64_t taken = 0;
            for (int a = 0; a < 4; ++a) {
                const std::vector<uint64_t>& u = used[tet[a]];
                if (w < u.size()) taken |= u[w];
            }
            if (taken != ~uint64_t{0}) {
                color = static_cast<uint32_t>(w * 64 + std::countr_one(taken));
                break;
            }
        }
        if (color >= max_colors) {
            return Result<Csr>::failure("needs more than " + std::to_string(max_colors) +
                                        " colours (tet " + std::to_string(t) + ")");
        }
        color_of[t] = color;
        color_count = std::max(color_count, color + 1);
        for (int a = 0; a < 4; ++a) {
            std::vector<uint64_t>& u = used[tet[a]];
            if (u.size() <= color / 64) {
                u.resize(color / 64 + 1, 0);
            }
            u[color / 64] |= uint64_t{1} << (color % 64);
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
