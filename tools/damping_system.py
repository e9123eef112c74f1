#!/usr/bin/env python3
"""Prints the 6 x 6 system of tm_damp_strain_rate (shaders/tet_math.glsl)
written out term by term: its lower half a_kl = <E_k, C E_l W> (+ alpha on
the diagonal) and right-hand side r_k = <E_k, F^T dF/dt> in the orthonormal
basis of symmetric matrices E_0..E_5 (xx, yy, zz, then xy, xz, yz over
sqrt(2)), then its LDL^T solve for mu (one divide per pivot). The shader keeps this text because
llvmpipe ran the same maths as arrays and loops at half the speed; the
SIMD kernel (src/core/simd/tet_block_kernel_body.h) runs the loops, in the
same order of operations. Indices are GLSL's m[column][row]; C and W are
symmetric."""


def row(k):
    return k if k < 3 else (1 if k == 5 else 0)


def column(k):
    return k if k < 3 else (1 if k == 3 else 2)


def system():
    out = []
    for k in range(6):
        i, j = row(k), column(k)
        if k < 3:
            out.append(f"float r{k} = rate[{i}][{i}];")
        else:
            out.append(f"float r{k} = TM_HALF_SQRT2 * (rate[{j}][{i}] + rate[{i}][{j}]);")
    for k in range(6):
        i, j = row(k), column(k)
        for l in range(k + 1):
            p, q = row(l), column(l)
            # sum over the pairs (a, b) of E_k and (c, d) of E_l of C_bc W_da
            terms = [f"C[{j}][{p}] * W[{q}][{i}]"]
            if l >= 3:
                terms.append(f"C[{j}][{q}] * W[{p}][{i}]")
            if k >= 3:
                terms.append(f"C[{i}][{p}] * W[{q}][{j}]")
                if l >= 3:
                    terms.append(f"C[{i}][{q}] * W[{p}][{j}]")
            total = " + ".join(terms)
            scale = ["TM_HALF_SQRT2"] * ((k >= 3) + (l >= 3))
            expr = total if not scale else f"({' * '.join(scale)}) * ({total})"
            if k == l:
                expr += " + alpha_shape"
            out.append(f"float a{k}{l} = {expr};")
    out.append("bool solvable = true;")
    for j in range(6):
        pivot = f"a{j}{j}" + "".join(f" - l{j}{m} * l{j}{m} * d{m}" for m in range(j))
        out.append(f"float pivot{j} = {pivot};")
        out.append(f"solvable = solvable && pivot{j} > 0.0f;")
        out.append(f"float d{j} = solvable ? pivot{j} : 1.0f;")
        out.append(f"float inv_d{j} = 1.0f / d{j};")
        for i in range(j + 1, 6):
            entry = f"a{i}{j}" + "".join(f" - l{i}{m} * l{j}{m} * d{m}" for m in range(j))
            out.append(f"float l{i}{j} = ({entry}) * inv_d{j};")
    for i in range(6):
        out.append(f"float y{i} = r{i}" + "".join(f" - l{i}{m} * y{m}" for m in range(i)) + ";")
    for i in range(5, -1, -1):
        back = f"y{i} * inv_d{i}" + "".join(f" - l{m}{i} * mu{m}" for m in range(i + 1, 6))
        out.append(f"float mu{i} = solvable ? {back} : 0.0f;")
    return out


def wrapped(line, indent="    ", width=100):
    """The line broken before a + or - so that no piece passes width."""
    pieces = []
    text = indent + line
    while len(text) > width:
        cut = max(text.rfind(" + ", 0, width), text.rfind(" - ", 0, width))
        pieces.append(text[:cut])
        text = indent + "        " + text[cut + 1:]
    pieces.append(text)
    return "\n".join(pieces)


if __name__ == "__main__":
    print("\n".join(wrapped(line) for line in system()))
