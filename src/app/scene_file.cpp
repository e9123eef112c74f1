#include "app/scene_file.h"

#include "core/mesh_files.h"
#include "core/number_text.h"
#include "core/param_limits.h"
#include "core/scenes.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace {

using Json = nlohmann::json;

// Scene coordinates: a world of a kilometre is far past anything shown, and
// float positions there still resolve 0.06 mm.
constexpr float kMaxCoordinateM = 1000.0f;
// Start speeds: 100 m/s crosses a 0.1 m part in a sixth of a substep.
constexpr float kMaxSpeedMS = 100.0f;
constexpr float kMaxAngularSpeedRadS = 100.0f;
// Obstacle radii and half extents, and a mesh's size.
constexpr Range<float> kObstacleSizeM{1.0e-3f, 100.0f};
constexpr Range<float> kMeshSizeM{0.01f, 100.0f};
constexpr float kDefaultMeshSizeM = 0.6f;
// A scene of the most bodies and obstacles, spelled out, is far smaller.
constexpr uintmax_t kMaxSceneFileBytes = 16u << 20;

// A failure at some field of the file: thrown inside, caught once.
struct SceneError {
    std::string where;  // "bodies[2].youngs"
    std::string what;
};

std::string kind_of(const Json& value)
{
    return value.type_name();
}

void allow_keys(const Json& object, const std::string& where, std::set<std::string> allowed)
{
    for (const auto& [key, value] : object.items()) {
        if (!allowed.count(key)) {
            std::string list;
            for (const std::string& k : allowed) list += (list.empty() ? "" : ", ") + k;
            throw SceneError{where.empty() ? key : where + "." + key,
                             "unknown key (expected one of " + list + ")"};
        }
    }
}

float number_in(const Json& value, const std::string& where, const Range<float>& range)
{
    if (!value.is_number()) {
        throw SceneError{where, "expected a number " + range_text(range) + ", got " +
                                    kind_of(value)};
    }
    const double x = value.get<double>();
    if (!(x >= range.min && x <= range.max)) {
        throw SceneError{where, "expected a number " + range_text(range) + ", got " +
                                    short_number(x)};
    }
    return static_cast<float>(x);
}

glm::vec3 vector_in(const Json& value, const std::string& where, float limit)
{
    if (!value.is_array() || value.size() != 3) {
        throw SceneError{where, "expected an array of three numbers [x, y, z], got " +
                                    (value.is_array() ? std::to_string(value.size()) + " items"
                                                      : kind_of(value))};
    }
    glm::vec3 v;
    for (int i = 0; i < 3; ++i) {
        v[i] = number_in(value[i], where + "[" + std::to_string(i) + "]", {-limit, limit});
    }
    return v;
}

bool boolean(const Json& value, const std::string& where)
{
    if (!value.is_boolean()) {
        throw SceneError{where, "expected true or false, got " + kind_of(value)};
    }
    return value.get<bool>();
}

const Json& required(const Json& object, const std::string& where, const char* key)
{
    if (!object.contains(key)) {
        throw SceneError{where, std::string("missing \"") + key + "\""};
    }
    return object.at(key);
}

