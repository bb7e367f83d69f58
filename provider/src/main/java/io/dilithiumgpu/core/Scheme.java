package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.ParameterSet.MU_BYTES;
import static io.dilithiumgpu.core.ParameterSet.N;
import static io.dilithiumgpu.core.ParameterSet.SEED_BYTES;

/**
 * The three algorithms of both families on raw byte encodings: FIPS 204 ML-DSA.KeyGen_internal,
 * ML-DSA.Sign_internal from μ, ML-DSA.Verify_internal from μ (Algorithms 6 to 8), and their
 * CRYSTALS-Dilithium round 3.1 counterparts ({@code crypto_sign_keypair},
 * {@code crypto_sign_signature} and {@code crypto_sign_verify} of the v3.1 reference after μ).
 * {@link ParameterSet} lists where the families differ.
 *
 * <p>Ownership: every method reads its input arrays and writes its output arrays only during the
 * call and keeps no reference to them. Temporaries live in a {@link Workspace} lent by a
 * {@link WorkspacePool} for the call; secret ones are wiped before each method returns it. Methods
 * are safe to call from any number of threads.
 * Signing and verification optionally take a key's {@link PrivateKeyCache} or
 * {@link PublicKeyCache}, which keeps its own copies of what it caches and is wiped by its owner.
 *
 * <p>Array bounds are the caller's: each byte field is read or written at its offset with the
 * set's exact length ({@link ParameterSet#publicKeyBytes()} and so on), and an array too short
 * for it throws {@link IndexOutOfBoundsException}.
 */
public final class Scheme {
    /**
     * Signing gives up after this many rejected attempts (the lower limit FIPS 204 Appendix C
     * allows for a bounded loop). A key made by key generation needs more with negligible
     * probability; a crafted key that decodes (t0 chosen so that ‖ct0‖∞ ≥ γ2 always, say) would
     * otherwise loop forever.
     */
    public static final int MAX_SIGN_ATTEMPTS = 814;

    /** The workspaces of every call (package-private for the tests). */
    static final WorkspacePool WORKSPACES = WorkspacePool.forThisProcess();

    private Scheme() {}

    /**
     * Key generation from a 32-byte seed: ζ for round 3.1 ({@code crypto_sign_keypair} after
     * {@code randombytes}), ξ for FIPS 204 (Algorithm 6, ML-DSA.KeyGen_internal).
     */
    public static void keyGen(ParameterSet p, byte[] seed, int seedOff,
                              byte[] pk, int pkOff, byte[] sk, int skOff) {
        int k = p.k();
        int l = p.l();
        Workspace ws = WORKSPACES.acquire();
        byte[] seeds = ws.seeds;
        try {
            // (ρ, ρ′, K) = H(ξ ‖ k ‖ ℓ, 128) (FIPS 204 Alg. 6 step 1); H(ζ, 128) in round 3.1
            Shake h = ws.shake256;
            h.update(seed, seedOff, SEED_BYTES);
            if (p.isFips204()) {
                h.update((byte) k);
                h.update((byte) l);
            }
            h.digest(seeds, 0, 128);
            final int rho = 0;
            final int rhoPrime = SEED_BYTES;
            final int key = SEED_BYTES + MU_BYTES;

            ws.expandMatrix(p, seeds, rho);
            Sampling.expandS(ws.shake256, seeds, rhoPrime, p.eta(), l, k, ws.buf, ws.s1, ws.s2);

            // t = NTT⁻¹(Â ∘ NTT(s1)) + s2 (steps 5 and 6): ŝ1 in z, t in t1
            System.arraycopy(ws.s1, 0, ws.z, 0, l * N);
            PolyVec.ntt(ws.z, l);
            PolyVec.matrixMultiplyMontgomery(ws.matrix, ws.z, k, l, ws.t1, ws.acc);
            PolyVec.inverseToMont(ws.t1, k);
            PolyVec.add(ws.t1, ws.s2, ws.t1, k * N);
            PolyVec.caddq(ws.t1, k * N);
            Rounding.power2Round(ws.t1, ws.t1, ws.t0, k * N);

            // pk = ρ ‖ t1 (step 8)
            System.arraycopy(seeds, rho, pk, pkOff, SEED_BYTES);
            int t1Bytes = ParameterSet.polyT1PackedBytes();
            for (int i = 0; i < k; i++) {
                Packing.packT1(ws.t1, i * N, pk, pkOff + SEED_BYTES + i * t1Bytes);
            }

            // sk = ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0 with tr = H(pk) (steps 9 and 10)
            int o = skOff;
            System.arraycopy(seeds, rho, sk, o, SEED_BYTES);
            o += SEED_BYTES;
            System.arraycopy(seeds, key, sk, o, SEED_BYTES);
            o += SEED_BYTES;
            h.update(pk, pkOff, p.publicKeyBytes());
            h.digest(sk, o, p.trBytes());
            o += p.trBytes();
            int etaBytes = p.polyEtaPackedBytes();
            for (int i = 0; i < l; i++, o += etaBytes) {
                Packing.packEta(ws.s1, i * N, p.eta(), sk, o);
            }
            for (int i = 0; i < k; i++, o += etaBytes) {
                Packing.packEta(ws.s2, i * N, p.eta(), sk, o);
            }
            int t0Bytes = ParameterSet.polyT0PackedBytes();
            for (int i = 0; i < k; i++, o += t0Bytes) {
                Packing.packT0(ws.t0, i * N, sk, o);
            }
        } finally {
            ws.wipeSecrets(p);
            WORKSPACES.release(ws);
        }
    }

