#include "core/tet_coloring.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <string>
#include <unordered_map>

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

namespace {

// Shifts of the four sweeps' cubes, in sides, along every axis.
constexpr float kSweepShifts[] = {0.0f, 0.5f, 0.25f, 0.75f};
// Cube coordinates are packed 21 bits an axis.
constexpr float kMostCubesPerAxis = 1 << 20;

Result<TetColoring> too_many_colors(uint32_t max_colors)
{
    return Result<TetColoring>::failure("needs more than " + std::to_string(max_colors) +
                                        " colours");
}

}  // namespace

Result<TetColoring> color_tets_by_region(const std::vector<glm::uvec4>& tets,
                                         const std::vector<glm::vec3>& rest_positions,
                                         float region_side_m, uint32_t max_colors)
{
    glm::vec3 lo(INFINITY);
    glm::vec3 hi(-INFINITY);
    for (const glm::vec3& x : rest_positions) {
        lo = glm::min(lo, x);
        hi = glm::max(hi, x);
    }
    const float extent =
        rest_positions.empty() ? 0.0f : glm::max(hi.x - lo.x, glm::max(hi.y - lo.y, hi.z - lo.z));
    const float side = std::max(region_side_m, extent / kMostCubesPerAxis);

    TetColoring coloring;
    std::vector<std::vector<uint32_t>> rows;  // colour -> tets, in listed order
    size_t listed = 0;                        // entries in the rows so far
    std::vector<uint32_t> remaining(tets.size());
    std::iota(remaining.begin(), remaining.end(), 0u);
    std::vector<uint64_t> cube_of_vertex(rest_positions.size());
    for (const float shift : kSweepShifts) {
        if (remaining.empty() || !(side > 0.0f)) {
            break;
        }
        for (size_t v = 0; v < rest_positions.size(); ++v) {
            const glm::vec3 cube = glm::floor((rest_positions[v] - lo) / side + shift);
            cube_of_vertex[v] = (static_cast<uint64_t>(cube.x) << 42) |
                                (static_cast<uint64_t>(cube.y) << 21) |
                                static_cast<uint64_t>(cube.z);
        }
        // Regions are numbered in the order their first tet comes.
        std::unordered_map<uint64_t, uint32_t> region_of_cube;
        std::vector<glm::uvec4> inside;
        std::vector<uint32_t> inside_tet;
        std::vector<uint32_t> inside_region;
        std::vector<uint32_t> straddling;
        for (const uint32_t t : remaining) {
            const glm::uvec4& tet = tets[t];
            const uint64_t cube = cube_of_vertex[tet.x];
            if (cube_of_vertex[tet.y] != cube || cube_of_vertex[tet.z] != cube ||
                cube_of_vertex[tet.w] != cube) {
                straddling.push_back(t);
                continue;
            }
            const auto region = static_cast<uint32_t>(region_of_cube.size());
            inside_region.push_back(region_of_cube.try_emplace(cube, region).first->second);
            inside.push_back(tet);
            inside_tet.push_back(t);
        }
        if (inside.empty()) {
            continue;
        }
        // Cubes share no vertex, so one greedy pass colours each cube as if
        // it were alone.
        Result<Csr> cube_colors = color_tets(inside, rest_positions.size(), max_colors);
        if (!cube_colors || rows.size() + cube_colors.value().rows() > max_colors) {
            return too_many_colors(max_colors);
        }
        const Csr& local = cube_colors.value();
        RegionSweep sweep;
        sweep.first_color = static_cast<uint32_t>(rows.size());
        sweep.color_end = static_cast<uint32_t>(rows.size() + local.rows());
        sweep.regions = static_cast<uint32_t>(region_of_cube.size());
        std::vector<uint32_t> region_cursor(sweep.regions + 1);
        for (size_t c = 0; c < local.rows(); ++c) {
            // A counting sort by region keeps tet order within a region.
            std::fill(region_cursor.begin(), region_cursor.end(), 0u);
            for (uint32_t e = local.begin(c); e < local.end(c); ++e) {
                ++region_cursor[inside_region[local.entries[e]] + 1];
            }
            for (uint32_t r = 0; r < sweep.regions; ++r) {
                sweep.region_starts.push_back(static_cast<uint32_t>(listed) + region_cursor[r]);
                region_cursor[r + 1] += region_cursor[r];
            }
            std::vector<uint32_t>& row = rows.emplace_back(local.end(c) - local.begin(c));
            for (uint32_t e = local.begin(c); e < local.end(c); ++e) {
                const uint32_t i = local.entries[e];
                row[region_cursor[inside_region[i]]++] = inside_tet[i];
            }
            listed += row.size();
        }
        sweep.region_starts.push_back(static_cast<uint32_t>(listed));
        coloring.sweeps.push_back(std::move(sweep));
        remaining = std::move(straddling);
    }

    std::vector<glm::uvec4> left(remaining.size());
    for (size_t i = 0; i < remaining.size(); ++i) {
        left[i] = tets[remaining[i]];
    }
    Result<Csr> left_colors = color_tets(left, rest_positions.size(), max_colors);
    if (!left_colors || rows.size() + left_colors.value().rows() > max_colors) {
        return too_many_colors(max_colors);
    }
    const Csr& free_colors = left_colors.value();
    for (size_t c = 0; c < free_colors.rows(); ++c) {
        std::vector<uint32_t>& row = rows.emplace_back();
        for (uint32_t e = free_colors.begin(c); e < free_colors.end(c); ++e) {
            row.push_back(remaining[free_colors.entries[e]]);
        }
    }

    Csr& colors = coloring.colors;
    colors.offsets.push_back(0);
    colors.entries.reserve(tets.size());
    for (const std::vector<uint32_t>& row : rows) {
        colors.entries.insert(colors.entries.end(), row.begin(), row.end());
        colors.offsets.push_back(static_cast<uint32_t>(colors.entries.size()));
    }
    return coloring;
}

size_t regions_per_group(const RegionSweep& sweep)
{
    const size_t tets = sweep.region_starts.back() - sweep.region_starts.front();
    return std::max<size_t>(1, sweep.regions * kTetsPerRegionGroup / std::max<size_t>(tets, 1));
}

float region_side_for(double total_rest_volume_m3, size_t tets, double tets_per_region)
{
    if (tets == 0) {
        return 0.0f;
    }
    return static_cast<float>(
        std::cbrt(total_rest_volume_m3 * tets_per_region / static_cast<double>(tets)));
}
