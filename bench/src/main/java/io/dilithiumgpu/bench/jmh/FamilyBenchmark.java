package io.dilithiumgpu.bench.jmh;

import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;
import io.dilithiumgpu.core.Scheme;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.CryptoException;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.pqc.crypto.crystals.dilithium.DilithiumKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.crystals.dilithium.DilithiumKeyPairGenerator;
import org.bouncycastle.pqc.crypto.crystals.dilithium.DilithiumParameters;
import org.bouncycastle.pqc.crypto.crystals.dilithium.DilithiumSigner;
import org.bouncycastle.pqc.crypto.mldsa.HashMLDSASigner;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAKeyPairGenerator;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAParameters;
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

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Single-operation throughput of the pure-Java core against BouncyCastle for the two families
 * {@link CoreBenchmark} leaves out: CRYSTALS-Dilithium round 3.1 and HashML-DSA with SHA-512.
 * BouncyCastle's JCA no longer offers round 3.1, so both sides run at their lowest public level,
 * one operation per call on the JMH thread.
 *
 * <ul>
 *   <li>{@code Dilithium2/3/5}, deterministic signing as the round 3.1 reference does.
 *       {@code core}: μ = H(tr ‖ M) with {@link MuHasher#pure}, ρ′ = H(K ‖ μ) with
 *       {@link Scheme#deterministicRnd}, then {@link Scheme#sign}; verify: μ, then
 *       {@link Scheme#verify}. {@code bc}: {@code DilithiumSigner} without randomness. Each
 *       signature is of a new 32-byte message (a counter in its first 8 bytes, the same sequence
 *       for both), so that the score averages over the rejection loop as hedged signing does.</li>
 *   <li>{@code HashML-DSA-44/65/87} (SHA-512, empty context), hedged signing. {@code core}: SHA-512
 *       of M ({@link PreHash#digest}), μ with {@link MuHasher#preHashed}, 32 random bytes of rnd,
 *       then {@code Scheme.sign}; verify likewise. {@code bc}: {@code HashMLDSASigner} with a
 *       {@link SecureRandom}.</li>
 * </ul>
 * Keys come from a fixed seed (core) or BouncyCastle's generator; tr is computed once in setup,
 * as a JCA signer does on {@code initSign}. Verification checks one fixed signature; setup checks
 * that it verifies.
 *
 * <p>Run (after {@code mvn -B -q -pl bench -am package -DskipTests -Dkernels.skip=true}):
 * <pre>
 * java -cp bench/target/dilithium-gpu-bench.jar org.openjdk.jmh.Main FamilyBenchmark -t 1
 * </pre>
 * Scores are operations per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class FamilyBenchmark {
    @State(Scope.Thread)
    public static class Impl {
        @Param({"Dilithium2", "Dilithium3", "Dilithium5", "HashML-DSA-44", "HashML-DSA-65", "HashML-DSA-87"})
        public String set;

        @Param({"core", "bc"})
        public String impl;

        boolean core;
        boolean hashed;
        /** The message signed next (round 3.1: a counter in its first 8 bytes). */
        final byte[] message = CoreBenchmark.MESSAGE.clone();
        long counter;
        /** The message of the signature that verify checks (signed in setup). */
        byte[] signedMessage;
        ParameterSet params;
        SecureRandom random;

        // core
        byte[] publicKey;
        byte[] privateKey;
        byte[] tr;
        byte[] rnd;
        byte[] signature;

        // bc
        DilithiumSigner dilithiumSigner;
        DilithiumSigner dilithiumVerifier;
        HashMLDSASigner hashSigner;
        HashMLDSASigner hashVerifier;
        byte[] bcSignature;

        @Setup(Level.Trial)
        public void setUp() throws CryptoException {
            hashed = set.startsWith("HashML-DSA-");
            params = ParameterSet.forName(hashed ? set.substring("Hash".length()) : set);
            random = new SecureRandom();
            core = switch (impl) {
                case "core" -> true;
                case "bc" -> false;
                default -> throw new IllegalArgumentException("impl must be core or bc: " + impl);
            };
            if (core) {
                setUpCore();
            } else if (hashed) {
                setUpBcHash();
            } else {
                setUpBcDilithium();
            }
            signedMessage = message.clone();
            if (!verify()) {
                throw new IllegalStateException(impl + " " + set + ": own signature does not verify");
            }
        }

        private void setUpCore() {
            ParameterSet p = params;
            byte[] seed = new byte[ParameterSet.SEED_BYTES];
            Arrays.fill(seed, (byte) 42);
            publicKey = new byte[p.publicKeyBytes()];
            privateKey = new byte[p.privateKeyBytes()];
            Scheme.keyGen(p, seed, 0, publicKey, 0, privateKey, 0);
            tr = Scheme.tr(p, publicKey, 0);
            rnd = new byte[p.rndBytes()];
            signature = new byte[p.signatureBytes()];
            coreSign();
        }

        private void setUpBcDilithium() {
            DilithiumParameters p = switch (set) {
                case "Dilithium2" -> DilithiumParameters.dilithium2;
                case "Dilithium3" -> DilithiumParameters.dilithium3;
                case "Dilithium5" -> DilithiumParameters.dilithium5;
                default -> throw new IllegalArgumentException("not a round 3.1 set: " + set);
            };
            DilithiumKeyPairGenerator generator = new DilithiumKeyPairGenerator();
            generator.init(new DilithiumKeyGenerationParameters(random, p));
            AsymmetricCipherKeyPair pair = generator.generateKeyPair();
            dilithiumSigner = new DilithiumSigner();
            dilithiumSigner.init(true, pair.getPrivate());
            dilithiumVerifier = new DilithiumSigner();
            dilithiumVerifier.init(false, pair.getPublic());
            bcSignature = dilithiumSigner.generateSignature(message);
        }

        private void setUpBcHash() throws CryptoException {
            MLDSAParameters p = switch (params.algorithmName()) {
                case "ML-DSA-44" -> MLDSAParameters.ml_dsa_44_with_sha512;
                case "ML-DSA-65" -> MLDSAParameters.ml_dsa_65_with_sha512;
                case "ML-DSA-87" -> MLDSAParameters.ml_dsa_87_with_sha512;
                default -> throw new IllegalArgumentException("not a HashML-DSA set: " + set);
            };
            MLDSAKeyPairGenerator generator = new MLDSAKeyPairGenerator();
            generator.init(new MLDSAKeyGenerationParameters(random, p));
            AsymmetricCipherKeyPair pair = generator.generateKeyPair();
            hashSigner = new HashMLDSASigner();
            hashSigner.init(true, new ParametersWithRandom(pair.getPrivate(), random));
            hashVerifier = new HashMLDSASigner();
            hashVerifier.init(false, pair.getPublic());
            bcSignature = bcSign();
        }

        private byte[] mu(byte[] m) {
            if (hashed) {
                return MuHasher.preHashed(params, tr, CoreBenchmark.EMPTY_CONTEXT, PreHash.SHA2_512,
                        PreHash.SHA2_512.digest(m));
            }
            return MuHasher.pure(params, tr, CoreBenchmark.EMPTY_CONTEXT).update(m).finish();
        }

        /** Round 3.1 signs deterministically: a new message per signature. */
        private void nextMessage() {
            if (!hashed) {
                counter++;
                for (int i = 0; i < 8; i++) {
                    message[i] = (byte) (counter >>> (8 * i));
                }
            }
        }

        byte[] coreSign() {
            nextMessage();
            byte[] mu = mu(message);
            byte[] r;
            if (hashed) {
                random.nextBytes(rnd);
                r = rnd;
            } else {
                r = Scheme.deterministicRnd(params, privateKey, 0, mu, 0);
            }
            if (!Scheme.sign(params, privateKey, 0, mu, 0, r, 0, signature, 0)) {
                throw new IllegalStateException("core: signing failed");
            }
            return signature;
        }

        byte[] bcSign() throws CryptoException {
            nextMessage();
            if (hashed) {
                hashSigner.update(message, 0, message.length);
                return hashSigner.generateSignature();
            }
            return dilithiumSigner.generateSignature(message);
        }

        boolean verify() {
            if (core) {
                return Scheme.verify(params, publicKey, 0, mu(signedMessage), 0, signature, 0);
            }
            if (hashed) {
                hashVerifier.update(signedMessage, 0, signedMessage.length);
                return hashVerifier.verifySignature(bcSignature);
            }
            return dilithiumVerifier.verifySignature(signedMessage, bcSignature);
        }
    }

    @Benchmark
    public byte[] sign(Impl s) throws CryptoException {
        return s.core ? s.coreSign() : s.bcSign();
    }

    @Benchmark
    public boolean verify(Impl s) {
        if (!s.verify()) {
            throw new IllegalStateException(s.impl + " " + s.set + ": signature does not verify");
        }
        return true;
    }
}
