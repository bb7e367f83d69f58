package io.dilithiumgpu.bench;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.core.ParameterSet;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.pqc.jcajce.provider.BouncyCastlePQCProvider;
import org.bouncycastle.pqc.jcajce.provider.Dilithium;

import java.security.Provider;
import java.security.Security;
import java.util.Locale;

/**
 * A provider the {@code jca} subcommand measures, one group of rows of its table, each through the
 * same JCA calls.
 */
enum Contender {
    /** This provider in this process, on the backend its shared batcher chose. */
    DILITHIUM_GPU("DilithiumGPU"),
    /**
     * This provider on its CPU backend, measured in a second JVM started with
     * {@code dilithiumgpu.backend=cpu} (the provider has one batcher per process).
     */
    DILITHIUM_GPU_CPU("DilithiumGPU/cpu"),
    /** The JDK's own ML-DSA (JDK 24 and later); it has no round 3.1 Dilithium. */
    SUN("SUN"),
    /**
     * BouncyCastle: ML-DSA from provider {@code BC}, round 3.1 Dilithium ({@code DILITHIUM2} and so
     * on) from its PQC provider, which from version 1.85 on registers them only when asked to.
     */
    BC("BC");

    /** The default of {@code --providers}. */
    static final String DEFAULT_LIST = "DilithiumGPU,SUN,BC";

    final String label;

    Contender(String label) {
        this.label = label;
    }

    /** True for the contender measured in a second JVM. */
    boolean separateProcess() {
        return this == DILITHIUM_GPU_CPU;
    }

    /** The contender of a label, any case; null for none. */
    static Contender ofLabel(String label) {
        for (Contender c : values()) {
            if (c.label.toLowerCase(Locale.ROOT).equals(label.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        return null;
    }

    /**
     * The provider that runs {@code p} in this process, or null when this contender has none
     * ({@link #unavailable} says why).
     */
    Provider provider(ParameterSet p) {
        switch (this) {
            case DILITHIUM_GPU:
                return Providers.OURS;
            case SUN:
                Provider sun = Security.getProvider("SUN");
                return sun != null && sun.getService("Signature", p.algorithmName()) != null
                        && sun.getService("KeyPairGenerator", p.algorithmName()) != null ? sun : null;
            case BC:
                return p.isFips204() ? Providers.BC : Providers.BC_PQC;
            default:
                return null;
        }
    }

    /** Why {@link #provider} has none for {@code p}. */
    String unavailable(ParameterSet p) {
        if (this == BC) {
            return "BouncyCastle's PQC provider has no DILITHIUM2, 3, 5";
        }
        if (this == SUN) {
            return p.isFips204() ? "the JDK's provider SUN has no " + p.algorithmName() + " on JDK "
                    + Runtime.version() + " (ML-DSA needs JDK 24 or later)"
                    : "the JDK has no round 3.1 Dilithium";
        }
        return label + " is measured in a second JVM";
    }

    /** Provider instances, made once (BouncyCastle's take a while to build). */
    private static final class Providers {
        static final Provider OURS = new DilithiumGpuProvider();
        static final Provider BC = new BouncyCastleProvider();
        static final Provider BC_PQC = bcPqc();

        /** BouncyCastle's PQC provider with round 3.1 Dilithium registered, or null where it cannot be. */
        private static Provider bcPqc() {
            BouncyCastlePQCProvider pqc = new BouncyCastlePQCProvider();
            if (pqc.getService("Signature", "DILITHIUM2") == null) {
                try {
                    new Dilithium.Mappings().configure(pqc);
                } catch (RuntimeException e) {
                    return null;
                }
            }
            return pqc.getService("Signature", "DILITHIUM2") != null ? pqc : null;
        }
    }
}
