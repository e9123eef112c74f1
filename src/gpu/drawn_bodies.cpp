#include "gpu/drawn_bodies.h"

#include "gpu/body_colors.h"

DrawnBodies::DrawnBodies(const ShaderLibrary& shaders, bool compute_available)
{
    if (!compute_available) {
        note_ = "drawing the tets' boundary: this OpenGL has no compute shaders for the drawn "
                "surface";
        return;
    }
    Result<std::unique_ptr<SurfaceSkin>> skin = SurfaceSkin::create(shaders);
    if (!skin) {
        note_ = "drawing the tets' boundary: " + skin.error();
        return;
    }
    skin_ = std::move(skin).value();
}

void DrawnBodies::set_world(const World& world, DrawnSurface choice)
{
    mesh_ = world.mesh;
    body_count_ = world.body_count();
    uploaded_.reset();
    skin_in_use_ = false;
    surface_note_.clear();
    if (skin_) {
        RenderSurface surface = choice == DrawnSurface::own && world.own_surface
                                    ? *world.own_surface
                                    : build_render_surface(world, choice);
        surface_note_ = render_surface_note(world, surface);
        const size_t largest = std::max(surface.vertex_count(), surface.triangles.size());
        if (largest <= SurfaceSkin::max_items()) {
            skin_->set_surface(world, std::move(surface));
            skin_in_use_ = true;
        } else {
            surface_note_ = "drawing the tets' boundary: the drawn surface has " +
                            std::to_string(largest) + " elements, more than one dispatch (" +
                            std::to_string(SurfaceSkin::max_items()) + ") takes";
        }
    }
    vertex_body_ = skin_in_use_ ? skin_->surface().body : world.vertex_body;
    upload_colors();
}

void DrawnBodies::set_highlighted(std::optional<size_t> body)
{
    if (body != highlighted_) {
        highlighted_ = body;
        upload_colors();
    }
}

void DrawnBodies::upload_colors()
{
    colors_ = make_body_albedo_buffer(vertex_body_, body_count_, highlighted_);
}

BodyDrawData DrawnBodies::draw_data(const SurfaceSource& source,
                                    const std::vector<LameParameters>& stress_lame)
{
    BodyDrawData data{};
    if (!mesh_) {
        return data;
    }
    data.albedo_buffer = colors_.get();
    if (source.position_buffer != 0) {
        data.simulation_positions = source.position_buffer;
        data.position_buffer = source.position_buffer;
        data.normal_buffer = source.normal_buffer;
        data.triangle_buffer = source.triangle_buffer;
    } else {
        if (!uploaded_) {
            uploaded_ = std::make_unique<BodyBuffers>(*mesh_);
        }
        if (has_drawn_surface()) {
            uploaded_->upload_positions(*source.positions);
        } else {
            uploaded_->upload(*source.positions, *source.normals);
        }
        data.simulation_positions = uploaded_->position_buffer();
        data.position_buffer = uploaded_->position_buffer();
        data.normal_buffer = uploaded_->normal_buffer();
        data.triangle_buffer = uploaded_->triangle_buffer();
    }
    data.index_count = static_cast<GLsizei>(mesh_->surface_triangles.size() * 3);
    if (has_drawn_surface()) {
        skin_->update(data.simulation_positions, stress_lame);
        data.position_buffer = skin_->position_buffer();
        data.normal_buffer = skin_->normal_buffer();
        data.triangle_buffer = skin_->triangle_buffer();
        data.index_count = static_cast<GLsizei>(skin_->index_count());
    }
    return data;
}