    /**
     * Signs μ with an expanded private key (FIPS 204 Algorithm 7 from step 6; round 3.1 after μ).
     * {@code rnd} is {@link ParameterSet#rndBytes()} long: FIPS 204 rnd, or round 3.1 ρ′.
     *
     * <p>Writes the signature only on success.
     *
     * @return true when the signature was written; false when sk does not decode (an s1 or s2
     *         coefficient outside [−η, η]) or when {@link #MAX_SIGN_ATTEMPTS} attempts were all
     *         rejected
     */
    public static boolean sign(ParameterSet p, byte[] sk, int skOff, byte[] mu, int muOff,
                            byte[] rnd, int rndOff, byte[] sig, int sigOff) {
        return sign(p, sk, skOff, null, mu, muOff, rnd, rndOff, sig, sigOff);
    }

    /**
     * {@link #sign(ParameterSet, byte[], int, byte[], int, byte[], int, byte[], int)} with the key's
     * {@link PrivateKeyCache}: when it holds this key (bound to exactly these bytes), ŝ1, ŝ2, t̂0 are
     * copied from it and its Â is used, in place of skDecode, three NTTs and ExpandA; otherwise the
     * key is decoded here and, from the second signature through the cache on, copied into it. The
     * signature is the same either way, bit for bit.
     *
     * @param cache the private key's cache, or {@code null} for none
     */
    public static boolean sign(ParameterSet p, byte[] sk, int skOff, PrivateKeyCache cache, byte[] mu, int muOff,
                            byte[] rnd, int rndOff, byte[] sig, int sigOff) {
        return sign(p, sk, skOff, cache, mu, muOff, rnd, rndOff, sig, sigOff, 0);
    }

    /**
     * {@link #sign(ParameterSet, byte[], int, PrivateKeyCache, byte[], int, byte[], int, byte[], int)}
     * with up to {@code helpers} idle helper threads taking attempts of its rejection loop beside
     * the calling thread ({@link SharedAttempts}). The signature is the same bit for bit: that of
     * the first attempt in order that passes every check, whichever thread ran it.
     *
     * @param helpers the helper threads the call may take, 0 for none: the cores that would
     *                otherwise stay idle while it signs
     */
    public static boolean sign(ParameterSet p, byte[] sk, int skOff, PrivateKeyCache cache, byte[] mu, int muOff,
                               byte[] rnd, int rndOff, byte[] sig, int sigOff, int helpers) {
        Workspace ws = WORKSPACES.acquire();
        SharedAttempts shared = null;
        byte[] seeds = ws.seeds;
        final int rho = 0;
        final int key = SEED_BYTES;
        final int rhoPrime = 2 * SEED_BYTES;
        try {
            System.arraycopy(sk, skOff, seeds, rho, SEED_BYTES);
            System.arraycopy(sk, skOff + SEED_BYTES, seeds, key, SEED_BYTES);

            // ŝ1, ŝ2, t̂0 into ws and Â: from the key's cache, or skDecode, NTTs and ExpandA
            int[] matrix = cache == null ? null : cache.load(p, sk, skOff, ws);
            if (matrix == null) {
                if (!decodeSecretNtt(p, sk, skOff, ws)) {
                    return false;
                }
                ws.expandMatrix(p, seeds, rho);
                matrix = ws.matrix;
                if (cache != null) {
                    cache.offer(p, sk, skOff, ws);
                }
            }

            // ρ″ = H(K ‖ rnd ‖ μ, 64) (FIPS 204 Alg. 7 step 7); round 3.1 takes ρ′ as given
            if (p.isFips204()) {
                Shake h = ws.shake256;
                h.update(seeds, key, SEED_BYTES);
                h.update(rnd, rndOff, p.rndBytes());
                h.update(mu, muOff, MU_BYTES);
                h.digest(seeds, rhoPrime, MU_BYTES);
            } else {
                System.arraycopy(rnd, rndOff, seeds, rhoPrime, MU_BYTES);
            }

            if (helpers > 0) {
                shared = SharedAttempts.start(p, ws, matrix, mu, muOff, helpers);
            }
            if (shared != null) {
                return shared.runAsCaller(sig, sigOff);
            }
            for (int attempt = 0; attempt < MAX_SIGN_ATTEMPTS; attempt++) {
                if (attempt(p, ws, ws, matrix, mu, muOff, attempt, null) == ACCEPTED) {
                    packSignature(p, ws, sig, sigOff);
                    return true;
                }
            }
            return false;
        } finally {
            if (shared == null) {
                ws.wipeSecrets(p);
                WORKSPACES.release(ws);
            } else {
                shared.leave();
            }
        }
    }

