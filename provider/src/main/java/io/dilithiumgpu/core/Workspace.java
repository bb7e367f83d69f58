package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.ParameterSet.N;

import java.util.Arrays;


/**
 * Scratch for one operation of {@link Scheme}: the XOFs and every temporary of key generation,
 * signing and verification, sized once for the largest set (k = 8, ℓ = 7) so that the hot paths
 * never allocate.
 *
 * <p>Ownership: one operation at a time (lent by a {@link WorkspacePool}). Secret temporaries are
 * wiped by {@link #wipeSecrets} in the {@code finally} of every operation that wrote them, before
 * the workspace goes back to the pool. The expanded matrix Â is public (a function of ρ in the
 * public key) and stays cached for the ρ it was computed from.
 */
final class Workspace {
    private static final int MAX_K = 8;
    private static final int MAX_L = 7;

    final Shake shake128 = Shake.shake128();
    final Shake shake256 = Shake.shake256();
    /** XOF output blocks. */
    final byte[] buf = new byte[Sampling.BUFFER_BYTES];
    /** Key generation: ρ ‖ ρ′ ‖ K. Signing: ρ ‖ K ‖ ρ″. Secret. */
    final byte[] seeds = new byte[128];

    /** Â, row-major; valid for {@link #matrixRho} and {@link #matrixK} × {@link #matrixL}. */
    final int[] matrix = new int[MAX_K * MAX_L * N];
    private final byte[] matrixRho = new byte[ParameterSet.SEED_BYTES];
    private int matrixK;
    private int matrixL;

    /** s1 (plain, then NTT). Secret. */
    final int[] s1 = new int[MAX_L * N];
    /** s2 (plain, then NTT). Secret. */
    final int[] s2 = new int[MAX_K * N];
    /** t0 (plain, then NTT). Secret. */
    final int[] t0 = new int[MAX_K * N];
    /** t, t1, or the verification's t̂1. */
    final int[] t1 = new int[MAX_K * N];
    /** y: the mask. Secret. */
    final int[] y = new int[MAX_L * N];
    /** ŷ, then z. */
    final int[] z = new int[MAX_L * N];
    /** w, then w1. */
    final int[] w1 = new int[MAX_K * N];
    /** w0 and the low parts of the hint computation. Secret. */
    final int[] w0 = new int[MAX_K * N];
    /** cs2, ct0, then the hint h. */
    final int[] h = new int[MAX_K * N];
    /** Accumulator of the lazily reduced matrix-vector products. */
    final long[] acc = new long[N];
    /** The challenge c (plain, then NTT). */
    final int[] c = new int[N];
    /** w1Encode(w1). */
    final byte[] w1Packed = new byte[MAX_K * 192];
    /** c̃ of the current signing attempt, or the recomputed c̃′ of verification. */
    final byte[] cTilde = new byte[64];

    /**
     * Fills {@link #matrix} with ExpandA(ρ) for the set's dimensions unless it already holds it
     * (FIPS 204 Algorithm 32). Â depends only on the public ρ, so reusing it across calls leaks
     * nothing; the comparison with the cached ρ runs over public bytes.
     */
    void expandMatrix(ParameterSet p, byte[] rho, int rhoOff) {
        int k = p.k();
        int l = p.l();
        if (matrixK == k && matrixL == l
                && Arrays.equals(matrixRho, 0, matrixRho.length, rho, rhoOff, rhoOff + matrixRho.length)) {
            return;
        }
        matrixK = 0;
        Sampling.expandA(shake128, rho, rhoOff, k, l, buf, matrix);
        System.arraycopy(rho, rhoOff, matrixRho, 0, matrixRho.length);
        matrixK = k;
        matrixL = l;
    }

    /**
     * Zeroes the parts of the scratch arrays that an operation on set p may have filled with
     * secret material, and resets the XOFs (which clears their state).
     */
    void wipeSecrets(ParameterSet p) {
        int kn = p.k() * N;
        int ln = p.l() * N;
        Arrays.fill(buf, (byte) 0);
        Arrays.fill(seeds, (byte) 0);
        Arrays.fill(s1, 0, ln, 0);
        Arrays.fill(s2, 0, kn, 0);
        Arrays.fill(t0, 0, kn, 0);
        Arrays.fill(t1, 0, kn, 0);
        Arrays.fill(y, 0, ln, 0);
        Arrays.fill(z, 0, ln, 0);
        Arrays.fill(w1, 0, kn, 0);
        Arrays.fill(w0, 0, kn, 0);
        Arrays.fill(h, 0, kn, 0);
        Arrays.fill(acc, 0);
        Arrays.fill(c, 0);
        Arrays.fill(w1Packed, (byte) 0);
        Arrays.fill(cTilde, (byte) 0);
        resetXofs();
    }

    /**
     * Resets both XOFs, which clears their state: after an operation that wrote no other secret
     * (verification, tr), or one that stopped half-way through a hash.
     */
    void resetXofs() {
        shake128.reset();
        shake256.reset();
    }
}
