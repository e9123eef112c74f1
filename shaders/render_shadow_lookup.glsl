// Soft sun shadows from the shadow map: percentage-closer soft shadows
// (Fernando 2005). A blocker search estimates how far above the receiver
// the occluder is; the PCF filter widens with that gap, so shadows are crisp
// where the body touches the ground and soft where it hovers. Needs
// render_common.glsl first.

layout(binding = 0) uniform sampler2DShadow u_shadow_map;  // hardware compare, bilinear PCF
layout(binding = 1) uniform sampler2D u_shadow_depth;      // the same map, raw depths

// Tangent of the sun's apparent radius, exaggerated from the real 0.0047
// for a softer, studio-like penumbra.
const float kSunTanRadius = 0.06;
const float kMinPenumbraM = 0.006;
const float kMaxPenumbraM = 0.12;  // = kMaxPenumbraM in renderer.cpp

// Taps per pixel come from the frame uniforms (u_shadow_taps): 16 blocker
// and 32 filter taps for soft shadows; none for hard shadows, one bilinear
// compare instead, which costs a software renderer a fifth as much.

// Tap `i` of `count` on a Vogel (golden-angle) spiral over the unit disk:
// evenly spread for any count, and rotated as a whole by `angle`.
vec2 vogel_disk(int i, int count, float angle)
{
    float radius = sqrt((float(i) + 0.5) / float(count));
    float theta = float(i) * 2.39996323 + angle;
    return radius * vec2(cos(theta), sin(theta));
}

// Per-pixel rotation of the disk (Jimenez 2014): turns banding into fine
// noise that the eye, and MSAA, smooth over.
float interleaved_gradient_noise(vec2 pixel)
{
    return fract(52.9829189 * fract(dot(pixel, vec2(0.06711056, 0.00583715))));
}

// 1 = in full sun, 0 = fully shadowed. `geometric_normal` faces the viewer's
// side of the surface; the lookup point moves out along it (normal-offset
// bias), more at grazing sun angles where acne would appear.
float sun_visibility(vec3 world_position, vec3 geometric_normal)
{
    float texel_m = max(u_shadow_extent.x, u_shadow_extent.y) * u_shadow_extent.w;
    float cos_sun = clamp(abs(dot(geometric_normal, u_to_sun.xyz)), 0.0, 1.0);
    vec3 offset_position = world_position + geometric_normal * texel_m * (1.5 + 3.0 * (1.0 - cos_sun));
    vec4 clip = u_light_view_projection * vec4(offset_position, 1.0);
    vec3 map = clip.xyz / clip.w * 0.5 + 0.5;
    // Outside the map nothing casts (the frustum covers the body and its shadow).
    if (map.z >= 1.0 || any(lessThan(map.xy, vec2(0.0))) || any(greaterThan(map.xy, vec2(1.0)))) {
        return 1.0;
    }

    int blocker_taps = int(u_shadow_taps.x);
    int filter_taps = int(u_shadow_taps.y);
    if (blocker_taps <= 0 || filter_taps <= 0) {
        // Hard shadows: four bilinear compares a texel around the point,
        // which round off the map's stair steps.
        vec2 texel = vec2(u_shadow_extent.w);
        return 0.25 * (texture(u_shadow_map, vec3(map.xy + vec2(-0.5, -1.5) * texel, map.z)) +
                       texture(u_shadow_map, vec3(map.xy + vec2(1.5, -0.5) * texel, map.z)) +
                       texture(u_shadow_map, vec3(map.xy + vec2(0.5, 1.5) * texel, map.z)) +
                       texture(u_shadow_map, vec3(map.xy + vec2(-1.5, 0.5) * texel, map.z)));
    }

    float angle = 6.2831853 * interleaved_gradient_noise(gl_FragCoord.xy);
    vec2 metres_to_uv = 1.0 / u_shadow_extent.xy;

    // Blocker search over the widest penumbra.
    float blocker_depth_sum = 0.0;
    float blocker_count = 0.0;
    for (int i = 0; i < blocker_taps; ++i) {
        vec2 uv = map.xy + vogel_disk(i, blocker_taps, angle) * kMaxPenumbraM * metres_to_uv;
        float depth = texture(u_shadow_depth, uv).r;
        if (depth < map.z) {
            blocker_depth_sum += depth;
            blocker_count += 1.0;
        }
    }
    if (blocker_count == 0.0) {
        return 1.0;
    }
    float gap_m = (map.z - blocker_depth_sum / blocker_count) * u_shadow_extent.z;
    float penumbra_m = clamp(gap_m * kSunTanRadius, kMinPenumbraM, kMaxPenumbraM);

    float lit = 0.0;
    for (int i = 0; i < filter_taps; ++i) {
        vec2 uv = map.xy + vogel_disk(i, filter_taps, angle) * penumbra_m * metres_to_uv;
        lit += texture(u_shadow_map, vec3(uv, map.z));
    }
    return lit / float(filter_taps);
}
