// Surface to tet mesh: a body-centred cubic lattice over the surface's
// bounding box, inside and outside from the generalized winding number (so
// small holes and flipped orientation do not break it), and isosurface
// stuffing for a boundary that follows the surface (isosurface_stuffing.h).
#pragma once

#include "core/load_progress.h"
#include "core/result.h"
#include "core/surface_mesh.h"
#include "core/tet_mesh.h"
#include "core/tet_quality.h"

#include <string>

struct TetrahedralizeOptions {
    // Lattice cells along the longest side of the bounding box: sets the tet
    // size. 12 gives the bunny about 1,200 vertices and 4,500 tets.
    int cells_along_longest_side = 12;
    // Where to report how far it has come and to look for a cancel request
    // (load_progress.h); nullptr: nobody is watching.
    LoadProgress* progress = nullptr;
};

// Accepted range of cells_along_longest_side.
constexpr int kMinCellsAlongLongestSide = 2;
constexpr int kMaxCellsAlongLongestSide = 200;

struct TetrahedralizeReport {
    TetQuality quality;
    double surface_volume = 0.0;   // |signed enclosed volume| of the input
    double volume_ratio = 0.0;     // tet volume / surface volume
    double seconds = 0.0;          // wall time of tetrahedralize()
    size_t lattice_vertices = 0;
    size_t warped_vertices = 0;
    size_t dropped_tets = 0;       // flat ones and small pieces
    size_t split_vertices = 0;     // copies made where pieces touched
};

// The tet mesh, in the surface's units; `name` names the source in
// messages. Fails, with a message naming it, on an empty or non-finite
// surface, a resolution out of range, or a surface with no inside (so open
// that the winding number never reaches 1/2, or thinner than a cell), and
// with "loading NAME cancelled" when options.progress asks it to stop.
Result<TetMeshDesc> tetrahedralize(const SurfaceMesh& surface,
                                   const TetrahedralizeOptions& options,
                                   const std::string& name,
                                   TetrahedralizeReport* report = nullptr);
