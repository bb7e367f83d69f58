package io.dilithiumgpu.kat;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;

import java.util.Arrays;
import java.util.Optional;

/**
 * What the provider's SPI does on the caller's thread before a task goes to a backend: the
 * {@link FrontEnd} checks, then μ and the signing randomness. A refusal is recorded in the
 * vector's {@link CaseResult} and the method returns null: the task never reaches the backend.
 */
final class TaskInputs {
    private TaskInputs() {}

    /**
     * μ for signing (tr read from sk, as FIPS 204 Algorithm 7 step 1 does), or null when the JCA
     * checks or μ's formation refuse.
     */
    static byte[] signMu(ParameterSet p, byte[] privateKey, MessageInput message, CaseResult r) {
        Optional<String> no = FrontEnd.signRejection(p, privateKey, message);
        if (no.isPresent()) {
            r.refuse(no.get());
            return null;
        }
        return mu(p, trOfPrivateKey(p, privateKey), message, r);
    }

    /**
     * The backend's rnd: the vector's own (hedged signing), or, when the vector gives none,
     * {@link Scheme#deterministicRnd}: 32 zero bytes (FIPS 204) or round 3.1's ρ′ = H(K ‖ μ).
     * Null when the vector's rnd has the wrong length.
     */
    static byte[] signRnd(ParameterSet p, byte[] privateKey, byte[] mu, byte[] vectorRnd, CaseResult r) {
        if (vectorRnd == null) {
            return Scheme.deterministicRnd(p, privateKey, 0, mu, 0);
        }
        Optional<String> no = FrontEnd.rndRejection(p, vectorRnd);
        if (no.isPresent()) {
            r.refuse(no.get());
            return null;
        }
        return vectorRnd;
    }

    /** μ for verification (tr = H(pk)), or null when the JCA checks or μ's formation refuse. */
    static byte[] verifyMu(ParameterSet p, byte[] publicKey, byte[] signature, MessageInput message,
                           CaseResult r) {
        Optional<String> no = FrontEnd.verifyRejection(p, publicKey, signature, message);
        if (no.isPresent()) {
            r.refuse(no.get());
            return null;
        }
        return mu(p, Scheme.tr(p, publicKey, 0), message, r);
    }

    /** tr as stored in sk = ρ ‖ K ‖ tr ‖ …: bytes [64, 64 + trBytes). */
    static byte[] trOfPrivateKey(ParameterSet p, byte[] privateKey) {
        int off = 2 * ParameterSet.SEED_BYTES;
        return Arrays.copyOfRange(privateKey, off, off + p.trBytes());
    }

    private static byte[] mu(ParameterSet p, byte[] tr, MessageInput message, CaseResult r) {
        try {
            return message.mu(p, tr);
        } catch (IllegalArgumentException e) {
            r.refuse("mu: " + e.getMessage());
            return null;
        }
    }
}
