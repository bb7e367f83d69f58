package io.dilithiumgpu.bench;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * Where a handshake's host CPU goes, by the JDK Flight Recorder's execution samples over a measured
 * window: each sample's stack is put in the first {@link Part} whose code it passes through, in the
 * order of the enum (so an ML-DSA verification inside certificate checking counts as ML-DSA, and a
 * digest inside record encryption as encryption). Samples of this provider's own threads (batcher,
 * CPU workers, CUDA streams) are all ML-DSA.
 *
 * <p>The recorder samples only threads running Java code, a few per period, so the counts give
 * shares, not times: {@link TlsLoad} scales them to the process's CPU time.
 */
final class CpuSplit implements AutoCloseable {
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    private static final Duration PERIOD = Duration.ofMillis(10);
    /** This provider's thread names ({@code dilithiumgpu-*}, {@code dilithium-cpu-*}). */
    static final String PROVIDER_THREADS = "dilithium";

    /** The parts of a handshake, in the order a sample is matched against them. */
    enum Part {
        /** This provider, BouncyCastle's or the JDK's ML-DSA: signing, verifying, key decoding. */
        ML_DSA("ml-dsa", c -> c.startsWith("io.dilithiumgpu.") && !c.startsWith("io.dilithiumgpu.tls.")
                && !c.startsWith("io.dilithiumgpu.bench.")
                || c.contains(".mldsa.") || c.startsWith("sun.security.provider.ML_DSA")),
        /** Key exchange: X25519 and ML-KEM key generation, agreement, encapsulation. */
        KEY_EXCHANGE("key exchange", c -> c.startsWith("org.bouncycastle.math.ec.") || c.contains(".mlkem.")
                || c.startsWith("sun.security.ec.") || c.contains("ML_KEM") || c.contains(".JceX25519")
                || c.contains(".JceTlsMLKem") || c.contains(".JceTlsECDH")),
        /** Record protection: AES-GCM, ChaCha20-Poly1305. */
        RECORDS("aead", c -> c.contains("AEAD") || c.contains("ChaCha") || c.contains("Poly1305")
                || c.contains("GaloisCounterMode") || c.contains("GHASH") || c.contains("AESCrypt")
                || c.startsWith("org.bouncycastle.crypto.modes.") || c.startsWith("org.bouncycastle.crypto.engines.")),
        /** Random numbers: nonces, key generation seeds. */
        RANDOM("random", c -> c.contains("SecureRandom") || c.contains("DRBG") || c.contains(".prng.")
                || c.contains("NonceGenerator")),
        /**
         * Transcript hash, HKDF and HMAC. The JCA entry points count too: on JDK 25 a sample taken while
         * an intrinsic digest runs is placed at the nearest Java frame, the compiled caller of
         * {@code MessageDigest} or {@code Mac} with the digest's own frames inlined away.
         */
        HASHING("hash/hkdf", c -> c.startsWith("java.security.MessageDigest") || c.startsWith("javax.crypto.Mac")
                || c.startsWith("org.bouncycastle.crypto.digests.")
                || c.startsWith("org.bouncycastle.crypto.macs.") || c.startsWith("sun.security.provider.SHA")
                || c.startsWith("sun.security.provider.DigestBase") || c.startsWith("com.sun.crypto.provider.Hmac")
                || c.contains(".JceTlsSecret") || c.contains(".DeferredHash") || c.contains(".JcaTlsHash")
                || c.contains(".JceTlsHMAC")),
        /** Certificate parsing and checking (chain, validity, names), their signatures excepted. */
        CERTIFICATES("certificates", c -> c.startsWith("org.bouncycastle.asn1.") || c.contains("X509")
                || c.contains("CertPath") || c.contains("TrustManager") || c.startsWith("java.security.cert.")
                || c.startsWith("sun.security.x509.") || c.contains(".JcaTlsCertificate")
                || c.contains("RFC3280") || c.contains("PKIX")),
        /** Sockets. */
        SOCKETS("sockets", c -> c.startsWith("java.net.") || c.startsWith("sun.nio.ch.")),
        /** BouncyCastle's JSSE and TLS protocol code itself. */
        JSSE("jsse", c -> c.startsWith("org.bouncycastle.tls.") || c.startsWith("org.bouncycastle.jsse.")),
        /** Anything else: the load generator's loop, thread scheduling. */
        OTHER("other", c -> true);

        final String label;
        private final Predicate<String> matches;

        Part(String label, Predicate<String> matches) {
            this.label = label;
            this.matches = matches;
        }

        /** The part of a stack, by the class names of its frames. */
        static Part of(List<String> classes) {
            for (Part p : values()) {
                for (String c : classes) {
                    if (p.matches.test(c)) {
                        return p;
                    }
                }
            }
            return OTHER;
        }
    }

    /**
     * Samples counted per part: {@code providerThreads} on this provider's threads, {@code others}
     * on every other thread (index {@link Part#ordinal()}).
     */
    record Counts(long providerThreads, List<Long> others) {
        static final Counts NONE = new Counts(0, java.util.Collections.nCopies(Part.values().length, 0L));

        Counts {
            others = List.copyOf(others);
        }

        long othersTotal() {
            return others.stream().mapToLong(Long::longValue).sum();
        }

        long others(Part p) {
            return others.get(p.ordinal());
        }
    }

    private final Recording recording;

    private CpuSplit(Recording recording) {
        this.recording = recording;
    }

    /** Starts sampling. */
    static CpuSplit start() {
        Recording r = new Recording();
        r.enable(EXECUTION_SAMPLE).withPeriod(PERIOD).withStackTrace();
        r.setToDisk(true);
        r.start();
        return new CpuSplit(r);
    }

    /** Stops sampling and counts the samples. */
    Counts stop() throws IOException {
        recording.stop();
        Path file = Files.createTempFile("tls-cpu-split", ".jfr");
        try {
            recording.dump(file);
            long provider = 0;
            long[] others = new long[Part.values().length];
            try (RecordingFile in = new RecordingFile(file)) {
                while (in.hasMoreEvents()) {
                    RecordedEvent e = in.readEvent();
                    if (!e.getEventType().getName().equals(EXECUTION_SAMPLE)) {
                        continue;
                    }
                    RecordedThread t = e.getThread("sampledThread");
                    String name = t == null ? null : t.getJavaName();
                    if (name != null && name.startsWith(PROVIDER_THREADS)) {
                        provider++;
                    } else {
                        others[Part.of(classes(e.getStackTrace())).ordinal()]++;
                    }
                }
            }
            return new Counts(provider, java.util.Arrays.stream(others).boxed().toList());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static List<String> classes(RecordedStackTrace stack) {
        if (stack == null) {
            return List.of();
        }
        return stack.getFrames().stream().map(RecordedFrame::getMethod).map(m -> m.getType().getName()).toList();
    }

    @Override
    public void close() {
        recording.close();
    }
}
