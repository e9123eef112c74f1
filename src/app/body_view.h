// How the bodies are drawn: which surface, and whether coloured by their
// own colours or by stress (the strain view). Chosen by `--view` and by the
// panel's "Tet boundary" and "Strain view" boxes.
#pragma once

#include "core/material.h"
#include "core/render_surface.h"
#include "core/sim_params.h"
#include "core/world.h"

#include <optional>
#include <string>
#include <vector>

struct BodyView {
    DrawnSurface surface = DrawnSurface::own;
    bool strain = false;  // colour by von Mises stress
    // The stress at the top of the colour scale, Pa; unset: automatic
    // (strain_full_scale_pa).
    std::optional<float> strain_full_scale_pa;
};

// `--view`'s values: surface (each body's own surface), tets (the tets'
// boundary), strain (the own surface coloured by stress).
std::optional<BodyView> body_view_from_name(const std::string& name);
inline constexpr const char* kBodyViewNames = "surface, tets or strain";

// The automatic top of the colour scale: a tenth of the Young's modulus of
// the selected body, or of the stiffest one. Red then means about 10% strain
// (the stress of a 10% stretch along one axis at nu = 0).
float automatic_full_scale_pa(const SimParams& params, const World& world,
                              std::optional<size_t> selected);

// The Lame parameters of every body's material, as the stress passes take them.
std::vector<LameParameters> body_lame_parameters(const SimParams& params, const World& world);