BodyDesc parse_body(const Json& entry, const std::string& where, const std::string& path,
                    int default_resolution, LoadProgress* progress)
{
    if (!entry.is_object()) {
        throw SceneError{where, "expected an object {\"preset\": ...} or {\"mesh\": ...}, got " +
                                    kind_of(entry)};
    }
    allow_keys(entry, where,
               {"preset", "mesh", "position", "rotation_deg", "velocity", "angular_velocity",
                "youngs", "poisson", "density", "pinned", "size", "resolution"});
    const bool has_preset = entry.contains("preset");
    const bool has_mesh = entry.contains("mesh");
    if (has_preset == has_mesh) {
        throw SceneError{where, has_preset ? "has both \"preset\" and \"mesh\": give one"
                                           : "needs \"preset\" (" + builtin_scene_names() +
                                                 ") or \"mesh\" (a file)"};
    }
    BodyDesc body;
    if (has_preset) {
        const Json& name = entry.at("preset");
        const std::optional<PresetId> id =
            name.is_string() ? preset_from_name(name.get<std::string>()) : std::nullopt;
        if (!id) {
            std::string presets;
            for (const Preset& p : all_presets()) presets += (presets.empty() ? "" : ", ") + std::string(p.name);
            throw SceneError{where + ".preset", "unknown preset " + name.dump() +
                                                    " (expected one of " + presets + ")"};
        }
        for (const char* key : {"size", "resolution"}) {
            if (entry.contains(key)) {
                throw SceneError{where + "." + key, "only a \"mesh\" body has it"};
            }
        }
        Result<TetMeshDesc> mesh = make_preset_mesh(*id, PresetPose::upright);
        if (!mesh) {
            throw SceneError{where + ".preset", mesh.error()};
        }
        body.mesh = std::move(mesh).value();
        body.preset = id;
    } else {
        const Json& file = entry.at("mesh");
        if (!file.is_string() || file.get<std::string>().empty()) {
            throw SceneError{where + ".mesh", "expected a file path, got " + file.dump()};
        }
        std::filesystem::path mesh_path = file.get<std::string>();
        if (mesh_path.is_relative()) {
            mesh_path = std::filesystem::path(path).parent_path() / mesh_path;
        }
        TetrahedralizeOptions options;
        options.cells_along_longest_side =
            entry.contains("resolution")
                ? static_cast<int>(number_in(entry.at("resolution"), where + ".resolution",
                                             {static_cast<float>(ParamLimits::mesh_resolution.min),
                                              static_cast<float>(ParamLimits::mesh_resolution.max)}))
                : default_resolution;
        options.progress = progress;
        const float size = entry.contains("size")
                               ? number_in(entry.at("size"), where + ".size", kMeshSizeM)
                               : kDefaultMeshSizeM;
        Result<TetMeshDesc> mesh = read_mesh_file(mesh_path.string(), options);
        if (!mesh) {
            throw SceneError{where + ".mesh", mesh.error()};
        }
        body.mesh = std::move(mesh).value();
        Result<bool> placed = place_above_ground(body.mesh, size, 0.4f, 0.0f);
        if (!placed) {
            throw SceneError{where + ".mesh", placed.error()};
        }
    }
    if (entry.contains("position")) {
        body.position_m = vector_in(entry.at("position"), where + ".position", kMaxCoordinateM);
    }
    if (entry.contains("rotation_deg")) {
        body.rotation_deg = vector_in(entry.at("rotation_deg"), where + ".rotation_deg", 3600.0f);
    }
    if (entry.contains("velocity")) {
        body.velocity_m_s = vector_in(entry.at("velocity"), where + ".velocity", kMaxSpeedMS);
    }
    if (entry.contains("angular_velocity")) {
        body.angular_velocity_rad_s = vector_in(entry.at("angular_velocity"),
                                                where + ".angular_velocity", kMaxAngularSpeedRadS);
    }
    if (entry.contains("youngs") || entry.contains("poisson") || entry.contains("density")) {
        // What the file leaves out is the preset's stiffness, or the default.
        BodyMaterial material;
        material.youngs_modulus_pa = body.preset ? preset_info(*body.preset).suggested_youngs_pa
                                                 : kLoadedBodyYoungsPa;
        if (entry.contains("youngs")) {
            material.youngs_modulus_pa =
                number_in(entry.at("youngs"), where + ".youngs", ParamLimits::youngs_pa);
        }
        if (entry.contains("poisson")) {
            material.poisson_ratio =
                number_in(entry.at("poisson"), where + ".poisson", ParamLimits::poisson);
        }
        if (entry.contains("density")) {
            material.density_kg_m3 =
                number_in(entry.at("density"), where + ".density", ParamLimits::density_kg_m3);
        }
        body.material = material;
    } else {
        body.material = BodyMaterial{body.preset ? preset_info(*body.preset).suggested_youngs_pa
                                                 : kLoadedBodyYoungsPa,
                                     0.3f, 1000.0f};
    }
    if (entry.contains("pinned")) {
        body.pinned = boolean(entry.at("pinned"), where + ".pinned");
    }
    return body;
}

Obstacle parse_obstacle(const Json& entry, const std::string& where)
{
    if (!entry.is_object()) {
        throw SceneError{where, "expected an object {\"type\": ...}, got " + kind_of(entry)};
    }
    const Json& type = required(entry, where, "type");
    const std::string name = type.is_string() ? type.get<std::string>() : type.dump();
    Obstacle o;
    if (name == "sphere") {
        allow_keys(entry, where, {"type", "center", "radius"});
        o.shape = ObstacleShape::sphere;
        o.a = vector_in(required(entry, where, "center"), where + ".center", kMaxCoordinateM);
        o.radius_m = number_in(required(entry, where, "radius"), where + ".radius", kObstacleSizeM);
    } else if (name == "box") {
        allow_keys(entry, where, {"type", "center", "half_extents"});
        o.shape = ObstacleShape::box;
        o.a = vector_in(required(entry, where, "center"), where + ".center", kMaxCoordinateM);
        const Json& half = required(entry, where, "half_extents");
        o.b = vector_in(half, where + ".half_extents", kObstacleSizeM.max);
        for (int i = 0; i < 3; ++i) {
            number_in(half[i], where + ".half_extents[" + std::to_string(i) + "]",
                      kObstacleSizeM);
        }
    } else if (name == "capsule") {
        allow_keys(entry, where, {"type", "a", "b", "radius"});
        o.shape = ObstacleShape::capsule;
        o.a = vector_in(required(entry, where, "a"), where + ".a", kMaxCoordinateM);
        o.b = vector_in(required(entry, where, "b"), where + ".b", kMaxCoordinateM);
        o.radius_m = number_in(required(entry, where, "radius"), where + ".radius", kObstacleSizeM);
    } else {
        throw SceneError{where + ".type",
                         "unknown obstacle " + type.dump() + " (expected sphere, box or capsule)"};
    }
    return o;
}

