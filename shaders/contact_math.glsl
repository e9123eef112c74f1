// Contact maths shared by the compute shaders and the C++ solvers, in the
// portable subset tet_math.glsl describes (src/core/contact_math.h is the
// C++ side): the static obstacles and the ground as signed distances, the
// vertex-triangle contact between bodies with its friction, the spatial hash
// that finds those contacts, and the fixed-point sums that make the
// contacts' parallel gather deterministic. docs/algorithm.md, section 5.

#ifndef TM_FN
#define TM_FN
#define TM_INOUT(T) inout T
#define TM_OUT(T) out T
#endif

// ---------------------------------------------------------------------------
// Static surfaces: the ground y = 0 and the obstacles. An obstacle is two
// vec4: (a, radius) and (b, shape), with a and b as in core/obstacle.h.
// ---------------------------------------------------------------------------

const float CM_SHAPE_SPHERE = 0.0f;
const float CM_SHAPE_BOX = 1.0f;
const float CM_SHAPE_CAPSULE = 2.0f;

// The signed distance from x to the obstacle's surface (negative inside) and
// the outward normal there.
TM_FN float cm_obstacle_distance(vec3 x, vec4 a_radius, vec4 b_shape, TM_OUT(vec3) normal)
{
    vec3 a = vec3(a_radius.x, a_radius.y, a_radius.z);
    vec3 b = vec3(b_shape.x, b_shape.y, b_shape.z);
    normal = vec3(0.0f, 1.0f, 0.0f);
    if (b_shape.w == CM_SHAPE_BOX) {
        // b holds the half extents. Inside, the nearest face is the one of
        // least depth; outside, the nearest point of the box.
        vec3 q = x - a;
        vec3 outside = max(abs(q) - b, vec3(0.0f));
        vec3 side = vec3(q.x < 0.0f ? -1.0f : 1.0f, q.y < 0.0f ? -1.0f : 1.0f,
                         q.z < 0.0f ? -1.0f : 1.0f);
        float outside_length = length(outside);
        if (outside_length > 0.0f) {
            normal = side * outside / outside_length;
            return outside_length;
        }
        vec3 depth = b - abs(q);
        if (depth.x <= depth.y && depth.x <= depth.z) {
            normal = vec3(side.x, 0.0f, 0.0f);
            return -depth.x;
        }
        if (depth.y <= depth.z) {
            normal = vec3(0.0f, side.y, 0.0f);
            return -depth.y;
        }
        normal = vec3(0.0f, 0.0f, side.z);
        return -depth.z;
    }
    // A sphere is a capsule whose segment is a point.
    vec3 centre = a;
    if (b_shape.w == CM_SHAPE_CAPSULE) {
        vec3 axis = b - a;
        float axis_length2 = dot(axis, axis);
        float s = axis_length2 > 0.0f ? clamp(dot(x - a, axis) / axis_length2, 0.0f, 1.0f) : 0.0f;
        centre = a + s * axis;
    }
    vec3 arm = x - centre;
    float arm_length = length(arm);
    if (arm_length > 0.0f) {
        normal = arm / arm_length;
    }
    return arm_length - a_radius.w;
}

// Moves x onto the obstacle's surface if it is inside; returns how far it
// moved (0 when outside). The push feeds the friction (cm_apply_friction).
TM_FN float cm_push_out_of_obstacle(TM_INOUT(vec3) x, vec4 a_radius, vec4 b_shape)
{
    vec3 normal;
    float distance = cm_obstacle_distance(x, a_radius, b_shape, normal);
    if (distance >= 0.0f) {
        return 0.0f;
    }
    x = x - distance * normal;
    return -distance;
}

// Coulomb friction on a velocity against a static surface of normal n
// (Macklin et al. 2020, "Detailed rigid body simulation with extended
// position based dynamics", eq. 30): the tangential slide this substep,
// |v_t| h, is stopped below mu_s times the surface's normal push `push`
// (metres this substep), else shortened by mu_k times the push.
TM_FN vec3 cm_apply_friction(vec3 velocity, vec3 n, float push, float h, float mu_s, float mu_k)
{
    vec3 normal_part = dot(velocity, n) * n;
    vec3 tangential = velocity - normal_part;
    float slide = length(tangential) * h;
    if (slide < mu_s * push) {
        tangential = vec3(0.0f);
    } else {
        tangential = tangential * max(0.0f, 1.0f - mu_k * push / slide);
    }
    return normal_part + tangential;
}

// ---------------------------------------------------------------------------
// Vertex-triangle contact between bodies (and within one body).
// ---------------------------------------------------------------------------

