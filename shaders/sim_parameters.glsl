// The simulation's parameter block, declared once for both sides: the
// compute shaders see it as a std140 uniform block (sim_common.glsl), and
// GpuSolver fills a C++ struct made from this same text
// (src/gpu/sim_parameters.h). Every member is a vec4, a uvec4 or an array
// of vec4, whose std140 layout is the C++ one, with no padding rule to keep
// in step. The includer defines SIM_PARAMETERS_BEGIN and SIM_PARAMETERS_END.
// Set once per frame by GpuSolver::upload_parameters.

// As kMaxObstacles and kMaxWorldBodies in core/world.h.
#define SIM_MAX_OBSTACLES 32
#define SIM_MAX_BODIES 1024

SIM_PARAMETERS_BEGIN
    vec4 u_gravity_h;        // xyz gravity (m/s^2), w substep length h (s)
    vec4 u_solver;           // x Jacobi k, y velocity damping factor per substep, z 1/h, w 1/h^2
    vec4 u_material_damping; // x 1 / (h tau) of the material damping (tm_damp_strain_rate), 0: off;
                             // y the share of its wobble a body keeps over a frame (sm_wobble_keep)
    vec4 u_warm_start;       // x 1 where the sweeps keep up (tm_warm_start_fraction), else 0;
                             // y 1 where the ground's hold discounts the warm start's
                             // sink (tm_hold_discounts_sink), else 0
    vec4 u_contact;          // x static friction, y dynamic friction, z 1 if the ground is on,
                             // w body contacts' recovery speed (m/s)
    uvec4 u_counts;          // x vertices, y tets, z surface triangles, w obstacles
    // The grab (mouse or --drag): its anchors are in GrabAnchors
    // (solve_grab.comp), their multipliers after the tets' in Lambdas.
    uvec4 u_grab;            // x anchors, 0 without a grab
    vec4 u_grab_compliance;  // x the whole grab's compliance / h^2 (an anchor's: / its share)
    vec4 u_grab_target;      // xyz target (m), w largest move per iteration (m)
    // Body contact (core/body_contacts.h): x 1 / hash cell size (1/m),
    // y thickness, z search radius, w the near lists' radius (m).
    vec4 u_contact_hash;
    // x hash table size, y surface vertices, z 1 if body contact is on, w
    // where the bodies' boxes start in ContactHash (contact_common.glsl).
    uvec4 u_contact_counts;
    // The tets' hash (deep penetration): x buckets, 0 when the tets are not
    // hashed; y where its table starts in ContactHash; z tets hashed; w bodies.
    uvec4 u_contact_tets;
    vec4 u_contact_tet_cell;  // x 1 / the tets' hash cell size (1/m)
    // Obstacle i is u_obstacles[2i] = (a, radius), [2i + 1] = (b, shape),
    // as contact_math.glsl takes them.
    vec4 u_obstacles[2 * SIM_MAX_OBSTACLES];
    // Each body's rest-shape neighbourhood (m), four bodies a vec4.
    vec4 u_body_exclusion[SIM_MAX_BODIES / 4];
SIM_PARAMETERS_END
