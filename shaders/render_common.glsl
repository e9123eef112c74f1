// What every render pass shares: the per-frame uniforms (mirrored by
// FrameUniforms in src/gpu/renderer.cpp), the sky, the fog and the final
// colour encoding. All colours here are linear.

layout(std140, binding = 7) uniform RenderFrame {
    mat4 u_view_projection;
    mat4 u_inverse_view_projection;
    mat4 u_light_view_projection;   // world -> sun clip space (orthographic)
    vec4 u_eye_position;            // xyz: camera, metres
    vec4 u_to_sun;                  // xyz: unit vector toward the sun
    vec4 u_sun_radiance;            // rgb
    vec4 u_body_sphere;             // xyz: centre, w: radius (m); the body seen as a sphere
    vec4 u_shadow_extent;           // xy: sun frustum size (m), z: its depth range (m), w: 1 / map texels
    vec4 u_output_encoding;         // x: 1 = the shader encodes sRGB, 0 = the framebuffer does
    vec4 u_shadow_taps;             // x: blocker search taps, y: filter taps; 0: hard shadows
};

const vec3 kSkyZenith = vec3(0.14, 0.36, 0.92);
const vec3 kSkyHorizon = vec3(0.78, 0.90, 1.08);
// Hemisphere ambient: light from the sky above, warm bounce from the ground.
// Kept close to neutral so that shadows read grey, not blue.
const vec3 kAmbientSky = vec3(0.56, 0.60, 0.66);
const vec3 kAmbientGround = vec3(0.30, 0.26, 0.21);
// Scene radiance times this goes into the tone curve.
const float kExposure = 0.6;

// Fog: clear up close, fully horizon-coloured by kFogEndM, before the
// ground quad's edge can show.
const float kFogStartM = 12.0;
const float kFogEndM = 45.0;

// Sky radiance seen along `direction` (unit): a zenith-to-horizon gradient,
// haze below the horizon (the fogged ground fades into it), a soft sun glow.
vec3 sky_radiance(vec3 direction)
{
    float up = clamp(direction.y, 0.0, 1.0);
    vec3 sky = mix(kSkyHorizon, kSkyZenith, pow(up, 0.4));
    float toward_sun = max(dot(direction, u_to_sun.xyz), 0.0);
    sky += vec3(1.0, 0.85, 0.6) * (0.25 * pow(toward_sun, 8.0) + 2.0 * pow(toward_sun, 600.0));
    return sky;
}

// Blends a surface into the horizon haze with distance from the camera.
vec3 apply_fog(vec3 color, vec3 world_position)
{
    vec3 to_point = world_position - u_eye_position.xyz;
    float distance_m = length(to_point);
    float fog = smoothstep(kFogStartM, kFogEndM, distance_m);
    if (fog <= 0.0) {
        return color;  // near the camera: spares the sky's powers
    }
    return mix(color, sky_radiance(to_point / max(distance_m, 1e-6)), fog);
}

// Filmic tone curve (Narkowicz's ACES fit): highlights roll off instead of
// clipping, so a sunlit orange body keeps its hue.
vec3 tone_map(vec3 x)
{
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

vec3 linear_to_srgb(vec3 c)
{
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// The last step of every fragment shader.
vec4 finish_color(vec3 linear_radiance)
{
    vec3 c = tone_map(linear_radiance * kExposure);
    if (u_output_encoding.x > 0.5) {
        c = linear_to_srgb(c);
    }
    return vec4(c, 1.0);
}
