// The built-in bodies, already placed where they start: above the ground,
// tilted so that they tumble (the beam hangs from its pinned face). The
// cube, torus and beam are generated; the bunny is read from assets/.
#pragma once

#include "core/result.h"
#include "core/tet_mesh.h"

#include <optional>
#include <string_view>
#include <vector>

enum class PresetId { bunny, cube, torus, beam };

struct Preset {
    PresetId id;
    const char* name;
    const char* description;
    float suggested_youngs_pa;  // a stiffness at which the preset looks right
};

const std::vector<Preset>& all_presets();
const Preset& preset_info(PresetId id);
std::optional<PresetId> preset_from_name(std::string_view name);

// How a preset is placed: as it drops alone (tilted, so that it tumbles),
// or upright, for scenes that turn and place it themselves.
enum class PresetPose { dropped, upright };

// The preset's mesh, placed in the world (metres, y up, ground at y = 0).
// Fails only for the bunny, when its asset cannot be read.
Result<TetMeshDesc> make_preset_mesh(PresetId id, PresetPose pose = PresetPose::dropped);

// Cells along the longest side when an OBJ surface is tetrahedralized on load.
inline constexpr int kDefaultMeshResolution = 12;

// A body from a file (.obj, .node/.ele, .tet), placed like the presets:
// scaled to 0.6 m along its longest side, tilted, its lowest point 0.4 m up.
// Not yet checked: prepare it (prepare_tet_mesh) before simulating it.
// `progress` (optional) sees the stages and may cancel (load_progress.h).
Result<TetMeshDesc> make_body_from_file(const std::string& path, int resolution,
                                        LoadProgress* progress = nullptr);

// All of loading a body from a file that needs no GL: read, tetrahedralize,
// place and prepare. The command line, the window's background load and the
// tests all load through it.
Result<TetMesh> prepare_body_from_file(const std::string& path, int resolution,
                                       LoadProgress* progress = nullptr);

// The Young's modulus a loaded body starts with.
inline constexpr float kLoadedBodyYoungsPa = 3.0e5f;