// The point of triangle abc nearest to p, as barycentric weights (Ericson,
// "Real-Time Collision Detection", 5.1.5): region by region, no divides
// until the interior.
TM_FN vec3 cm_closest_on_triangle(vec3 p, vec3 a, vec3 b, vec3 c)
{
    vec3 ab = b - a;
    vec3 ac = c - a;
    vec3 ap = p - a;
    float d1 = dot(ab, ap);
    float d2 = dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) {
        return vec3(1.0f, 0.0f, 0.0f);
    }
    vec3 bp = p - b;
    float d3 = dot(ab, bp);
    float d4 = dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) {
        return vec3(0.0f, 1.0f, 0.0f);
    }
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        float v = d1 / (d1 - d3);
        return vec3(1.0f - v, v, 0.0f);
    }
    vec3 cp = p - c;
    float d5 = dot(ab, cp);
    float d6 = dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) {
        return vec3(0.0f, 0.0f, 1.0f);
    }
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        float w = d2 / (d2 - d6);
        return vec3(1.0f - w, 0.0f, w);
    }
    float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
        float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return vec3(0.0f, 1.0f - w, w);
    }
    float denominator = 1.0f / (va + vb + vc);
    float v = vb * denominator;
    float w = vc * denominator;
    return vec3(1.0f - v - w, v, w);
}

// Whether p lies within `radius` of the triangle's bounding box: a cheap
// test that rejects most of a search's triangles before the exact distance.
TM_FN void cm_triangle_box(vec3 a, vec3 b, vec3 c, float radius, TM_OUT(vec3) lo, TM_OUT(vec3) hi)
{
    lo = min(min(a, b), c) - vec3(radius);
    hi = max(max(a, b), c) + vec3(radius);
}

// The six comparisons joined as integers, without an early exit: a search
// tests a vertex against every box of its bucket and about half fail, at no
// predictable comparison, so a branch for each cost more than all six.
TM_FN bool cm_in_box(vec3 p, vec3 lo, vec3 hi)
{
    return (int(p.x >= lo.x) & int(p.y >= lo.y) & int(p.z >= lo.z) & int(p.x <= hi.x) &
            int(p.y <= hi.y) & int(p.z <= hi.z)) != 0;
}

TM_FN bool cm_near_triangle_box(vec3 p, vec3 a, vec3 b, vec3 c, float radius)
{
    vec3 lo;
    vec3 hi;
    cm_triangle_box(a, b, c, radius, lo, hi);
    return cm_in_box(p, lo, hi);
}

// Whether a vertex at rest position r and a triangle of its own body with
// rest corners ra, rb, rc are neighbours rather than a possible contact:
// some corner was nearer to it than `exclusion` in the rest shape.
TM_FN bool cm_rest_neighbours(vec3 r, vec3 ra, vec3 rb, vec3 rc, float exclusion)
{
    float e2 = exclusion * exclusion;
    return dot(ra - r, ra - r) < e2 || dot(rb - r, rb - r) < e2 || dot(rc - r, rc - r) < e2;
}

// Whether p lies behind the plane of triangle abc (counter-clockwise seen
// from outside): inside the triangle's body, if it is near it.
TM_FN bool cm_behind_triangle(vec3 p, vec3 a, vec3 b, vec3 c)
{
    return dot(p - a, cross(b - a, c - a)) < 0.0f;
}

// The distance from p to triangle abc.
TM_FN float cm_point_triangle_distance(vec3 p, vec3 a, vec3 b, vec3 c)
{
    vec3 bary = cm_closest_on_triangle(p, a, b, c);
    return length(p - (bary.x * a + bary.y * b + bary.z * c));
}

// A deep pair separates this many times faster than a pair within the
// thickness. At the same speed (0.25 m/s) the heap's weight held vertices
// inside the bodies under them: the pile ended its 10 s with a vertex of the
// bunny 21.6 mm inside the soft torus, the exit pushed at 0.42 mm a substep
// and the tets, averaged then with the vertex's other contacts, took most of
// it back every iteration. Four times (1 m/s) let every run of the pile measured
// end within the thickness of the other bodies (docs/algorithm.md, 5).
const float CM_DEEP_RECOVERY_SCALE = 4.0f;

// Each contact pair's step is over-relaxed by this factor. The pairs are
// stepped side by side, each vertex's inverse mass split among its pairs
// (cm_vertex_triangle_push), which converges more slowly than stepping them
// one after another; at 1.0 a beam's end pressed 0.2 m into its middle by
// the 5e4 N/m grab got 27-30 mm into it (1.3 too), at 1.5 it stays out.
const float CM_PAIR_RELAXATION = 1.5f;

