#include "app/drag_script.h"

#include "core/param_limits.h"

#include <cmath>
#include <sstream>

Result<DragSpec> parse_drag(const std::string& text)
{
    auto fail = [&](const std::string& why) {
        return Result<DragSpec>::failure("--drag '" + text + "': " + why +
                                         " (expected START:END:VERTEX:DX,DY,DZ)");
    };
    std::istringstream in(text);
    DragSpec d;
    long long start = 0;
    long long end = 0;
    long long vertex = 0;
    char c1 = 0, c2 = 0, c3 = 0, k1 = 0, k2 = 0;
    in >> start >> c1 >> end >> c2 >> vertex >> c3 >> d.offset_m.x >> k1 >> d.offset_m.y >> k2 >>
        d.offset_m.z;
    if (!in || c1 != ':' || c2 != ':' || c3 != ':' || k1 != ',' || k2 != ',') {
        return fail("cannot read it");
    }
    in >> std::ws;
    if (!in.eof()) {
        return fail("unexpected text at the end");
    }
    if (start < 0 || end <= start || end > ParamLimits::frames.max) {
        return fail("needs 0 <= START < END <= " + std::to_string(ParamLimits::frames.max));
    }
    if (vertex < 0 || vertex > 0xffffffffLL) {
        return fail("VERTEX out of range");
    }
    if (!std::isfinite(d.offset_m.x) || !std::isfinite(d.offset_m.y) ||
        !std::isfinite(d.offset_m.z)) {
        return fail("non-finite offset");
    }
    const float limit = ParamLimits::max_drag_offset_m;
    if (std::abs(d.offset_m.x) > limit || std::abs(d.offset_m.y) > limit ||
        std::abs(d.offset_m.z) > limit) {
        std::ostringstream why;
        why << "each offset component at most " << limit
            << " m in size (float positions lose the tets' shape in rounding farther out)";
        return fail(why.str());
    }
    d.start_frame = static_cast<int>(start);
    d.end_frame = static_cast<int>(end);
    d.vertex = static_cast<uint32_t>(vertex);
    return d;
}

DragScript::DragScript(std::vector<DragSpec> drags, float stiffness_n_per_m,
                       float radius_fraction)
    : drags_(std::move(drags)),
      start_grabs_(drags_.size()),
      start_worlds_(drags_.size(), nullptr),
      stiffness_n_per_m_(stiffness_n_per_m),
      radius_fraction_(radius_fraction)
{
}

Result<bool> DragScript::validate(const TetMesh& mesh) const
{
    for (const DragSpec& d : drags_) {
        if (d.vertex >= mesh.vertex_count()) {
            return Result<bool>::failure("--drag: vertex " + std::to_string(d.vertex) +
                                         " does not exist (the mesh has " +
                                         std::to_string(mesh.vertex_count()) + " vertices)");
        }
    }
    return true;
}

void DragScript::before_frame(int frame, Solver& solver)
{
    // Where each drag starting now begins, also for one that overlaps an
    // earlier drag and only takes over when that one ends.
    const size_t vertex_count = solver.mesh().vertex_count();
    for (size_t i = 0; i < drags_.size(); ++i) {
        if (frame == drags_[i].start_frame && drags_[i].vertex < vertex_count) {
            // The patch around the vertex as the body lies now: one read-back.
            solver.read_positions(positions_);
            const World& world = solver.world();
            const uint32_t v = drags_[i].vertex;
            start_grabs_[i] = spread_grab_at_vertex(
                world, positions_, v, grab_radius_m(world, world.vertex_body[v], radius_fraction_),
                stiffness_n_per_m_);
            start_worlds_[i] = &world;
        }
    }
    std::optional<Grab> grab;
    for (size_t i = 0; i < drags_.size(); ++i) {
        const DragSpec& d = drags_[i];
        // The world may have changed since the drag began (another preset
        // in the window, a body deleted): its patch's vertices mean nothing
        // in the new one, so the drag is over.
        if (frame < d.start_frame || frame >= d.end_frame || d.vertex >= vertex_count ||
            start_worlds_[i] != &solver.world()) {
            continue;
        }
        // Reaches the end target on the last held frame.
        const float s = static_cast<float>(frame - d.start_frame + 1) /
                        static_cast<float>(d.end_frame - d.start_frame);
        const glm::vec3 end_target = solver.mesh().rest_positions[d.vertex] + d.offset_m;
        // The same grab as last frame catches up from its last target; a new
        // one from where its vertex is.
        const bool holding = current_ && current_->vertices.x == d.vertex;
        // The patch's grab as made at the start aims at where the vertex was.
        const glm::vec3 start = start_grabs_[i].target_m;
        const glm::vec3 previous = holding ? current_->target_m : start;
        grab = start_grabs_[i];
        grab->target_m =
            speed_limited_target(previous, glm::mix(start, end_target, s), kFrameSeconds);
        break;  // one grab at a time, as with one mouse
    }
    if (grab || current_) {
        solver.set_grab(grab);
    }
    current_ = grab;
}
