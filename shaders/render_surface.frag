#version 430 core
// The body: Lambert and normalised Blinn-Phong from the sun (with soft
// shadows, self-shadowing included), hemisphere ambient, a cool rim light.
// Two-sided: a triangle seen from behind (a squashed, inverted bit) is lit
// as if its normal faced the viewer, so it never turns black.
#include "render_common.glsl"
#include "render_shadow_lookup.glsl"
#include "stress_colors.glsl"

// > 0: the strain view, colours by v_stress_pa times this (1 / full scale);
// 0: the albedo.
uniform float u_stress_per_pa;

const float kShininess = 40.0;
const float kSpecularF0 = 0.04;           // dielectric, like water or gelatine
const float kRimStrength = 0.12;
const float kEnvironmentGloss = 0.6;      // how much of the sky the wet-looking surface mirrors
const float kGroundContactHeightM = 0.3;  // below this, downward faces see less bounce

in vec3 v_world;
in vec3 v_normal;
in vec3 v_albedo;
in float v_stress_pa;
out vec4 out_color;

void main()
{
    // The triangle's own normal, toward the viewer: for the shadow offset
    // and as a fallback where the vertex normal is degenerate.
    vec3 face_normal = normalize(cross(dFdx(v_world), dFdy(v_world)));
    vec3 to_eye = normalize(u_eye_position.xyz - v_world);
    if (dot(face_normal, to_eye) < 0.0) {
        face_normal = -face_normal;
    }
    vec3 n = dot(v_normal, v_normal) > 1e-8 ? normalize(v_normal) : face_normal;
    if (!gl_FrontFacing) {
        n = -n;
    }

    vec3 l = u_to_sun.xyz;
    vec3 h = normalize(l + to_eye);
    float n_dot_l = max(dot(n, l), 0.0);
    float visibility = sun_visibility(v_world, face_normal);

    vec3 albedo = v_albedo;
    if (u_stress_per_pa > 0.0) {
        albedo = pow(stress_color_srgb(v_stress_pa * u_stress_per_pa), vec3(2.2));
    }
    float fresnel = kSpecularF0 + (1.0 - kSpecularF0) * pow(1.0 - max(dot(h, to_eye), 0.0), 5.0);
    float specular = (kShininess + 8.0) / 25.1327 * pow(max(dot(n, h), 0.0), kShininess) * fresnel;
    vec3 direct = u_sun_radiance.rgb * n_dot_l * visibility * (albedo + vec3(specular));

    // Faces that look down at the nearby ground see its bounce, but also its
    // shadow: darken them a little as they get close.
    float near_ground = 1.0 - smoothstep(0.0, kGroundContactHeightM, v_world.y);
    float occlusion = 1.0 - 0.5 * near_ground * max(-n.y, 0.0);
    vec3 ambient = mix(kAmbientGround, kAmbientSky, 0.5 + 0.5 * n.y) * albedo * occlusion;

    // A glossy sheen: the sky mirrored at grazing angles (Schlick's Fresnel),
    // the ground's bounce where the mirror direction points down.
    float n_dot_v = max(dot(n, to_eye), 0.0);
    vec3 mirror = reflect(-to_eye, n);
    // Blend across the horizon: a hard switch draws a seam on curved faces.
    vec3 mirrored = mix(sky_radiance(mirror), kAmbientGround, smoothstep(0.0, -0.3, mirror.y));
    float sheen = kSpecularF0 + (1.0 - kSpecularF0) * pow(1.0 - n_dot_v, 5.0);
    vec3 reflection = kEnvironmentGloss * sheen * mirrored * occlusion;

    // A faint cool rim from the sky, so the silhouette separates from the
    // ground; none on faces that look down, where it would tint the shadow side.
    float rim = pow(1.0 - n_dot_v, 4.0) * kRimStrength * smoothstep(-0.5, 0.5, n.y);
    vec3 rim_light = rim * kSkyHorizon * (0.4 + 0.6 * visibility);

    out_color = finish_color(apply_fog(direct + ambient + reflection + rim_light, v_world));
}