// A vertex-triangle contact found by cm_vertex_triangle_contact: the push's
// direction n (from the triangle to p), p's nearest point on the triangle
// as barycentric weights, and the constraint's value C < 0 (how far short
// of its target the pair stands along n).
struct CmContact {
    vec3 n;
    vec3 bary;
    float C;
};

// The constraint of a vertex-triangle pair whose push is along n, p's
// nearest point on the triangle `bary` and p standing `separation` along n
// from it (negative: inside): cm_vertex_triangle_contact's, and
// cm_vertex_in_valley_contact's.
TM_FN bool cm_pair_constraint(vec3 n, vec3 bary, float separation, bool deep, float thickness,
                              float max_recovery, vec4 w, vec3 dx_p, vec3 dx_a, vec3 dx_b,
                              vec3 dx_c, TM_OUT(CmContact) contact)
{
    // Where the pair stood along n when the substep began. A pair already
    // closer than the thickness then is moved apart by at most max_recovery
    // beyond that this substep: pushing it all the way at once would turn the
    // push into a velocity of (thickness - separation) / h, and a pair held
    // together (by a fold, a heap, the ground) would be kicked every substep.
    // A plain pair counts from where the iterations have got it to, up to
    // the thickness (counted from the start, the pile sank into itself). A
    // deep pair counts from the start, CM_DEEP_RECOVERY_SCALE times farther:
    // with no thickness to stop at, from the iterations' position it would
    // go that much further every iteration and gain that speed every
    // substep (a cube inside a block left it at 15 m/s).
    float start = separation - dot(dx_p - (bary.x * dx_a + bary.y * dx_b + bary.z * dx_c), n);
    float target = deep ? min(thickness, start + CM_DEEP_RECOVERY_SCALE * max_recovery)
                        : min(thickness, max(start, separation) + max_recovery);
    float C = separation - target;
    if (C >= 0.0f) {
        return false;
    }
    if (w.x + bary.x * bary.x * w.y + bary.y * bary.y * w.z + bary.z * bary.z * w.w <= 0.0f) {
        return false;
    }
    contact.n = n;
    contact.bary = bary;
    contact.C = C;
    return true;
}

// Whether vertex p and surface triangle abc (counter-clockwise seen from
// outside) are in contact: closer than `thickness` in front of the
// triangle, or behind it. In front, the constraint is the distance to the
// triangle's nearest point, so edges and corners are rounded. Behind it, p
// has crossed into the triangle's body: while p projects inside the
// triangle it is pushed back out along the normal (the picks pair a vertex
// lying behind a triangle only with another body's, cm_pair_behind_may_touch:
// behind its own body's, it is inside that body as it should be). A deep
// pair (`deep`: p was found inside the triangle's body, and the triangle is
// that body's way out, cm_add_deep_pair) is pushed towards the triangle's
// nearest point wherever p projects. dx_*: each vertex's displacement
// since the substep began. w: the four inverse masses; a pair that cannot
// move is no contact.
TM_FN bool cm_vertex_triangle_contact(vec3 p, vec3 a, vec3 b, vec3 c, vec4 w, bool deep,
                                      float thickness, float max_recovery, vec3 dx_p, vec3 dx_a,
                                      vec3 dx_b, vec3 dx_c, TM_OUT(CmContact) contact)
{
    contact.n = vec3(0.0f);
    contact.bary = vec3(0.0f);
    contact.C = 0.0f;
    vec3 face = cross(b - a, c - a);
    float face_length = length(face);
    if (face_length <= 0.0f) {
        return false;  // a collapsed triangle has no side
    }
    vec3 n_face = face / face_length;
    if (dot(p - a, n_face) >= thickness) {
        // At least the thickness in front of the plane, so at least that far
        // from the triangle: the common case, without the nearest point.
        return false;
    }
    vec3 bary = cm_closest_on_triangle(p, a, b, c);
    vec3 arm = p - (bary.x * a + bary.y * b + bary.z * c);
    float side = dot(arm, n_face);
    float distance = length(arm);
    vec3 n;
    float separation;
    if (side >= 0.0f) {
        n = distance > 0.0f ? arm / distance : n_face;
        separation = distance;
    } else {
        bool interior = bary.x > 0.0f && bary.y > 0.0f && bary.z > 0.0f;
        if (interior) {
            n = n_face;
            separation = side;
        } else if (deep) {
            n = -arm / distance;  // towards the nearest point, on an edge (side < 0: distance > 0)
            separation = -distance;
        } else {
            return false;  // beside the triangle: a neighbour of it owns p (in a
                           // valley, cm_vertex_in_valley_contact)
        }
    }
    return cm_pair_constraint(n, bary, separation, deep, thickness, max_recovery, w, dx_p, dx_a,
                              dx_b, dx_c, contact);
}

