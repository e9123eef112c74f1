// Generalized winding number of a triangle soup (Jacobson, Kavan and
// Sorkine-Hornung 2013, "Robust inside-outside segmentation using
// generalized winding numbers"): w(p) = sum over triangles of the signed
// solid angle they subtend at p, divided by 4 pi. It is 1 inside and 0
// outside a closed, outward-oriented surface, and degrades gracefully
// (values near 1 or 0, a smooth ramp across a hole) when the surface has
// small holes, so thresholding |w| at 1/2 classifies points robustly.
#pragma once

#include "core/surface_mesh.h"

#include <glm/glm.hpp>

#include <vector>

class WindingNumberField {
public:
    explicit WindingNumberField(const SurfaceMesh& surface);

    // w at one point.
    double at(const glm::vec3& p) const;

    // w at many points, spread over the hardware threads: the lattice of the
    // tetrahedralizer asks for thousands at once.
    std::vector<double> at_points(const std::vector<glm::vec3>& points) const;

private:
    // Triangle corners as separate float arrays, so the brute-force loop
    // reads memory linearly and vectorizes.
    std::vector<float> ax_, ay_, az_, bx_, by_, bz_, cx_, cy_, cz_;
};
