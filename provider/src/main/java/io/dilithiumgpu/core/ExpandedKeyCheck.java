package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.ParameterSet.N;
import static io.dilithiumgpu.core.ParameterSet.SEED_BYTES;

import java.util.Arrays;

/**
 * Whether an expanded private key sk = ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0 (FIPS 204 Algorithm 24, skEncode;
 * round 3.1 {@code pack_sk}) is one that key generation could have written: s1 and s2 decode into
 * [−η, η], t0 is the low part of t = A·s1 + s2 with A = ExpandA(ρ) (Power2Round, Algorithm 35),
 * and tr = H(ρ ‖ t1). Only then does a signature made with it verify under the public key ρ ‖ t1.
 * K is any 32 bytes. A key that only passes the tr check (someone else's tr over mismatched s1,
 * s2, t0) signs garbage, which this check is there to refuse when a key is imported.
 *
 * <p>Runs once per imported key, never per signature: ExpandA, ℓ NTTs and the matrix product,
 * about what key generation costs. Secrets live in a private workspace, wiped before return; the
 * comparison of the recomputed key with {@code sk} runs in constant time.
 */
public final class ExpandedKeyCheck {
    private ExpandedKeyCheck() {}

    /**
     * The public key pk = ρ ‖ t1 that {@code sk[skOff ..]} belongs to, or {@code null} when sk is
     * not consistent (see the class comment).
     *
     * @param sk holds {@link ParameterSet#privateKeyBytes()} bytes from {@code skOff}
     */
    public static byte[] publicKeyOf(ParameterSet p, byte[] sk, int skOff) {
        int k = p.k();
        int l = p.l();
        Workspace ws = new Workspace();
        byte[] again = new byte[p.privateKeyBytes()];
        try {
            if (!Scheme.decodeS1S2(p, sk, skOff, ws)) {
                return null;
            }

            // t = NTT⁻¹(Â ∘ NTT(s1)) + s2, then (t1, t0) = Power2Round(t): FIPS 204 Algorithm 6 steps 5 to 7
            ws.expandMatrix(p, sk, skOff);
            System.arraycopy(ws.s1, 0, ws.z, 0, l * N);
            PolyVec.ntt(ws.z, l);
            PolyVec.matrixMultiplyMontgomery(ws.matrix, ws.z, k, l, ws.t1, ws.acc);
            PolyVec.inverseToMont(ws.t1, k);
            PolyVec.add(ws.t1, ws.s2, ws.t1, k * N);
            PolyVec.caddq(ws.t1, k * N);
            Rounding.power2Round(ws.t1, ws.t1, ws.t0, k * N);

            byte[] pk = new byte[p.publicKeyBytes()];
            System.arraycopy(sk, skOff, pk, 0, SEED_BYTES);
            int t1Bytes = ParameterSet.polyT1PackedBytes();
            for (int i = 0; i < k; i++) {
                Packing.packT1(ws.t1, i * N, pk, SEED_BYTES + i * t1Bytes);
            }

            // sk as key generation would write it from ρ, K, s1, s2: only its tr and t0 can differ
            System.arraycopy(sk, skOff, again, 0, 2 * SEED_BYTES);
            Shake h = ws.shake256;
            h.update(pk, 0, pk.length);
            h.digest(again, 2 * SEED_BYTES, p.trBytes());
            int t0At = 2 * SEED_BYTES + p.trBytes() + (l + k) * p.polyEtaPackedBytes();
            System.arraycopy(sk, skOff + 2 * SEED_BYTES + p.trBytes(), again, 2 * SEED_BYTES + p.trBytes(),
                    (l + k) * p.polyEtaPackedBytes());
            int t0Bytes = ParameterSet.polyT0PackedBytes();
            for (int i = 0; i < k; i++) {
                Packing.packT0(ws.t0, i * N, again, t0At + i * t0Bytes);
            }
            int diff = 0;
            for (int i = 0; i < again.length; i++) {
                diff |= again[i] ^ sk[skOff + i];
            }
            return diff == 0 ? pk : null;
        } finally {
            ws.wipeSecrets(p);
            Arrays.fill(again, (byte) 0);
        }
    }
}