// A vertex behind a triangle's plane whose nearest point on it lies on an
// edge is, for cm_vertex_triangle_contact, owned by the face beyond that
// edge, which holds it in front of itself or has it behind and projecting
// inside. Not so in a valley, where the two faces meet concave: a vertex
// pressed into it lies behind both and projects beside both, onto their
// shared edge, and no plain pair pushed it. In the pile a stiff cube's
// corner, let go by its deep pair a millimetre inside the soft torus, was
// dragged 12 mm into such a valley by its tets every third frame, and
// chattered in and out for good (docs/algorithm.md, 5, "Valleys").
//
// Which edge of abc p lies behind and beside: the edge opposite corner 0
// (bc), 1 (ca) or 2 (ab) that holds p's nearest point, where p is behind
// the plane of abc and the nearest point is on that edge's inside (not a
// corner); 3 otherwise. As cm_vertex_triangle_contact decides "beside".
TM_FN uint cm_edge_behind_beside(vec3 p, vec3 a, vec3 b, vec3 c)
{
    vec3 face = cross(b - a, c - a);
    if (!(dot(p - a, face) < 0.0f)) {
        return 3u;  // in front of the plane (or a collapsed triangle, or NaN)
    }
    vec3 bary = cm_closest_on_triangle(p, a, b, c);
    uint zeros = (bary.x == 0.0f ? 1u : 0u) + (bary.y == 0.0f ? 1u : 0u) +
                 (bary.z == 0.0f ? 1u : 0u);
    if (zeros != 1u) {
        return 3u;  // inside the triangle, or nearest to a corner
    }
    return bary.x == 0.0f ? 0u : (bary.y == 0.0f ? 1u : 2u);
}

// For p behind triangle abc and beside its edge `edge` (cm_edge_behind_beside),
// whose neighbouring face's third corner is o: whether p is pressed into
// the valley the two faces make, and the pair's constraint if so. The edge
// must be concave (o in front of abc's plane: at a convex edge the face
// beyond owns p, its own plain pair), and p inside by the edge's
// pseudo-normal, the sum of the two faces' normals (Baerentzen and Aanaes
// 2005, "Signed distance computation using the angle weighted
// pseudonormal"). Then p is pushed as a plain pair, towards its nearest
// point on the edge and the thickness beyond it.
TM_FN bool cm_vertex_in_valley_contact(vec3 p, vec3 a, vec3 b, vec3 c, vec3 o, uint edge, vec4 w,
                                       float thickness, float max_recovery, vec3 dx_p, vec3 dx_a,
                                       vec3 dx_b, vec3 dx_c, TM_OUT(CmContact) contact)
{
    contact.n = vec3(0.0f);
    contact.bary = vec3(0.0f);
    contact.C = 0.0f;
    vec3 face = cross(b - a, c - a);
    float face_length = length(face);
    if (face_length <= 0.0f || edge > 2u) {
        return false;
    }
    vec3 n_face = face / face_length;
    if (!(dot(o - a, n_face) > 0.0f)) {
        return false;  // a convex edge (or a flat one)
    }
    // The edge runs e0 -> e1 around abc; the face beyond runs it e1 -> e0.
    vec3 e0 = edge == 0u ? b : (edge == 1u ? c : a);
    vec3 e1 = edge == 0u ? c : (edge == 1u ? a : b);
    vec3 beyond = cross(e0 - e1, o - e1);
    float beyond_length = length(beyond);
    if (beyond_length <= 0.0f) {
        return false;
    }
    vec3 bary = cm_closest_on_triangle(p, a, b, c);
    vec3 arm = p - (bary.x * a + bary.y * b + bary.z * c);
    float distance = length(arm);
    if (!(dot(arm, n_face + beyond / beyond_length) < 0.0f) || !(distance > 0.0f)) {
        return false;  // outside the body by the edge's pseudo-normal
    }
    return cm_pair_constraint(-arm / distance, bary, -distance, false, thickness, max_recovery,
                              w, dx_p, dx_a, dx_b, dx_c, contact);
}

