// The built-in scenes: worlds of several bodies, chosen by name in the panel
// and with --scene NAME. Each preset is also a scene of its one body.
#pragma once

#include "core/result.h"
#include "core/world.h"

#include <string>
#include <string_view>
#include <vector>

struct SceneInfo {
    const char* name;
    const char* description;
};

// The multi-body scenes, in the panel's order.
const std::vector<SceneInfo>& builtin_scenes();

// A built-in scene or a preset by name; fails naming the scenes there are.
Result<WorldDesc> make_builtin_scene(std::string_view name);

// Whether `name` is a built-in scene or a preset.
bool is_builtin_scene(std::string_view name);

// "pile, stack, ..., bunny, cube, torus, beam": for messages and --help.
std::string builtin_scene_names();

// One preset alone, placed as it drops on its own, with no material of its
// own (the user's).
WorldDesc single_preset_scene(PresetId id, TetMeshDesc placed_mesh);
