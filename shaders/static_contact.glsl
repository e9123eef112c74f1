// Contact with the static world, the ground y = 0 and the obstacles (DESIGN.md
// 4.3), shared by the passes that end an iteration: a vertex inside is
// projected onto the surface, and the push is summed in correction.w for the
// friction of update_velocities.comp. Same expressions as
// CpuSolver::project_out_of_static and CpuSolver::static_surface_normal;
// the maths per obstacle is contact_math.glsl's.

// Projects x (the vertex's position, predicted + correction) out of the
// ground and the obstacles, updating its correction. Callers skip pinned
// vertices.
void project_out_of_static(inout vec3 x, inout vec4 correction)
{
    if (u_contact.z != 0.0f && x.y < 0.0f) {
        correction.w += -x.y;
        correction.y -= x.y;
        x.y = 0.0f;
    }
    for (uint o = 0u; o < u_counts.w; ++o) {
        vec3 before = x;
        float push = cm_push_out_of_obstacle(x, u_obstacles[2u * o], u_obstacles[2u * o + 1u]);
        if (push > 0.0f) {
            correction.w += push;
            correction.xyz += x - before;
        }
    }
}

// The Gauss-Seidel form: the position is already up to date in positions[v];
// only a vertex that moves is written.
void project_vertex_out_of_static(uint v)
{
    if (inverse_masses[v] == 0.0f) {
        return;
    }
    vec3 x = positions[v].xyz;
    vec4 correction = corrections[v];
    float push_before = correction.w;
    project_out_of_static(x, correction);
    if (correction.w != push_before) {
        corrections[v] = correction;
        positions[v] = vec4(x, 0.0f);
    }
}

// The normal of the static surface nearest to x: the one a vertex pushed out
// this substep rests on.
vec3 static_surface_normal(vec3 x)
{
    float nearest = u_contact.z != 0.0f ? x.y : 1.0e30f;
    vec3 normal = vec3(0.0f, 1.0f, 0.0f);
    for (uint o = 0u; o < u_counts.w; ++o) {
        vec3 n;
        float d = cm_obstacle_distance(x, u_obstacles[2u * o], u_obstacles[2u * o + 1u], n);
        if (d < nearest) {
            nearest = d;
            normal = n;
        }
    }
    return normal;
}