// One contact's step, for a contact of cm_vertex_triangle_contact. The
// pairs of an iteration are stepped side by side and each vertex takes the
// sum of its pairs' corrections, with its inverse mass split evenly among
// them: `pairs` holds each of the four vertices' count of contacts this
// iteration, and the pair is stepped as if each vertex weighed 1/pairs of
// its mass (Tonge et al. 2012, "Mass splitting for jitter-free parallel
// rigid body simulation"). Each pair's four corrections then keep momentum,
// and so does their sum. (The mean over a vertex's contacts, Macklin et al.
// 2014, 4.2, does not: a vertex and the corners it pushes have different
// counts, and the imbalance pushed a stack of cubes steadily along the
// ground, docs/algorithm.md, 5.) The step is over-relaxed by
// CM_PAIR_RELAXATION. Then friction (Macklin et al. 2014, "Unified particle
// physics for real-time applications", 6.1) removes the relative tangential
// slide of this substep (dx_*) below mu_s times the pair's shortfall -C
// (the normal correction before its over-relaxation), and mu_k times it
// above. The corrections are the real vertices' (w times the
// step's impulses), to be summed per vertex.
TM_FN void cm_vertex_triangle_push(CmContact contact, vec4 w, vec4 pairs, vec3 dx_p, vec3 dx_a,
                                   vec3 dx_b, vec3 dx_c, float mu_s, float mu_k,
                                   TM_OUT(vec3) d_p, TM_OUT(vec3) d_a, TM_OUT(vec3) d_b,
                                   TM_OUT(vec3) d_c)
{
    vec3 n = contact.n;
    vec3 bary = contact.bary;
    // At least one: a vertex in a pair has been counted (max guards a count
    // pass that decided otherwise from dividing by zero).
    vec4 w_split = w * max(pairs, vec4(1.0f));
    float w_sum = w_split.x + bary.x * bary.x * w_split.y + bary.y * bary.y * w_split.z +
                  bary.z * bary.z * w_split.w;
    // The normal step, and the tangential slide it leaves.
    float dlambda = -CM_PAIR_RELAXATION * contact.C / w_sum;
    vec3 slide = (dx_p + w_split.x * dlambda * n) -
                 (bary.x * (dx_a - w_split.y * bary.x * dlambda * n) +
                  bary.y * (dx_b - w_split.z * bary.y * dlambda * n) +
                  bary.z * (dx_c - w_split.w * bary.z * dlambda * n));
    vec3 tangential = slide - dot(slide, n) * n;
    float tangential_length = length(tangential);
    float normal_push = -contact.C;
    vec3 stop = vec3(0.0f);  // the relative slide friction removes
    if (tangential_length > 0.0f) {
        if (tangential_length < mu_s * normal_push) {
            stop = tangential;
        } else {
            stop = tangential * min(1.0f, mu_k * normal_push / tangential_length);
        }
    }
    // Both along the same generalized inverse mass: p against the point.
    vec3 impulse = dlambda * n - stop / w_sum;
    d_p = w.x * impulse;
    d_a = -(w.y * bary.x) * impulse;
    d_b = -(w.z * bary.y) * impulse;
    d_c = -(w.w * bary.z) * impulse;
}

// ---------------------------------------------------------------------------
// The spatial hash over the surface triangles and the fixed-point sums. A
// triangle is listed in every cell its box, grown by the near lists'
// radius, touches; a vertex then looks in its own cell only.
// ---------------------------------------------------------------------------

// At most this many cells per axis for one triangle: with cells a third of
// 1.5 times the largest rest triangle's box side plus twice the radius
// (ContactLayout::make), four suffice until a triangle is stretched past
// 1.5 times its size; a wildly stretched one is listed partly rather than
// in thousands of cells.
const int CM_MAX_CELLS_PER_AXIS = 4;

// A float that can be converted to int: NaN (a diverged vertex) becomes 0,
// the rest is clamped to +-2^20, where the conversion is defined.
TM_FN float cm_int_safe(float v)
{
    return v == v ? clamp(v, -1048576.0f, 1048576.0f) : 0.0f;
}

// Cells are clamped to +-2^20 per axis: far beyond any scene.
TM_FN ivec3 cm_cell_of(vec3 x, float inv_cell_size)
{
    vec3 cell = floor(x * inv_cell_size);
    return ivec3(vec3(cm_int_safe(cell.x), cm_int_safe(cell.y), cm_int_safe(cell.z)));
}

// The cells a box is listed in: lo .. hi, inclusive, at most
// CM_MAX_CELLS_PER_AXIS per axis.
TM_FN void cm_box_cells(vec3 box_lo, vec3 box_hi, float inv_cell_size, TM_OUT(ivec3) lo,
                        TM_OUT(ivec3) hi)
{
    lo = cm_cell_of(box_lo, inv_cell_size);
    hi = min(cm_cell_of(box_hi, inv_cell_size), lo + ivec3(CM_MAX_CELLS_PER_AXIS - 1));
}

