#include "core/point_triangle_distance.h"

glm::dvec3 closest_point_on_segment(const glm::dvec3& p, const glm::dvec3& a,
                                    const glm::dvec3& b)
{
    const glm::dvec3 ab = b - a;
    const double length2 = glm::dot(ab, ab);
    if (!(length2 > 0.0)) return a;
    const double t = glm::clamp(glm::dot(p - a, ab) / length2, 0.0, 1.0);
    return a + t * ab;
}

glm::dvec3 closest_point_on_triangle(const glm::dvec3& p, const glm::dvec3& a,
                                     const glm::dvec3& b, const glm::dvec3& c)
{
    const glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
    const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) return a;  // vertex region a

    const glm::dvec3 bp = p - b;
    const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) return b;  // vertex region b

    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {  // edge region ab
        return a + (d1 / (d1 - d3)) * ab;
    }

    const glm::dvec3 cp = p - c;
    const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) return c;  // vertex region c

    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {  // edge region ac
        return a + (d2 / (d2 - d6)) * ac;
    }

    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {  // edge region bc
        return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
    }

    // Face region. The three weights sum to |ab x ac|^2, four times the
    // triangle's squared area; a triangle without area has no face region
    // to speak of, and rounding can still bring a point here, so measure its
    // edges instead.
    const double sum = va + vb + vc;
    if (!(sum > 0.0)) {
        const glm::dvec3 on_ab = closest_point_on_segment(p, a, b);
        const glm::dvec3 on_bc = closest_point_on_segment(p, b, c);
        const glm::dvec3 on_ca = closest_point_on_segment(p, c, a);
        const double dab = glm::dot(p - on_ab, p - on_ab), dbc = glm::dot(p - on_bc, p - on_bc),
                     dca = glm::dot(p - on_ca, p - on_ca);
        if (dab <= dbc && dab <= dca) return on_ab;
        return dbc <= dca ? on_bc : on_ca;
    }
    const double v = vb / sum, w = vc / sum;
    return a + v * ab + w * ac;
}
