package io.dilithiumgpu.bench.jmh;

import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Single-operation throughput of the pure-Java core against BouncyCastle's ML-DSA and the JDK's
 * own (provider {@code SUN}, JDK 24+): key generation, signing and verification, one operation
 * per call, for the three ML-DSA sets. No batcher and no backend thread pool: each JMH thread
 * runs the algorithm itself, so {@code -t 1} is one core and {@code -t max} every core.
 *
 * <p>What each {@code impl} runs, all of it hedged FIPS 204 ML-DSA with an empty context on the
 * same fixed 32-byte message, so that like is compared with like:
 *
 * <ul>
 *   <li>{@code core}: {@link Scheme} directly. keygen: 32 fresh random bytes of seed ξ, then
 *       {@code Scheme.keyGen}. sign: μ = H(tr ‖ 0 ‖ 0 ‖ M) with {@link MuHasher#pure} (tr computed
 *       once in setup, as a JCA signer does on {@code initSign}), 32 fresh random bytes of rnd,
 *       then {@code Scheme.sign}. verify: μ the same way, then {@code Scheme.verify}. The key
 *       pair comes from a fixed seed. Randomness: one {@code new SecureRandom()} per thread.</li>
 *   <li>{@code bc}: BouncyCastle's JCA classes ({@code KeyPairGenerator} / {@code Signature}
 *       "ML-DSA-44" and so on, provider instance not registered), hedged with BC's default
 *       randomness: {@code update(M)} + {@code sign()}, {@code update(M)} + {@code verify(σ)},
 *       {@code generateKeyPair()}.</li>
 *   <li>{@code jdk}: the same JCA calls on provider {@code SUN}. Needs JDK 24 or later; on an
 *       older JDK its setup throws and JMH reports that one benchmark as failed and goes on
 *       (exclude it with {@code -p impl=core,bc}).</li>
 * </ul>
 * Signing time varies with the rejection loop; hedged signing gives every call a new loop, so the
 * score averages over it. Verification checks one fixed signature. Each thread has its own keys,
 * signers and randomness ({@link Scope#Thread}); setup checks that a signature verifies.
 *
 * <p>{@code signKeys} and {@code verifyKeys} measure the keys' caches of decoded vectors
 * ({@link PrivateKeyCache}, {@link PublicKeyCache}) on the core alone: each call takes the next of
 * {@code keys} key pairs (made from fixed seeds) in turn, and the next of 8 precomputed μ of that
 * key, and signs deterministically (rnd = 0) or verifies the matching precomputed signature, with
 * {@code cache=off} ({@code Scheme.sign}/{@code verify} as the provider ran them before the caches)
 * or {@code cache=on} (through each key's caches, filled during warm-up). Both modes do the same
 * rejection loops, so the difference is the decoding the cache saves. With {@code keys=1} the
 * per-thread Â of the workspace already hits in both modes; with {@code keys=16} it misses on
 * every call, as it does when many keys interleave.
 *
 * <p>Run (after {@code mvn -B -q -pl bench -am package -DskipTests -Dkernels.skip=true}):
 * <pre>
 * java -cp bench/target/dilithium-gpu-bench.jar org.openjdk.jmh.Main CoreBenchmark -t 1
 * java -cp bench/target/dilithium-gpu-bench.jar org.openjdk.jmh.Main CoreBenchmark -t max
 * # JDK 17 to 23: leave out the JDK's ML-DSA
 * java -cp bench/target/dilithium-gpu-bench.jar org.openjdk.jmh.Main CoreBenchmark -t 1 -p impl=core,bc
 * # quick: -f 1 -wi 2 -w 2s -i 3 -r 2s
 * </pre>
 * Scores are operations per second over all threads.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class CoreBenchmark {
    /** The fixed message every implementation signs and verifies. */
    static final byte[] MESSAGE = new byte[32];
    static final byte[] EMPTY_CONTEXT = new byte[0];

    static {
        for (int i = 0; i < MESSAGE.length; i++) {
            MESSAGE[i] = (byte) i;
        }
    }

    /** One BouncyCastle provider instance for all threads (building one takes a while). */
    static final class Bc {
        static final Provider PROVIDER = new BouncyCastleProvider();
    }

    /** The JDK's ML-DSA provider, or an exception that says why it cannot be had. */
    static Provider jdkProvider(String algorithm) {
        int feature = Runtime.version().feature();
        Provider sun = Security.getProvider("SUN");
        if (feature < 24 || sun == null || sun.getService("Signature", algorithm) == null
                || sun.getService("KeyPairGenerator", algorithm) == null) {
            throw new UnsupportedOperationException("impl=jdk needs the JDK's own " + algorithm
                    + " (provider SUN, JDK 24+); this is JDK " + Runtime.version()
                    + ": run with -p impl=core,bc");
        }
        return sun;
    }

    @State(Scope.Thread)
    public static class Impl {
        @Param({"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"})
        public String set;

        @Param({"core", "bc", "jdk"})
        public String impl;

        ParameterSet params;
        SecureRandom random;
        /** impl is "core" (a field, so that the benchmark methods do not compare strings). */
        boolean core;

        // core
        byte[] seed;
        byte[] publicKey;
        byte[] privateKey;
        byte[] tr;
        byte[] rnd;
        byte[] signature;
        byte[] newPublicKey;
        byte[] newPrivateKey;

        // bc and jdk
        KeyPairGenerator generator;
        Signature signer;
        Signature verifier;
        byte[] jcaSignature;

        @Setup(Level.Trial)
        public void setUp() throws GeneralSecurityException {
            params = ParameterSet.forName(set);
            if (!params.isFips204()) {
                throw new IllegalArgumentException("set must be an ML-DSA set: " + set);
            }
            random = new SecureRandom();
            core = "core".equals(impl);
            switch (impl) {
                case "core" -> setUpCore();
                case "bc" -> setUpJca(Bc.PROVIDER);
                case "jdk" -> setUpJca(jdkProvider(set));
                default -> throw new IllegalArgumentException("impl must be core, bc or jdk: " + impl);
            }
        }

        private void setUpCore() {
            ParameterSet p = params;
            seed = new byte[ParameterSet.SEED_BYTES];
            Arrays.fill(seed, (byte) 42);
            publicKey = new byte[p.publicKeyBytes()];
            privateKey = new byte[p.privateKeyBytes()];
            Scheme.keyGen(p, seed, 0, publicKey, 0, privateKey, 0);
            tr = Scheme.tr(p, publicKey, 0);
            rnd = new byte[p.rndBytes()];
            signature = new byte[p.signatureBytes()];
            newPublicKey = new byte[p.publicKeyBytes()];
            newPrivateKey = new byte[p.privateKeyBytes()];
            coreSign();
            if (!coreVerify()) {
                throw new IllegalStateException("core: own signature does not verify");
            }
        }

        private void setUpJca(Provider provider) throws GeneralSecurityException {
            generator = KeyPairGenerator.getInstance(set, provider);
            KeyPair pair = generator.generateKeyPair();
            signer = Signature.getInstance(set, provider);
            signer.initSign(pair.getPrivate());
            verifier = Signature.getInstance(set, provider);
            verifier.initVerify(pair.getPublic());
            jcaSignature = jcaSign();
            if (!jcaVerify()) {
                throw new IllegalStateException(impl + ": own signature does not verify");
            }
        }

        byte[] coreKeyGen() {
            random.nextBytes(seed);
            Scheme.keyGen(params, seed, 0, newPublicKey, 0, newPrivateKey, 0);
            return newPublicKey;
        }

        byte[] coreSign() {
            byte[] mu = MuHasher.pure(params, tr, EMPTY_CONTEXT).update(MESSAGE).finish();
            random.nextBytes(rnd);
            if (!Scheme.sign(params, privateKey, 0, mu, 0, rnd, 0, signature, 0)) {
                throw new IllegalStateException("core: signing failed");
            }
            return signature;
        }

        boolean coreVerify() {
            byte[] mu = MuHasher.pure(params, tr, EMPTY_CONTEXT).update(MESSAGE).finish();
            return Scheme.verify(params, publicKey, 0, mu, 0, signature, 0);
        }

        byte[] jcaSign() throws GeneralSecurityException {
            signer.update(MESSAGE);
            return signer.sign();
        }

        boolean jcaVerify() throws GeneralSecurityException {
            verifier.update(MESSAGE);
            return verifier.verify(jcaSignature);
        }

    }

    /** Key pairs, μ and signatures for {@code signKeys}/{@code verifyKeys}, with or without caches. */
    @State(Scope.Thread)
    public static class KeyRing {
        static final int MESSAGES = 8;

        @Param({"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"})
        public String set;

        @Param({"1", "16"})
        public int keys;

        @Param({"off", "on"})
        public String cache;

        ParameterSet params;
        byte[][] publicKeys;
        byte[][] privateKeys;
        /** Null entries when cache=off. */
        PrivateKeyCache[] privateCaches;
        PublicKeyCache[] publicCaches;
        /** [key][message]. */
        byte[][][] mus;
        byte[][][] signatures;
        byte[] rnd;
        byte[] signature;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            params = ParameterSet.forName(set);
            ParameterSet p = params;
            boolean on = switch (cache) {
                case "on" -> true;
                case "off" -> false;
                default -> throw new IllegalArgumentException("cache must be on or off: " + cache);
            };
            publicKeys = new byte[keys][p.publicKeyBytes()];
            privateKeys = new byte[keys][p.privateKeyBytes()];
            privateCaches = new PrivateKeyCache[keys];
            publicCaches = new PublicKeyCache[keys];
            mus = new byte[keys][MESSAGES][];
            signatures = new byte[keys][MESSAGES][p.signatureBytes()];
            rnd = new byte[p.rndBytes()];
            signature = new byte[p.signatureBytes()];
            byte[] seed = new byte[ParameterSet.SEED_BYTES];
            for (int k = 0; k < keys; k++) {
                Arrays.fill(seed, (byte) k);
                Scheme.keyGen(p, seed, 0, publicKeys[k], 0, privateKeys[k], 0);
                if (on) {
                    privateCaches[k] = new PrivateKeyCache(p);
                    publicCaches[k] = new PublicKeyCache(p);
                }
                byte[] tr = Scheme.tr(p, publicKeys[k], 0);
                for (int m = 0; m < MESSAGES; m++) {
                    mus[k][m] = MuHasher.pure(p, tr, EMPTY_CONTEXT).update(new byte[] {(byte) m}).finish();
                    byte[] rndM = Scheme.deterministicRnd(p, privateKeys[k], 0, mus[k][m], 0);
                    if (!Scheme.sign(p, privateKeys[k], 0, mus[k][m], 0, rndM, 0, signatures[k][m], 0)
                            || !Scheme.verify(p, publicKeys[k], 0, mus[k][m], 0, signatures[k][m], 0)) {
                        throw new IllegalStateException("core: key " + k + " does not sign and verify");
                    }
                }
            }
        }

        byte[] sign() {
            int i = next++;
            int k = i % keys;
            int m = (i / keys) % MESSAGES;
            if (!Scheme.sign(params, privateKeys[k], 0, privateCaches[k], mus[k][m], 0, rnd, 0, signature, 0)) {
                throw new IllegalStateException("core: signing failed");
            }
            return signature;
        }

        boolean verify() {
            int i = next++;
            int k = i % keys;
            int m = (i / keys) % MESSAGES;
            return Scheme.verify(params, publicKeys[k], 0, publicCaches[k], mus[k][m], 0, signatures[k][m], 0);
        }
    }

    @Benchmark
    public byte[] signKeys(KeyRing s) {
        return s.sign();
    }

    @Benchmark
    public boolean verifyKeys(KeyRing s) {
        if (!s.verify()) {
            throw new IllegalStateException("core: signature does not verify");
        }
        return true;
    }

    @Benchmark
    public Object keygen(Impl s) {
        return s.core ? s.coreKeyGen() : s.generator.generateKeyPair();
    }

    @Benchmark
    public byte[] sign(Impl s) throws GeneralSecurityException {
        return s.core ? s.coreSign() : s.jcaSign();
    }

    @Benchmark
    public boolean verify(Impl s) throws GeneralSecurityException {
        boolean ok = s.core ? s.coreVerify() : s.jcaVerify();
        if (!ok) {
            throw new IllegalStateException(s.impl + ": signature does not verify");
        }
        return ok;
    }
}