// The cells a triangle is listed in: those of its box grown by `radius`.
TM_FN void cm_triangle_cells(vec3 a, vec3 b, vec3 c, float radius, float inv_cell_size,
                             TM_OUT(ivec3) lo, TM_OUT(ivec3) hi)
{
    vec3 box_lo;
    vec3 box_hi;
    cm_triangle_box(a, b, c, radius, box_lo, box_hi);
    cm_box_cells(box_lo, box_hi, inv_cell_size, lo, hi);
}

// Teschner et al. 2003, "Optimized spatial hashing for collision detection
// of deformable objects"; table_size is a power of two.
TM_FN uint cm_cell_hash(ivec3 cell, uint table_size)
{
    uint h = (uint(cell.x) * 73856093u) ^ (uint(cell.y) * 19349663u) ^ (uint(cell.z) * 83492791u);
    return h & (table_size - 1u);
}

// ---------------------------------------------------------------------------
// A vertex's nearest triangles. The search keeps, per surface vertex, the
// CM_NEAR_SLOTS nearest triangles within the search radius plus a skin; each
// substep picks the few nearest within the search radius from that list,
// until some vertex has moved half the skin and the list is searched again.
// Lists are ordered by (distance, triangle), so that the set and its order
// do not depend on the order the triangles were met in.
// ---------------------------------------------------------------------------

const uint CM_NEAR_SLOTS = 16u;
const uint CM_NO_TRIANGLE = 0xffffffffu;

struct CmNearest {
    uint triangle[CM_NEAR_SLOTS];
    float distance[CM_NEAR_SLOTS];
    // The triangle's body times two, plus one if the vertex lies behind it.
    uint group[CM_NEAR_SLOTS];
};

TM_FN void cm_nearest_clear(TM_OUT(CmNearest) n)
{
    for (uint i = 0u; i < CM_NEAR_SLOTS; ++i) {
        n.triangle[i] = CM_NO_TRIANGLE;
        n.distance[i] = 1.0e30f;
        n.group[i] = 0u;
    }
}

// Keeps triangle f at distance d if it is among the `slots` nearest (slots
// <= CM_NEAR_SLOTS). A triangle met twice (listed in two cells that share a
// bucket) ties with itself and is kept once.
TM_FN void cm_nearest_insert(TM_INOUT(CmNearest) n, uint slots, uint f, float d, uint group)
{
    int at = int(slots);
    for (int i = int(slots) - 1; i >= 0; --i) {
        if (n.triangle[i] == f) {
            return;
        }
        if (d < n.distance[i] || (d == n.distance[i] && f < n.triangle[i])) {
            at = i;
        }
    }
    if (at == int(slots)) {
        return;
    }
    for (int i = int(slots) - 1; i > at; --i) {
        n.triangle[i] = n.triangle[i - 1];
        n.distance[i] = n.distance[i - 1];
        n.group[i] = n.group[i - 1];
    }
    n.triangle[at] = f;
    n.distance[at] = d;
    n.group[at] = group;
}

// Whether a vertex of body vertex_body that lies behind a triangle of body
// triangle_body may be in contact with it: only across two bodies. Behind a
// face of its own body, beyond its neighbourhood, a vertex lies across the
// body from it: squashed flatter than the search radius (a soft body under
// its weight), a body's top vertices lie behind its bottom faces, within
// reach, and were pushed out through them, turning the tets between inside
// out (with the volume barrier alone, the 0.5 m cube at 100 Pa kept 340 of
// its 1,296 tets so). A fold is held by the pairs in front of its faces
// instead, which keep them the thickness apart.
TM_FN bool cm_pair_behind_may_touch(uint vertex_body, uint triangle_body)
{
    return vertex_body != triangle_body;
}

// A vertex behind several faces of one body crossed the nearest of them:
// pushing it out through a farther one too, across the body, would fight
// that (and leave it wedged inside under a load). Of the faces of one body
// a vertex lies behind, only the nearest is kept; the list is compacted.
TM_FN void cm_nearest_keep_one_behind_per_body(TM_INOUT(CmNearest) n, uint slots)
{
    uint kept = 0u;
    for (uint i = 0u; i < slots; ++i) {
        if (n.triangle[i] == CM_NO_TRIANGLE) {
            break;
        }
        bool drop = false;
        if ((n.group[i] & 1u) == 1u) {
            for (uint j = 0u; j < kept; ++j) {
                drop = drop || n.group[j] == n.group[i];
            }
        }
        if (!drop) {
            n.triangle[kept] = n.triangle[i];
            n.distance[kept] = n.distance[i];
            n.group[kept] = n.group[i];
            kept += 1u;
        }
    }
    for (uint i = kept; i < slots; ++i) {
        n.triangle[i] = CM_NO_TRIANGLE;
    }
}

// Candidates picked per vertex each substep (kContactsPerVertex).
const uint CM_PICKS = 4u;

