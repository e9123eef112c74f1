// The bunny preset: the Stanford bunny (assets/bunny.obj, credited in
// assets/README.md), tetrahedralized by this project's own tetrahedralizer.
#pragma once

#include "core/result.h"
#include "core/tet_mesh.h"

#include <string>

// The directory the assets are read from: $SOFTBODY_ASSET_DIR when set, else
// the source tree's assets/ (compiled in).
std::string asset_directory();

// The bunny, about 0.6 m long and 0.58 m tall, y up, tilted slightly
// (unless `upright`) and lifted so that its lowest point is 0.25 m above the
// ground. At resolution kBunnyTetResolution it reads the pre-generated
// assets/bunny.tet (see bunny.cpp); at any other it tetrahedralizes
// assets/bunny.obj with that many cells along its longest side (seconds at
// 24), placed and dropped the same way.
inline constexpr int kBunnyTetResolution = 12;
Result<TetMeshDesc> make_bunny_mesh(bool upright = false, int resolution = kBunnyTetResolution);
