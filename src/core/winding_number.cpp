#include "core/winding_number.h"

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>
#include <thread>

WindingNumberField::WindingNumberField(const SurfaceMesh& surface)
{
    const size_t n = surface.triangles.size();
    for (std::vector<float>* a : {&ax_, &ay_, &az_, &bx_, &by_, &bz_, &cx_, &cy_, &cz_}) {
        a->resize(n);
    }
    for (size_t t = 0; t < n; ++t) {
        const glm::vec3& a = surface.positions[surface.triangles[t].x];
        const glm::vec3& b = surface.positions[surface.triangles[t].y];
        const glm::vec3& c = surface.positions[surface.triangles[t].z];
        ax_[t] = a.x, ay_[t] = a.y, az_[t] = a.z;
        bx_[t] = b.x, by_[t] = b.y, bz_[t] = b.z;
        cx_[t] = c.x, cy_[t] = c.y, cz_[t] = c.z;
    }
}

double WindingNumberField::at(const glm::vec3& p) const
{
    // Solid angle of triangle (a, b, c) seen from the origin (Van Oosterom
    // and Strackee 1983): tan(Omega / 2) = det[a b c] /
    // (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|), with a, b, c relative to
    // p. atan2 keeps the right branch when the denominator is negative.
    // Brute force over all triangles: about 20 ns a triangle, so 75
    // microseconds a point for the bunny (3,674 triangles) and 0.2 s for the
    // 5,277 lattice points of its preset resolution on two cores, measured.
    // A large surface wants a hierarchy (Barill et al. 2018); not done yet.
    double sum = 0.0;
    const size_t n = ax_.size();
    for (size_t t = 0; t < n; ++t) {
        const float a0 = ax_[t] - p.x, a1 = ay_[t] - p.y, a2 = az_[t] - p.z;
        const float b0 = bx_[t] - p.x, b1 = by_[t] - p.y, b2 = bz_[t] - p.z;
        const float c0 = cx_[t] - p.x, c1 = cy_[t] - p.y, c2 = cz_[t] - p.z;
        const float la = std::sqrt(a0 * a0 + a1 * a1 + a2 * a2);
        const float lb = std::sqrt(b0 * b0 + b1 * b1 + b2 * b2);
        const float lc = std::sqrt(c0 * c0 + c1 * c1 + c2 * c2);
        const float det = a0 * (b1 * c2 - b2 * c1) - a1 * (b0 * c2 - b2 * c0) +
                          a2 * (b0 * c1 - b1 * c0);
        const float ab = a0 * b0 + a1 * b1 + a2 * b2;
        const float bc = b0 * c0 + b1 * c1 + b2 * c2;
        const float ca = c0 * a0 + c1 * a1 + c2 * a2;
        const float denom = la * lb * lc + ab * lc + bc * la + ca * lb;
        sum += std::atan2(det, denom);  // half the solid angle
    }
    return sum * 2.0 / (4.0 * glm::pi<double>());
}

std::vector<double> WindingNumberField::at_points(const std::vector<glm::vec3>& points) const
{
    std::vector<double> w(points.size());
    const size_t threads =
        std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 16);
    // Below a few hundred points a thread costs more than it saves.
    if (threads == 1 || points.size() < 256) {
        for (size_t i = 0; i < points.size(); ++i) {
            w[i] = at(points[i]);
        }
        return w;
    }
    // Interleaved (i = k, k + threads, ...), so every thread gets a share of
    // the near-surface points, whatever the lattice order.
    std::vector<std::thread> pool;
    for (size_t k = 0; k < threads; ++k) {
        pool.emplace_back([&, k] {
            for (size_t i = k; i < points.size(); i += threads) {
                w[i] = at(points[i]);
            }
        });
    }
    for (std::thread& t : pool) {
        t.join();
    }
    return w;
}