// How far every vertex may move from where a near list was searched before
// the list may miss a triangle that matters. A triangle left off it lay at
// least `reach` away (the list's last distance if it is full, else the list
// radius), and a move of m by the vertex and by a triangle's corners
// changes a distance by less than 2m. So a list that is not full holds
// every triangle within the search radius while 2m < reach - search radius
// (the skin). Where more triangles crowd than a list holds, it holds every
// triangle within half the search radius while 2m < reach - that half (the
// picks, the nearest few, lie there: a vertex on a fine surface has its
// nearest triangles within a centimetre or two); or the CM_PICKS nearest
// (the listed ones then at most d + 2m away, the others at least reach -
// 2m) while 4m < reach - d, with d the CM_PICKS-th listed distance: this
// holds every pick even where a vertex came near a coarse surface. Never
// negative.
TM_FN float cm_near_list_allowed_move(CmNearest n, float search_radius, float list_radius)
{
    bool full = n.triangle[CM_NEAR_SLOTS - 1u] != CM_NO_TRIANGLE;
    float reach = full ? n.distance[CM_NEAR_SLOTS - 1u] : list_radius;
    float all_within = full ? 0.5f * (reach - 0.5f * search_radius)
                            : 0.5f * (reach - search_radius);
    float nearest = n.triangle[CM_PICKS - 1u] != CM_NO_TRIANGLE
                        ? 0.25f * (reach - n.distance[CM_PICKS - 1u])
                        : 0.0f;
    return max(max(all_within, nearest), 0.0f);
}

// A vertex's move since the search, measured beside the bodies' own: each
// body's shift is that of a reference vertex of it (its first surface
// vertex), and the world's that of the first body's. A distance between a
// vertex p of body A and a point u of body B changes by at most
// |dp - dA| + |du - dB| + |dA - dB|, and |dA - dB| <= |dA - d0| + |dB - d0|,
// so with m the largest of these moves a distance changes by less than 2m,
// as with the plain move: a body that falls, flies or is thrown without
// deforming moves its surface 0 beside itself, and a world of one body or
// of bodies falling together keeps its lists.
TM_FN float cm_move_beside_bodies(vec3 moved, vec3 body_moved, vec3 world_moved)
{
    return length(moved - body_moved) + length(body_moved - world_moved);
}

// In a world of one body, a vertex's move since the search measured beside
// the body's rigid motion: from where the rotation and shift that best carry
// the anchors onto the positions take its anchor. Any rigid motion leaves
// the distances within one body as they were, so a distance changes by less
// than 2m with m the largest of these moves, as with the plain move: a body
// that turns, rocks or tumbles without deforming keeps its lists.
TM_FN float cm_move_beside_rigid_motion(vec3 position, vec3 anchor, mat3 rotation,
                                        vec3 anchor_centroid, vec3 position_centroid)
{
    return length(position - (position_centroid + rotation * (anchor - anchor_centroid)));
}

// That rotation (Kabsch): with the sum over the vertices of a p^T, a and p
// the anchor and the position less their centroids, = U Sigma V^T by
// tm_signed_svd (U and V rotations, the smallest sigma negative where a
// reflection fits better), it is V U^T.
TM_FN mat3 cm_rigid_rotation(mat3 U, mat3 V)
{
    return V * transpose(U);
}

// Whether the near lists still hold every vertex's picks: each vertex moved
// less than the smallest allowed move of the last search, by the plain
// moves, by those beside the bodies (cm_move_beside_bodies) or by those
// beside the body's rigid motion (cm_move_beside_rigid_motion; a huge
// number in a world of several bodies), whichever bound is the tightest (a
// body spinning in place moves less than it does beside its reference
// vertex). False for NaN (a diverged vertex: its plain move is NaN).
TM_FN bool cm_near_lists_fresh(float largest_move, float largest_move_beside_bodies,
                               float largest_move_beside_rigid_motion, float allowed_move)
{
    float move = largest_move_beside_bodies < largest_move ? largest_move_beside_bodies
                                                           : largest_move;
    move = largest_move_beside_rigid_motion < move ? largest_move_beside_rigid_motion : move;
    return move < allowed_move;
}

// What the moves beside the rigid motion are where none is fitted (a world
// of several bodies): no bound.
const float CM_NO_MOVE_BOUND = 3.0e38f;

// Contact corrections are gathered per vertex as integers, so that the sum
// does not depend on the order the contacts arrive in (float sums do): the
// GPU's atomic adds and the CPU's loop give the same bits. One unit is
// 2^-30 m (about 1e-9 m); a correction is clamped to +-1/16 m first (a
// contact moves a vertex by its thickness and search margin, centimetres),
// so a vertex may gather 32 such before the 32-bit sum overflows.
const float CM_FIXED_POINT_SCALE = 1073741824.0f;  // 2^30
const float CM_FIXED_POINT_LIMIT_M = 0.0625f;

