package io.dilithiumgpu.bench;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.batch.Batcher;
import io.dilithiumgpu.batch.BatcherMXBean;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.spec.MLDSAParameterSpec;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import javax.security.auth.DestroyFailedException;
import javax.security.auth.Destroyable;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code demo}: the provider through plain JCA calls, for each of the six sets: generate a key
 * pair, round-trip both keys through {@link KeyFactory}, sign (ML-DSA with a context), verify,
 * and check that a changed message (and, for ML-DSA, another context) is rejected; then many
 * concurrent callers sign and verify for a short time to show the batched throughput.
 */
@Command(name = "demo",
        description = "keygen, KeyFactory, sign, verify through plain JCA for the six sets, then concurrent ops/s")
public final class DemoCli extends Subcommand {
    static final int DEFAULT_CALLERS = 256;
    static final double DEFAULT_SECONDS = 1.0;
    /** Unmeasured time at the start of each measurement, while the callers start up. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Signers whose last signature is verified with the CPU core after each measurement. */
    private static final int CHECKED_SIGNERS = 16;
    private static final byte[] CONTEXT = "dilithium-gpu demo".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MESSAGE = "The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.US_ASCII);

    @Option(names = "--sets", paramLabel = "LIST", converter = OptionTypes.Sets.class,
            description = "parameter sets (default all six)")
    OptionTypes.SetList sets = OptionTypes.SetList.ALL;

    @Option(names = "--callers", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "concurrent callers for the ops/s part (default ${DEFAULT-VALUE})")
    int callers = DEFAULT_CALLERS;

