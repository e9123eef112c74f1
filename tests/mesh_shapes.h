// Closed test surfaces written as OBJ text, as a user's file would be: a
// UV sphere, a box and a torus, plus ways to damage them (a hole, flipped
// faces).
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

struct ObjShape {
    std::vector<glm::vec3> v;
    std::vector<glm::uvec3> f;  // 0-based, counter-clockwise seen from outside

    std::string text() const
    {
        std::ostringstream s;
        s.precision(9);
        for (const glm::vec3& p : v) s << "v " << p.x << ' ' << p.y << ' ' << p.z << '\n';
        for (const glm::uvec3& t : f) s << "f " << t.x + 1 << ' ' << t.y + 1 << ' ' << t.z + 1 << '\n';
        return s.str();
    }
};

// A (rings x segments) UV sphere; its poles are single vertices.
inline ObjShape uv_sphere(float radius, int rings, int segments)
{
    ObjShape s;
    s.v.push_back({0.0f, radius, 0.0f});
    for (int r = 1; r < rings; ++r) {
        const float theta = glm::pi<float>() * r / rings;
        for (int k = 0; k < segments; ++k) {
            const float phi = glm::two_pi<float>() * k / segments;
            s.v.push_back(radius * glm::vec3(std::sin(theta) * std::cos(phi), std::cos(theta),
                                             -std::sin(theta) * std::sin(phi)));
        }
    }
    s.v.push_back({0.0f, -radius, 0.0f});
    auto ring = [&](int r, int k) { return 1u + (r - 1) * segments + (k % segments); };
    const unsigned south = static_cast<unsigned>(s.v.size() - 1);
    for (int k = 0; k < segments; ++k) {
        s.f.push_back({0u, ring(1, k), ring(1, k + 1)});
        for (int r = 1; r + 1 < rings; ++r) {
            s.f.push_back({ring(r, k), ring(r + 1, k), ring(r + 1, k + 1)});
            s.f.push_back({ring(r, k), ring(r + 1, k + 1), ring(r, k + 1)});
        }
        s.f.push_back({ring(rings - 1, k), south, ring(rings - 1, k + 1)});
    }
    return s;
}

// An axis-aligned box from -size/2 to size/2, two triangles a face.
inline ObjShape box(glm::vec3 size)
{
    ObjShape s;
    for (int i = 0; i < 8; ++i) {
        s.v.push_back(0.5f * size * glm::vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
    }
    // Each face as a quad, counter-clockwise seen from outside.
    const unsigned quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                  {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : quads) {
        s.f.push_back({q[0], q[1], q[2]});
        s.f.push_back({q[0], q[2], q[3]});
    }
    return s;
}

// A torus around the y axis: ring radius R, tube radius r.
inline ObjShape torus(float R, float r, int segments, int sides)
{
    ObjShape s;
    for (int i = 0; i < segments; ++i) {
        const float u = glm::two_pi<float>() * i / segments;
        for (int j = 0; j < sides; ++j) {
            const float w = glm::two_pi<float>() * j / sides;
            const float rho = R + r * std::cos(w);
            s.v.push_back({rho * std::cos(u), r * std::sin(w), -rho * std::sin(u)});
        }
    }
    auto id = [&](int i, int j) { return unsigned((i % segments) * sides + (j % sides)); };
    for (int i = 0; i < segments; ++i) {
        for (int j = 0; j < sides; ++j) {
            s.f.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
            s.f.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
        }
    }
    return s;
}

inline ObjShape flipped(ObjShape s)
{
    for (glm::uvec3& t : s.f) std::swap(t.y, t.z);
    return s;
}

// Removes `count` triangles starting at `first`: a small hole.
inline ObjShape with_hole(ObjShape s, size_t first, size_t count)
{
    s.f.erase(s.f.begin() + static_cast<long>(first), s.f.begin() + static_cast<long>(first + count));
    return s;
}

// A unit icosahedron split `levels` times into four (midpoints pushed out to
// the sphere): 20 * 4^levels triangles, all about the same size; 6 levels
// make 81,920.
inline ObjShape icosphere(int levels)
{
    const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
    ObjShape s;
    s.v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
           {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    for (glm::vec3& p : s.v) p = glm::normalize(p);
    s.f = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
           {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8},
           {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
    for (int level = 0; level < levels; ++level) {
        std::map<std::pair<unsigned, unsigned>, unsigned> midpoint_of;
        auto midpoint = [&](unsigned a, unsigned b) {
            const auto key = std::minmax(a, b);
            auto [it, inserted] = midpoint_of.emplace(key, static_cast<unsigned>(s.v.size()));
            if (inserted) s.v.push_back(glm::normalize(s.v[a] + s.v[b]));
            return it->second;
        };
        std::vector<glm::uvec3> finer;
        finer.reserve(s.f.size() * 4);
        for (const glm::uvec3& f : s.f) {
            const unsigned ab = midpoint(f.x, f.y), bc = midpoint(f.y, f.z), ca = midpoint(f.z, f.x);
            finer.insert(finer.end(), {{f.x, ab, ca}, {f.y, bc, ab}, {f.z, ca, bc}, {ab, bc, ca}});
        }
        s.f = std::move(finer);
    }
    return s;
}