TM_FN ivec3 cm_to_fixed(vec3 d)
{
    // NaN (a diverged vertex) adds nothing rather than an undefined integer.
    vec3 finite = vec3(d.x == d.x ? d.x : 0.0f, d.y == d.y ? d.y : 0.0f, d.z == d.z ? d.z : 0.0f);
    vec3 clamped = clamp(finite, vec3(-CM_FIXED_POINT_LIMIT_M), vec3(CM_FIXED_POINT_LIMIT_M));
    return ivec3(floor(clamped * CM_FIXED_POINT_SCALE + vec3(0.5f)));
}

TM_FN vec3 cm_from_fixed(ivec3 sum)
{
    return vec3(sum) * (1.0f / CM_FIXED_POINT_SCALE);
}

// ---------------------------------------------------------------------------
// Deep penetration. A vertex more than the search radius inside another
// body has no triangle of it within reach, so no pick pushes it out. Each
// search also looks for a tet of another body that holds the vertex; each
// tet knows its body's way out, the surface triangle nearest to its centre
// in the rest shape (ContactLayout::tet_exit_triangle), and that triangle
// becomes a deep pair of the vertex.
// ---------------------------------------------------------------------------

// Marks a picked triangle as a deep pair (cm_vertex_triangle_contact's deep).
const uint CM_DEEP_PAIR = 0x80000000u;

TM_FN void cm_tet_box(vec3 a, vec3 b, vec3 c, vec3 d, TM_OUT(vec3) lo, TM_OUT(vec3) hi)
{
    lo = min(min(a, b), min(c, d));
    hi = max(max(a, b), max(c, d));
}

// Whether p lies inside tet abcd or on its boundary, inverted or not: a
// vertex exactly on a face shared by two tets of a body is in both, not in
// neither. A tet flattened below 1e-4 of the cube of its edges has no
// inside: its barycentric coordinates are then rounding noise.
TM_FN bool cm_inside_tet(vec3 p, vec3 a, vec3 b, vec3 c, vec3 d)
{
    vec3 e1 = b - a;
    vec3 e2 = c - a;
    vec3 e3 = d - a;
    vec3 q = p - a;
    float det = dot(e1, cross(e2, e3));
    float longest2 = max(max(dot(e1, e1), dot(e2, e2)), dot(e3, e3));
    if (!(abs(det) > 1.0e-4f * longest2 * sqrt(longest2))) {
        return false;  // flat, or NaN
    }
    float l1 = dot(q, cross(e2, e3)) / det;
    float l2 = dot(e1, cross(q, e3)) / det;
    float l3 = dot(e1, cross(e2, q)) / det;
    return l1 >= 0.0f && l2 >= 0.0f && l3 >= 0.0f && l1 + l2 + l3 <= 1.0f;
}

// After the picks (cm_nearest_keep_one_behind_per_body), for a vertex found
// inside body `body`, whose way out is its triangle f: if a pick holds the
// vertex behind a face of that body, that pick becomes the deep pair (the
// vertex crossed that face within reach; as a deep pair it pushes the
// vertex out towards the face's nearest point even where the vertex does
// not project inside it, which a plain pick leaves to a neighbouring face,
// one the picks may have dropped); else f does, as a pick already or in
// the first free slot or the last (the farthest pick), if the vertex lies
// behind f (`behind_f`: in front of it, in a hollow of the body, f would
// not push it, and would take a pick's slot for nothing). The vertex was
// found inside at the last search: one that has left the body since keeps
// its deep pair until the next search, pushed at most at the recovery
// speed towards the face.
TM_FN void cm_add_deep_pair(TM_INOUT(CmNearest) n, uint slots, uint f, uint body, bool behind_f)
{
    if (f == CM_NO_TRIANGLE) {
        return;
    }
    uint at = slots;
    for (uint i = 0u; i < slots; ++i) {
        if (n.triangle[i] != CM_NO_TRIANGLE && n.group[i] == 2u * body + 1u) {
            n.triangle[i] = n.triangle[i] | CM_DEEP_PAIR;
            return;
        }
        if (at == slots && (n.triangle[i] == f || n.triangle[i] == CM_NO_TRIANGLE)) {
            at = i;
        }
    }
    if (!behind_f) {
        return;
    }
    at = min(at, slots - 1u);
    n.triangle[at] = f | CM_DEEP_PAIR;
    n.distance[at] = 0.0f;
    n.group[at] = 2u * body + 1u;
}