    /** Signatures whose rejection loop helper threads joined ({@link SharedAttempts}), since the process started. */
    public static long sharedSignatureCount() {
        return SharedAttempts.SHARED.sum();
    }

    /** Attempts that helper threads ran to their end for those signatures. */
    public static long helperAttemptCount() {
        return SharedAttempts.HELPED.sum();
    }

    /** {@link #attempt}: the candidate passed every check; its c̃, z and h are in the workspace. */
    static final int ACCEPTED = 0;
    /** {@link #attempt}: a check rejected the candidate. */
    static final int REJECTED = 1;
    /** {@link #attempt}: given up half-way, for an earlier attempt of {@code shared} passed. */
    static final int ABANDONED = 2;

    /**
     * One attempt of the rejection loop (FIPS 204 Algorithm 7 steps 11 to 28), κ = attempt · ℓ:
     * the secrets ŝ1, ŝ2, t̂0 and ρ″ read from {@code secrets}, every temporary in {@code ws} (the
     * same workspace on the caller's own loop).
     *
     * @param shared the signature's shared attempts, when a helper or its caller runs this
     *               attempt for it: the attempt is given up once an earlier one has passed; or null
     * @return {@link #ACCEPTED}, {@link #REJECTED} or {@link #ABANDONED}
     */
    static int attempt(ParameterSet p, Workspace secrets, Workspace ws, int[] matrix, byte[] mu, int muOff,
                       int attempt, SharedAttempts shared) {
        int k = p.k();
        int l = p.l();
        int kn = k * N;
        int ln = l * N;
        int gamma2 = p.gamma2();
        int beta = p.beta();
        int w1Bytes = p.polyW1PackedBytes();
        // y = ExpandMask(ρ″, κ); w = NTT⁻¹(Â ∘ NTT(y)); w1 = HighBits(w) (steps 11 to 13)
        Sampling.expandMask(ws.shake256, secrets.seeds, 2 * SEED_BYTES, attempt * l, l, p.gamma1(), ws.buf, ws.y);
        System.arraycopy(ws.y, 0, ws.z, 0, ln);
        PolyVec.ntt(ws.z, l);
        PolyVec.matrixMultiplyMontgomery(matrix, ws.z, k, l, ws.w1, ws.acc);
        if (shared != null && shared.passedBefore(attempt)) {
            return ABANDONED;
        }
        PolyVec.inverseToMont(ws.w1, k);
        PolyVec.caddq(ws.w1, kn);
        Rounding.decompose(ws.w1, ws.w1, ws.w0, kn, gamma2);

        // c̃ = H(μ ‖ w1Encode(w1), λ/4) (step 15)
        for (int i = 0; i < k; i++) {
            Packing.packW1(ws.w1, i * N, p.w1Bits(), ws.w1Packed, i * w1Bytes);
        }
        Shake h = ws.shake256;
        h.update(mu, muOff, MU_BYTES);
        h.update(ws.w1Packed, 0, k * w1Bytes);
        h.digest(ws.cTilde, 0, p.cTildeBytes());
        Sampling.sampleInBall(ws.shake256, ws.cTilde, 0, p.cTildeBytes(), p.tau(), ws.buf, ws.c, 0);
        Ntt.forward(ws.c, 0);

        // r0 = LowBits(w − cs2) = w0 − cs2; reject if ‖r0‖∞ ≥ γ2 − β. Checked before z: it
        // rejects more often for the same work, so fewer attempts pay for cs1; an attempt
        // is kept only when every check passes, so the order changes no signature.
        if (rejectsLowBits(ws, secrets.s2, k, gamma2 - beta)) {
            return REJECTED;
        }
        // z = y + NTT⁻¹(ĉ ∘ ŝ1); reject if ‖z‖∞ ≥ γ1 − β (steps 18 to 23)
        if (rejectsZ(ws, secrets.s1, l, p.gamma1() - beta)) {
            return REJECTED;
        }
        // ct0; reject if ‖ct0‖∞ ≥ γ2; h = MakeHint(−ct0, w − cs2 + ct0) (steps 25 to 28)
        if (rejectsCt0(ws, secrets.t0, k, gamma2)) {
            return REJECTED;
        }
        PolyVec.add(ws.w0, ws.h, ws.w0, kn);
        int ones = PolyVec.makeHints(ws.w0, ws.w1, kn, gamma2, ws.h);
        return ones > p.omega() ? REJECTED : ACCEPTED;
    }

