// The strain view's colour scale, shared with the panel's colour bar
// (src/core/stress_colors.h): a fraction of the full scale, 0 to 1, to an
// sRGB colour: deep blue (no stress) through cyan, green and yellow to red
// (the full scale and above). Hues that stay apart in sun and in shadow.

#ifndef TM_FN
#define TM_FN
#define TM_INOUT(T) inout T
#define TM_OUT(T) out T
#endif

TM_FN vec3 stress_color_srgb(float fraction)
{
    float x = clamp(fraction, 0.0f, 1.0f) * 4.0f;
    vec3 blue = vec3(0.12f, 0.22f, 0.70f);
    vec3 cyan = vec3(0.10f, 0.65f, 0.85f);
    vec3 green = vec3(0.25f, 0.80f, 0.30f);
    vec3 yellow = vec3(0.98f, 0.82f, 0.12f);
    vec3 red = vec3(0.88f, 0.12f, 0.06f);
    if (x < 1.0f) {
        return mix(blue, cyan, x);
    }
    if (x < 2.0f) {
        return mix(cyan, green, x - 1.0f);
    }
    if (x < 3.0f) {
        return mix(green, yellow, x - 2.0f);
    }
    return mix(yellow, red, x - 3.0f);
}