WorldDesc parse_world(const Json& root, const std::string& path, int default_resolution,
                      LoadProgress* progress)
{
    if (!root.is_object()) {
        throw SceneError{"", "expected a JSON object {\"bodies\": [...]}, got " + kind_of(root)};
    }
    allow_keys(root, "", {"name", "gravity", "ground", "bodies", "obstacles"});
    WorldDesc world;
    world.name = std::filesystem::path(path).stem().string();
    if (root.contains("name")) {
        if (!root.at("name").is_string()) {
            throw SceneError{"name", "expected a string, got " + kind_of(root.at("name"))};
        }
        world.name = root.at("name").get<std::string>();
    }
    if (root.contains("gravity")) {
        world.gravity_m_s2 =
            vector_in(root.at("gravity"), "gravity", ParamLimits::gravity_m_s2.max);
    }
    if (root.contains("ground")) {
        world.ground = boolean(root.at("ground"), "ground");
    }
    const Json& bodies = required(root, "", "bodies");
    if (!bodies.is_array() || bodies.empty()) {
        throw SceneError{"bodies", "expected a non-empty array of bodies, got " +
                                       (bodies.is_array() ? std::string("an empty one")
                                                          : kind_of(bodies))};
    }
    if (bodies.size() > kMaxWorldBodies) {
        throw SceneError{"bodies", std::to_string(bodies.size()) + " bodies, at most " +
                                       std::to_string(kMaxWorldBodies)};
    }
    for (size_t i = 0; i < bodies.size(); ++i) {
        world.bodies.push_back(parse_body(bodies[i], "bodies[" + std::to_string(i) + "]", path,
                                          default_resolution, progress));
    }
    if (root.contains("obstacles")) {
        const Json& obstacles = root.at("obstacles");
        if (!obstacles.is_array()) {
            throw SceneError{"obstacles", "expected an array, got " + kind_of(obstacles)};
        }
        if (obstacles.size() > kMaxObstacles) {
            throw SceneError{"obstacles", std::to_string(obstacles.size()) +
                                              " obstacles, at most " +
                                              std::to_string(kMaxObstacles)};
        }
        for (size_t i = 0; i < obstacles.size(); ++i) {
            world.obstacles.push_back(
                parse_obstacle(obstacles[i], "obstacles[" + std::to_string(i) + "]"));
        }
    }
    return world;
}

}  // namespace

Result<WorldDesc> parse_scene_text(const std::string& text, const std::string& path,
                                   int default_resolution, LoadProgress* progress)
{
    const std::string prefix = "scene '" + path + "': ";
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error& e) {
        // nlohmann's message names the line and column.
        std::string what = e.what();
        if (const size_t at = what.find("parse error"); at != std::string::npos) {
            what = what.substr(at);
        }
        return Result<WorldDesc>::failure(prefix + "not valid JSON: " + what);
    }
    try {
        return parse_world(root, path, default_resolution, progress);
    } catch (const SceneError& e) {
        return Result<WorldDesc>::failure(prefix + (e.where.empty() ? "" : e.where + ": ") +
                                          e.what);
    }
}

Result<WorldDesc> read_scene_file(const std::string& path, int default_resolution,
                                  LoadProgress* progress)
{
    std::error_code error;
    const auto bytes = std::filesystem::file_size(path, error);
    if (!error && bytes > kMaxSceneFileBytes) {
        return Result<WorldDesc>::failure("scene '" + path + "': " + std::to_string(bytes) +
                                          " bytes, more than any scene needs (at most " +
                                          std::to_string(kMaxSceneFileBytes) + ")");
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        return Result<WorldDesc>::failure("scene '" + path + "': cannot open it");
    }
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) {
        return Result<WorldDesc>::failure("scene '" + path + "': cannot read it");
    }
    return parse_scene_text(text.str(), path, default_resolution, progress);
}

bool names_scene_file(const std::string& name)
{
    return name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
}

Result<WorldDesc> load_scene(const std::string& name_or_path, int default_resolution,
                             LoadProgress* progress)
{
    if (names_scene_file(name_or_path)) {
        return read_scene_file(name_or_path, default_resolution, progress);
    }
    return make_builtin_scene(name_or_path);
}

Result<World> load_scene_world(const std::string& name_or_path, int default_resolution,
                               LoadProgress* progress)
{
    Result<WorldDesc> desc = load_scene(name_or_path, default_resolution, progress);
    if (!desc) {
        return Result<World>::failure(desc.error());
    }
    return assemble_world(desc.value(), progress);
}