    /** σ = c̃ ‖ z ‖ h (sigEncode, Algorithm 26) of the attempt that passed, from its workspace. */
    static void packSignature(ParameterSet p, Workspace ws, byte[] sig, int sigOff) {
        int cTildeBytes = p.cTildeBytes();
        System.arraycopy(ws.cTilde, 0, sig, sigOff, cTildeBytes);
        int zBytes = p.polyZPackedBytes();
        int zOff = sigOff + cTildeBytes;
        for (int i = 0; i < p.l(); i++) {
            Packing.packZ(ws.z, i * N, p.gamma1(), sig, zOff + i * zBytes);
        }
        Packing.packHint(ws.h, p.k(), p.omega(), sig, zOff + p.l() * zBytes);
    }

    /**
     * skDecode (FIPS 204 Algorithm 25) of s1, s2, t0 into ws, then their NTTs: ŝ1, ŝ2, t̂0 with
     * |coefficient| &lt; 9q. Returns false, leaving t0 undecoded, when s1 or s2 has a coefficient
     * outside [−η, η] (the range check itself is branch-free; see {@link Packing#unpackEta}).
     */
    private static boolean decodeSecretNtt(ParameterSet p, byte[] sk, int skOff, Workspace ws) {
        int k = p.k();
        int l = p.l();
        if (!decodeS1S2(p, sk, skOff, ws)) {
            return false;
        }
        int o = skOff + 2 * SEED_BYTES + p.trBytes() + (l + k) * p.polyEtaPackedBytes();
        int t0Bytes = ParameterSet.polyT0PackedBytes();
        for (int i = 0; i < k; i++, o += t0Bytes) {
            Packing.unpackT0(sk, o, ws.t0, i * N);
        }
        PolyVec.ntt(ws.s1, l);
        PolyVec.ntt(ws.s2, k);
        PolyVec.ntt(ws.t0, k);
        return true;
    }

    /**
     * skDecode (FIPS 204 Algorithm 25) of s1 and s2 only, into {@code ws.s1} and {@code ws.s2};
     * false when a coefficient lies outside [−η, η] (checked branch-free, {@link Packing#unpackEta}).
     */
    static boolean decodeS1S2(ParameterSet p, byte[] sk, int skOff, Workspace ws) {
        int o = skOff + 2 * SEED_BYTES + p.trBytes();
        int etaBytes = p.polyEtaPackedBytes();
        boolean valid = true;
        for (int i = 0; i < p.l(); i++, o += etaBytes) {
            valid &= Packing.unpackEta(sk, o, p.eta(), ws.s1, i * N);
        }
        for (int i = 0; i < p.k(); i++, o += etaBytes) {
            valid &= Packing.unpackEta(sk, o, p.eta(), ws.s2, i * N);
        }
        return valid;
    }

