package io.dilithiumgpu.bench;

import org.bouncycastle.crypto.digests.SHA256Digest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuSplitTest {

    /** Each part of a handshake by the code it passes through, ML-DSA first. */
    @Test
    void samplesArePutInTheFirstPartTheirStackPassesThrough() {
        assertEquals(CpuSplit.Part.ML_DSA, CpuSplit.Part.of(List.of("org.bouncycastle.crypto.digests.SHAKEDigest",
                "org.bouncycastle.crypto.signers.mldsa.MLDSASigner", "io.dilithiumgpu.tls.PathTrustManager")));
        assertEquals(CpuSplit.Part.ML_DSA, CpuSplit.Part.of(List.of("io.dilithiumgpu.core.Ntt",
                "org.bouncycastle.tls.TlsServerProtocol")));
        assertEquals(CpuSplit.Part.CERTIFICATES, CpuSplit.Part.of(List.of("org.bouncycastle.asn1.ASN1InputStream",
                "io.dilithiumgpu.tls.PathTrustManager", "org.bouncycastle.tls.TlsClientProtocol")));
        assertEquals(CpuSplit.Part.HASHING, CpuSplit.Part.of(List.of("sun.security.provider.SHA2",
                "org.bouncycastle.tls.DeferredHash", "org.bouncycastle.tls.TlsProtocol")));
        assertEquals(CpuSplit.Part.HASHING, CpuSplit.Part.of(List.of("java.security.MessageDigest$Delegate",
                "java.security.MessageDigest", "io.dilithiumgpu.bench.TlsLoad")));
        assertEquals(CpuSplit.Part.HASHING, CpuSplit.Part.of(List.of("javax.crypto.Mac",
                "io.dilithiumgpu.bench.TlsLoad")));
        assertEquals(CpuSplit.Part.KEY_EXCHANGE, CpuSplit.Part.of(List.of("org.bouncycastle.math.ec.rfc7748.X25519Field",
                "org.bouncycastle.tls.TlsClientProtocol")));
        assertEquals(CpuSplit.Part.RECORDS, CpuSplit.Part.of(List.of("com.sun.crypto.provider.GaloisCounterMode",
                "org.bouncycastle.tls.crypto.TlsAEADCipher")));
        assertEquals(CpuSplit.Part.JSSE, CpuSplit.Part.of(List.of("java.util.HashMap",
                "org.bouncycastle.jsse.provider.DisabledAlgorithmConstraints")));
        assertEquals(CpuSplit.Part.OTHER, CpuSplit.Part.of(List.of("io.dilithiumgpu.bench.TlsLoad")));
    }

    /**
     * A thread busy hashing is sampled, and its samples land in the hashing part. The digest is
     * BouncyCastle's Java SHA-256: once compiled, the JDK's intrinsic SHA-256 has no frame of its own
     * in a sample (JDK 17 drops those samples, JDK 25 puts them at the nearest Java caller).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aBusyThreadsSamplesAreCountedInItsPart() throws Exception {
        SHA256Digest sha = new SHA256Digest();
        byte[] data = new byte[1 << 16];
        long hashing = 0;
        // The recorder samples every 10 ms; on a loaded machine this thread may get few of them.
        for (int attempt = 0; attempt < 50 && hashing == 0; attempt++) {
            try (CpuSplit split = CpuSplit.start()) {
                long end = System.nanoTime() + 200_000_000L;
                while (System.nanoTime() < end) {
                    sha.update(data, 0, data.length);
                }
                CpuSplit.Counts counts = split.stop();
                hashing = counts.others(CpuSplit.Part.HASHING);
            }
        }
        assertTrue(hashing > 0, "no sample of the hashing thread");
    }
}
