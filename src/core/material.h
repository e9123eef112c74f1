// Linear elastic material in XPBD form (DESIGN.md section 2): Young's modulus
// and Poisson ratio become Lame parameters, and those the compliances of the
// shape (co-rotational) and volume constraints of each tet.
#pragma once

// What a body is made of; every body of a world has its own.
struct BodyMaterial {
    float youngs_modulus_pa = 1.0e5f;
    float poisson_ratio = 0.3f;
    float density_kg_m3 = 1000.0f;

    bool operator==(const BodyMaterial&) const = default;
};

struct LameParameters {
    float mu_pa;      // shear modulus
    float lambda_pa;  // first Lame parameter; 0 at nu = 0
};

LameParameters lame_parameters(float youngs_modulus_pa, float poisson_ratio);

// Compliance of the shape constraint |Sigma - I|: 1 / (2 mu V0).
float arap_compliance(const LameParameters& lame, float rest_volume_m3);

// Compliance of the volume constraint J - 1: 1 / (lambda V0). Only meaningful
// when volume_constraint_enabled(lame).
float volume_compliance(const LameParameters& lame, float rest_volume_m3);

// A sliver's volume term (tm_sliver_shape_step): 1 / ((lambda + 2 mu) V0),
// on at any nu.
float sliver_volume_compliance(const LameParameters& lame, float rest_volume_m3);

// With lambda = 0 (nu = 0) the volume term has no energy and is skipped.
bool volume_constraint_enabled(const LameParameters& lame);

// The compliances a tet steps with: its shape term's, and its volume
// term's or -1 where it has none. A sliver's volume term is on at any nu and
// takes the stiffness across that its shape term loses (see
// tet_compliances in material.cpp).
struct TetCompliances {
    float shape;
    float volume;
};
TetCompliances tet_compliances(const LameParameters& lame, float rest_volume_m3, bool sliver);