    /*
     * The three norm checks of a signing attempt work one polynomial at a time and stop at the
     * first polynomial over its bound. That reveals which polynomial rejected a candidate that
     * is then discarded, which the Dilithium round-3 specification (§5.5) shows to be harmless;
     * each polynomial's check itself is branch-free.
     */

    /** z_i = reduce32(y_i + NTT⁻¹(ĉ ∘ ŝ1_i)); true as soon as some ‖z_i‖∞ ≥ bound. */
    private static boolean rejectsZ(Workspace ws, int[] s1, int l, int bound) {
        for (int i = 0; i < l; i++) {
            int off = i * N;
            Ntt.pointwiseMontgomery(ws.c, 0, s1, off, ws.z, off);
            Ntt.inverseToMont(ws.z, off);
            for (int j = off; j < off + N; j++) {
                ws.z[j] = Field.reduce32(ws.z[j] + ws.y[j]);
            }
            if (PolyVec.exceedsNorm(ws.z, off, N, bound)) {
                return true;
            }
        }
        return false;
    }

    /** w0_i = reduce32(w0_i − NTT⁻¹(ĉ ∘ ŝ2_i)); true as soon as some ‖w0_i‖∞ ≥ bound. */
    private static boolean rejectsLowBits(Workspace ws, int[] s2, int k, int bound) {
        for (int i = 0; i < k; i++) {
            int off = i * N;
            Ntt.pointwiseMontgomery(ws.c, 0, s2, off, ws.h, off);
            Ntt.inverseToMont(ws.h, off);
            for (int j = off; j < off + N; j++) {
                ws.w0[j] = Field.reduce32(ws.w0[j] - ws.h[j]);
            }
            if (PolyVec.exceedsNorm(ws.w0, off, N, bound)) {
                return true;
            }
        }
        return false;
    }

