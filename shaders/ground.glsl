// Ground contact (DESIGN.md 4.3), shared by the passes that end an
// iteration: y < 0 projects to y = 0, and the push is recorded in
// correction.w for the friction of update_velocities.comp. Same expressions
// as CpuSolver::apply_deltas and CpuSolver::project_ground.

// Projects x (the vertex's position, predicted + correction) onto the ground
// if it is below, updating its correction. Callers skip pinned vertices.
void project_onto_ground(inout vec3 x, inout vec4 correction)
{
    if (u_contact.z != 0.0f && x.y < 0.0f) {
        correction.w += -x.y;
        correction.y -= x.y;
        x.y = 0.0f;
    }
}

// The Gauss-Seidel form: the position is already up to date in positions[v];
// only a vertex below the ground is written.
void project_vertex_onto_ground(uint v)
{
    if (inverse_volumes[v] == 0.0f) {
        return;
    }
    vec3 x = positions[v].xyz;
    if (u_contact.z != 0.0f && x.y < 0.0f) {
        vec4 correction = corrections[v];
        project_onto_ground(x, correction);
        corrections[v] = correction;
        positions[v] = vec4(x, 0.0f);
    }
}
