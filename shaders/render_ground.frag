#version 430 core
// The ground: a subtle checker of 0.5 m tiles with thin grid lines, both
// filtered by their screen footprint so that they fade to their average in
// the distance instead of shimmering. Lit by the sun (with the body's soft
// shadow) and the sky, darkened under the body, fogged with distance.
#include "render_common.glsl"
#include "render_shadow_lookup.glsl"

const float kTileM = 0.5;
const vec3 kTileLight = vec3(0.27);
const vec3 kTileDark = vec3(0.23);
const vec3 kLineColor = vec3(0.16);
const float kLineWidthTiles = 0.02;   // 1 cm on 0.5 m tiles
const float kContactDarkening = 0.75; // how much the body can shade the ground's sky light

in vec3 v_world;
out vec4 out_color;

// Box-filtered checker (Quilez): 0 or 1 per tile, blended where the pixel
// footprint `w` (in tiles) covers several tiles.
float filtered_checker(vec2 p, vec2 w)
{
    w = max(w, vec2(1e-4));
    vec2 i = 2.0 * (abs(fract((p - 0.5 * w) * 0.5) - 0.5) - abs(fract((p + 0.5 * w) * 0.5) - 0.5)) / w;
    return 0.5 - 0.5 * i.x * i.y;
}

// Anti-aliased grid lines of a fixed world width (Golus, "The Best Darn Grid
// Shader (Yet)"): coverage in 0..1, lines at whole tile coordinates.
float filtered_grid(vec2 p, float line_width)
{
    vec2 derivative = vec2(length(vec2(dFdx(p.x), dFdy(p.x))), length(vec2(dFdx(p.y), dFdy(p.y))));
    vec2 draw_width = clamp(vec2(line_width), derivative, vec2(0.5));
    vec2 line_aa = max(derivative, vec2(1e-6)) * 1.5;
    vec2 grid_uv = 1.0 - abs(fract(p) * 2.0 - 1.0);
    vec2 grid = smoothstep(draw_width + line_aa, draw_width - line_aa, grid_uv);
    grid *= clamp(line_width / draw_width, 0.0, 1.0);
    grid = mix(grid, vec2(line_width), clamp(derivative * 2.0 - 1.0, 0.0, 1.0));
    return mix(grid.x, 1.0, grid.y);
}

// Sky light the body blocks, seen as a sphere (the solid-angle term of a
// sphere over a plane): near 1 right under a body resting on the ground.
float body_occlusion(vec3 p)
{
    vec3 to_centre = u_body_sphere.xyz - p;
    float distance_m = max(length(to_centre), 1e-4);
    float radius_m = u_body_sphere.w;
    float cos_up = max(to_centre.y / distance_m, 0.0);
    return clamp(cos_up * radius_m * radius_m / (distance_m * distance_m), 0.0, 1.0);
}

void main()
{
    vec2 tiles = v_world.xz / kTileM;
    vec2 footprint = fwidth(tiles);
    vec3 albedo = mix(kTileLight, kTileDark, filtered_checker(tiles, footprint));
    albedo = mix(albedo, kLineColor, filtered_grid(tiles, kLineWidthTiles));

    vec3 up = vec3(0.0, 1.0, 0.0);
    float sun = sun_visibility(v_world, up) * max(u_to_sun.y, 0.0);
    float sky_light = 1.0 - kContactDarkening * body_occlusion(v_world);
    vec3 radiance = albedo * (u_sun_radiance.rgb * sun + kAmbientSky * sky_light);
    out_color = finish_color(apply_fog(radiance, v_world));
}