    /** h_i = reduce32(NTT⁻¹(ĉ ∘ t̂0_i)) = ct0; true as soon as some ‖h_i‖∞ ≥ bound. */
    private static boolean rejectsCt0(Workspace ws, int[] t0, int k, int bound) {
        for (int i = 0; i < k; i++) {
            int off = i * N;
            Ntt.pointwiseMontgomery(ws.c, 0, t0, off, ws.h, off);
            Ntt.inverseToMont(ws.h, off);
            for (int j = off; j < off + N; j++) {
                ws.h[j] = Field.reduce32(ws.h[j]);
            }
            if (PolyVec.exceedsNorm(ws.h, off, N, bound)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Verifies a signature of exactly {@link ParameterSet#signatureBytes()} bytes on μ (FIPS 204
     * Algorithm 8 from step 7; round 3.1 {@code crypto_sign_verify} after μ). Rejects malformed
     * hint encodings (HintBitUnpack) and ‖z‖∞ ≥ γ1 − β.
     */
    public static boolean verify(ParameterSet p, byte[] pk, int pkOff, byte[] mu, int muOff,
                                 byte[] sig, int sigOff) {
        return verify(p, pk, pkOff, null, mu, muOff, sig, sigOff);
    }

    /**
     * {@link #verify(ParameterSet, byte[], int, byte[], int, byte[], int)} with the key's
     * {@link PublicKeyCache}: when it holds this key (bound to exactly these bytes), its Â and t̂1
     * are used in place of ExpandA and the t1 unpack, shift and NTT; otherwise they are computed
     * here and, from the second verification through the cache on, copied into it. The verdict is
     * the same either way.
     *
     * @param cache the public key's cache, or {@code null} for none
     */
    public static boolean verify(ParameterSet p, byte[] pk, int pkOff, PublicKeyCache cache, byte[] mu, int muOff,
                                 byte[] sig, int sigOff) {
        Workspace ws = WORKSPACES.acquire();
        try {
            return verify(p, pk, pkOff, cache, mu, muOff, sig, sigOff, ws);
        } finally {
            ws.resetXofs();
            WORKSPACES.release(ws);
        }
    }

    private static boolean verify(ParameterSet p, byte[] pk, int pkOff, PublicKeyCache cache, byte[] mu, int muOff,
                                  byte[] sig, int sigOff, Workspace ws) {
        int k = p.k();
        int l = p.l();
        int kn = k * N;
        int cTildeBytes = p.cTildeBytes();
        int zBytes = p.polyZPackedBytes();

        // sigDecode (Algorithm 27): c̃, z, h; ⊥ for a malformed hint
        int zOff = sigOff + cTildeBytes;
        if (!Packing.unpackHint(sig, zOff + p.l() * zBytes, k, p.omega(), ws.h)) {
            return false;
        }
        for (int i = 0; i < l; i++) {
            Packing.unpackZ(sig, zOff + i * zBytes, p.gamma1(), ws.z, i * N);
        }
        if (PolyVec.exceedsNorm(ws.z, 0, l * N, p.gamma1() - p.beta())) {
            return false;
        }

        // Â and t̂1 = NTT(t1·2^d) (steps 5 and 9): from the key's cache, or ExpandA and pkDecode
        PublicKeyCache.Decoded cached = cache == null ? null : cache.load(p, pk, pkOff);
        int[] matrix;
        int[] t1Hat;
        if (cached != null) {
            matrix = cached.matrix;
            t1Hat = cached.t1;
        } else {
            ws.expandMatrix(p, pk, pkOff);
            int t1Bytes = ParameterSet.polyT1PackedBytes();
            for (int i = 0; i < k; i++) {
                Packing.unpackT1(pk, pkOff + SEED_BYTES + i * t1Bytes, ws.t1, i * N);
            }
            PolyVec.shiftLeftD(ws.t1, kn);
            PolyVec.ntt(ws.t1, k);
            matrix = ws.matrix;
            t1Hat = ws.t1;
            if (cache != null) {
                cache.offer(p, pk, pkOff, ws);
            }
        }

        // w′ = NTT⁻¹(Â ∘ NTT(z) − NTT(c) ∘ t̂1) (step 9)
        PolyVec.ntt(ws.z, l);
        Sampling.sampleInBall(ws.shake256, sig, sigOff, cTildeBytes, p.tau(), ws.buf, ws.c, 0);
        Ntt.forward(ws.c, 0);
        PolyVec.matrixMultiplySubMontgomery(matrix, ws.z, ws.c, 0, t1Hat, k, l, ws.w1, ws.acc);
        PolyVec.inverseToMont(ws.w1, k);
        PolyVec.caddq(ws.w1, kn);

        // w1′ = UseHint(h, w′); c̃′ = H(μ ‖ w1Encode(w1′), λ/4) (steps 10 and 12)
        PolyVec.useHints(ws.h, ws.w1, kn, p.gamma2());
        int w1Bytes = p.polyW1PackedBytes();
        for (int i = 0; i < k; i++) {
            Packing.packW1(ws.w1, i * N, p.w1Bits(), ws.w1Packed, i * w1Bytes);
        }
        Shake h = ws.shake256;
        h.update(mu, muOff, MU_BYTES);
        h.update(ws.w1Packed, 0, k * w1Bytes);
        h.digest(ws.cTilde, 0, cTildeBytes);

        // c̃ = c̃′ (step 13); all values here are public
        int diff = 0;
        for (int i = 0; i < cTildeBytes; i++) {
            diff |= ws.cTilde[i] ^ sig[sigOff + i];
        }
        return diff == 0;
    }

    /** tr = H(pk, trBytes): 32 bytes in round 3.1, 64 in FIPS 204. */
    public static byte[] tr(ParameterSet p, byte[] pk, int pkOff) {
        Workspace ws = WORKSPACES.acquire();
        try {
            byte[] tr = new byte[p.trBytes()];
            ws.shake256.update(pk, pkOff, p.publicKeyBytes());
            ws.shake256.digest(tr, 0, tr.length);
            return tr;
        } finally {
            ws.resetXofs();
            WORKSPACES.release(ws);
        }
    }

    /**
     * The rnd a backend takes for deterministic signing: 32 zero bytes (FIPS 204), or round 3.1's
     * ρ′ = H(K ‖ μ, 64) with K read from sk. The result is secret for round 3.1; the caller
     * wipes it after use.
     */
    public static byte[] deterministicRnd(ParameterSet p, byte[] sk, int skOff, byte[] mu, int muOff) {
        byte[] rnd = new byte[p.rndBytes()];
        if (p.isFips204()) {
            return rnd;
        }
        Workspace ws = WORKSPACES.acquire();
        try {
            ws.shake256.update(sk, skOff + SEED_BYTES, SEED_BYTES);
            ws.shake256.update(mu, muOff, MU_BYTES);
            ws.shake256.digest(rnd, 0, rnd.length);
            return rnd;
        } finally {
            ws.resetXofs();
            WORKSPACES.release(ws);
        }
    }
}
