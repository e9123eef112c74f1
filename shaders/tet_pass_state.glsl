// What the tet passes share across a substep, one buffer: the fraction of
// its multipliers every tet starts the substep from (warm_fraction.comp
// writes it, the Gauss-Seidel warm start reads it), and the volume
// barrier's latch (tm_volume_constraint): a tet step that finds its tet
// within the barrier's reach (J < J_b) sets volume_squeezed_seen, and
// predict.comp engages the barrier once a whole substep went by without
// one, for good (until the world is loaded or its state set anew, which
// upload 0, 0, 1).
layout(std430, binding = 28) buffer TetPassState {
    float warm_fraction;
    uint volume_barrier_engaged;
    uint volume_squeezed_seen;
};