    @Option(names = "--seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "measured time per operation and set (default ${DEFAULT-VALUE})")
    double seconds = DEFAULT_SECONDS;

    @Option(names = "--out", paramLabel = "DIR", description = "also write demo.csv there")
    Path outDir;

    /** What the JCA calls did for one set. */
    record Outcome(ParameterSet set, int publicKeyBytes, int x509Bytes, int pkcs8Bytes, int signatureBytes,
                   boolean keysRoundTrip, boolean verified, boolean tamperedRejected, Boolean otherContextRejected) {
        boolean correct() {
            return keysRoundTrip && verified && tamperedRejected && !Boolean.FALSE.equals(otherContextRejected);
        }
    }

    /** Throughput of one set with many concurrent callers. */
    record Speed(ParameterSet set, double signOps, double verifyOps) {}

    @Override
    int run(PrintStream out) throws Exception {
        List<ParameterSet> sets = this.sets.sets();

        Provider provider = new DilithiumGpuProvider();
        Security.addProvider(provider);
        out.println("Security.addProvider(new DilithiumGpuProvider()): " + provider.getName() + " "
                + provider.getVersionStr() + " (" + provider.getInfo() + ")");
        String selection = SharedBatcher.openAndExplain();
        Batcher batcher = Engines.sharedBatcher();
        out.println("active backend: " + batcher.metrics().getBackend());
        out.println("why: " + selection);
        out.println("configuration: " + batcher.config());
        out.println(Host.describe());
        out.println();

        SplittableRandom random = new SplittableRandom();
        long measure = (long) (seconds * 1e9);
        long warmup = Math.max(TimeUnit.MILLISECONDS.toNanos(300), measure / 2);
        List<Outcome> outcomes = new ArrayList<>();
        Map<ParameterSet, JcaLoad> loads = new LinkedHashMap<>();
        List<Speed> speeds = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<KeyPair> pairs = new ArrayList<>();
        try {
            for (ParameterSet p : sets) {
                KeyPair keys = KeyPairGenerator.getInstance(p.algorithmName(), provider).generateKeyPair();
                pairs.add(keys);
                Outcome o = exercise(provider, p, keys);
                outcomes.add(o);
                if (o.correct()) {
                    loads.put(p, new JcaLoad(provider, p, keys, p.isFips204() ? CONTEXT : new byte[0], random));
                } else {
                    problems.add(p + ": a JCA result was wrong (see the table); no speed measured");
                }
            }
            out.println("What the JCA calls did (ML-DSA signatures carry the context \""
                    + new String(CONTEXT, StandardCharsets.US_ASCII) + "\")");
            out.print(doneTable(outcomes).render());
            out.println();

            JcaLoad.warmUp(loads.values(), JcaLoad.Style.REUSE, callers, warmup);
            for (Map.Entry<ParameterSet, JcaLoad> e : loads.entrySet()) {
                JcaLoad load = e.getValue();
                try {
                    Callers.ClosedLoopResult<JcaLoad.Signer> signing =
                            Callers.closedLoop(callers, load.signers(JcaLoad.Style.REUSE), SETTLE_NANOS, measure);
                    load.checkSigners(signing.callers(), CHECKED_SIGNERS);
                    Callers.ClosedLoopResult<JcaLoad.Verifier> verifying =
                            Callers.closedLoop(callers, load.verifiers(JcaLoad.Style.REUSE), SETTLE_NANOS, measure);
                    speeds.add(new Speed(e.getKey(), signing.opsPerSecond(), verifying.opsPerSecond()));
                } catch (WrongResultException wrong) {
                    problems.add("REFUSED " + e.getKey() + ": " + wrong.getMessage());
                }
            }
        } finally {
            for (KeyPair keys : pairs) {
                destroy(keys.getPrivate());
            }
        }

        out.println("How fast: " + callers + " concurrent callers on " + Callers.threadKind() + ", each with its own"
                + " Signature, " + seconds + " s per operation after a warm-up of every set, "
                + JcaLoad.MESSAGE_BYTES + "-byte messages");
        out.print(speedTable(speeds).render());
        BatcherMXBean m = batcher.metrics();
        out.println();
        out.printf("batcher (JMX %s): %s operations in %s batches, mean batch %.1f, largest %d, CPU fallbacks %d%n",
                Engines.MBEAN_NAME, Format.count(m.getOperationCount()), Format.count(m.getBatchCount()),
                m.getMeanBatchSize(), m.getMaxObservedBatchSize(), m.getFallbackCount());
        problems.forEach(out::println);
        if (outDir != null) {
            Path file = outDir.resolve("demo.csv");
            csv(outcomes, speeds).write(file);
            out.println("wrote " + file);
        }
        return problems.isEmpty() ? Cli.OK : Cli.FAILED;
    }

    /** Encodes, decodes, signs and verifies once through JCA; returns what happened. */
    private static Outcome exercise(Provider provider, ParameterSet p, KeyPair keys) throws Exception {
        String name = p.algorithmName();
        KeyFactory kf = KeyFactory.getInstance(name, provider);
        byte[] x509 = keys.getPublic().getEncoded();
        byte[] pkcs8 = keys.getPrivate().getEncoded();
        PublicKey publicKey = kf.generatePublic(new X509EncodedKeySpec(x509));
        PrivateKey privateKey = kf.generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        Arrays.fill(pkcs8, (byte) 0);
        try {
            boolean roundTrip = publicKey.equals(keys.getPublic()) && privateKey.equals(keys.getPrivate());

            Signature signer = signature(provider, p, CONTEXT);
            signer.initSign(privateKey);
            signer.update(MESSAGE);
            byte[] sig = signer.sign();

            boolean verified = verify(provider, p, CONTEXT, publicKey, MESSAGE, sig);
            byte[] tampered = MESSAGE.clone();
            tampered[0] ^= 1;
            boolean tamperedRejected = !verify(provider, p, CONTEXT, publicKey, tampered, sig);
            Boolean otherContextRejected = p.isFips204()
                    ? !verify(provider, p, "another context".getBytes(StandardCharsets.US_ASCII), publicKey, MESSAGE, sig)
                    : null;
            return new Outcome(p, p.publicKeyBytes(), x509.length, pkcs8.length, sig.length, roundTrip, verified,
                    tamperedRejected, otherContextRejected);
        } finally {
            destroy(privateKey);
        }
    }

    private static Signature signature(Provider provider, ParameterSet p, byte[] context) throws Exception {
        Signature s = Signature.getInstance(p.algorithmName(), provider);
        if (p.isFips204()) {
            s.setParameter(MLDSAParameterSpec.builder().context(context).build());
        }
        return s;
    }

    private static boolean verify(Provider provider, ParameterSet p, byte[] context, PublicKey key, byte[] message,
                                  byte[] sig) throws Exception {
        Signature v = signature(provider, p, context);
        v.initVerify(key);
        v.update(message);
        return v.verify(sig);
    }

    static TextTable doneTable(List<Outcome> outcomes) {
        TextTable t = new TextTable("set", "pk", "X.509", "PKCS#8", "signature", "KeyFactory", "verify",
                "changed message", "other context");
        for (Outcome o : outcomes) {
            t.row(o.set().algorithmName(), bytes(o.publicKeyBytes()), bytes(o.x509Bytes()), bytes(o.pkcs8Bytes()),
                    bytes(o.signatureBytes()), o.keysRoundTrip() ? "round-trips" : "DIFFERS",
                    o.verified() ? "valid" : "INVALID", o.tamperedRejected() ? "rejected" : "ACCEPTED",
                    o.otherContextRejected() == null ? "—" : o.otherContextRejected() ? "rejected" : "ACCEPTED");
        }
        return t;
    }

    private static String bytes(int n) {
        return Format.count(n) + " B";
    }

    static TextTable speedTable(List<Speed> speeds) {
        TextTable t = new TextTable("set", "sign ops/s", "verify ops/s");
        for (Speed s : speeds) {
            t.row(s.set().algorithmName(), Format.rate(s.signOps()), Format.rate(s.verifyOps()));
        }
        return t;
    }

    /** One row per set; the speed columns are empty for a set whose speed was not measured. */
    static Csv csv(List<Outcome> outcomes, List<Speed> speeds) {
        Csv csv = new Csv("set", "public_key_bytes", "x509_bytes", "pkcs8_bytes", "signature_bytes", "keys_round_trip",
                "verified", "changed_message_rejected", "other_context_rejected", "sign_ops_per_s", "verify_ops_per_s");
        for (Outcome o : outcomes) {
            Speed s = speeds.stream().filter(x -> x.set() == o.set()).findFirst().orElse(null);
            csv.row(o.set().algorithmName(), o.publicKeyBytes(), o.x509Bytes(), o.pkcs8Bytes(), o.signatureBytes(),
                    o.keysRoundTrip(), o.verified(), o.tamperedRejected(),
                    o.otherContextRejected() == null ? "" : o.otherContextRejected(),
                    s == null ? "" : s.signOps(), s == null ? "" : s.verifyOps());
        }
        return csv;
    }

    private static void destroy(Object key) {
        if (key instanceof Destroyable d && !d.isDestroyed()) {
            try {
                d.destroy();
            } catch (DestroyFailedException e) {
                throw new IllegalStateException("private key could not be destroyed", e);
            }
        }
    }
}
