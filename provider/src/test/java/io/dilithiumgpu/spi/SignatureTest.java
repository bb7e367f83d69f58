package io.dilithiumgpu.spi;

import static io.dilithiumgpu.ProviderTestSupport.ALL_SETS;
import static io.dilithiumgpu.ProviderTestSupport.ML_DSA_SETS;
import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static io.dilithiumgpu.ProviderTestSupport.sign;
import static io.dilithiumgpu.ProviderTestSupport.verify;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.ProviderTestSupport.ScriptedRandom;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SignatureException;
import java.security.Signature;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;

@Timeout(120)
class SignatureTest {
    private static final byte[] MESSAGE = "the quick brown fox".getBytes(StandardCharsets.UTF_8);

    static List<String> allSets() { return ALL_SETS; }

    static List<String> mlDsaSets() { return ML_DSA_SETS; }

    @ParameterizedTest
    @MethodSource("allSets")
    void signsAndVerifiesUnderSetAndGenericNames(String set) throws Exception {
        KeyPair kp = keyPair(set);
        String generic = set.startsWith("ML-DSA") ? "ML-DSA" : "Dilithium";
        byte[] sig = sign(set, kp.getPrivate(), null, MESSAGE);
        assertEquals(ParameterSet.forName(set).signatureBytes(), sig.length);
        assertTrue(verify(set, kp.getPublic(), null, MESSAGE, sig));
        assertTrue(verify(generic, kp.getPublic(), null, MESSAGE, sig));
        assertTrue(verify(generic, kp.getPublic(), null, MESSAGE, sign(generic, kp.getPrivate(), null, MESSAGE)));
        byte[] tampered = MESSAGE.clone();
        tampered[0] ^= 1;
        assertFalse(verify(set, kp.getPublic(), null, tampered, sig));
    }

    @ParameterizedTest
    @MethodSource("allSets")
    void objectIsReusableAfterSignAndVerify(String set) throws Exception {
        KeyPair kp = keyPair(set);
        Signature s = Signature.getInstance(set, PROVIDER);
        s.setParameter(MLDSAParameterSpec.builder().deterministic(true).build());
        s.initSign(kp.getPrivate());
        s.update(MESSAGE);
        byte[] first = s.sign();
        s.update(MESSAGE, 0, 4);
        s.update(MESSAGE, 4, MESSAGE.length - 4);
        assertArrayEquals(first, s.sign(), "deterministic signature of the same message, same object");

        Signature v = Signature.getInstance(set, PROVIDER);
        v.initVerify(kp.getPublic());
        v.update(MESSAGE);
        assertTrue(v.verify(first));
        v.update(MESSAGE);
        assertFalse(v.verify(new byte[3]));
        v.update(MESSAGE);
        assertTrue(v.verify(first), "a failed verification leaves the object ready for the next");
    }

    @ParameterizedTest
    @MethodSource("mlDsaSets")
    void mlDsaDrawsOne32ByteRndPerSignature(String set) throws Exception {
        KeyPair kp = keyPair(set);
        ScriptedRandom random = ScriptedRandom.recording();
        Signature s = Signature.getInstance(set, PROVIDER);
        s.initSign(kp.getPrivate(), random);
        s.update(MESSAGE);
        byte[] a = s.sign();
        s.update(MESSAGE);
        byte[] b = s.sign();
        assertEquals(List.of(32, 32), random.requests());
        assertFalse(Arrays.equals(a, b), "hedged signatures differ");
        assertTrue(verify(set, kp.getPublic(), null, MESSAGE, a));
        assertTrue(verify(set, kp.getPublic(), null, MESSAGE, b));
    }

    @ParameterizedTest
    @MethodSource("mlDsaSets")
    void mlDsaWithoutRandomIsHedgedAndWithZeroRndIsDeterministic(String set) throws Exception {
        KeyPair kp = keyPair(set);
        assertFalse(Arrays.equals(sign(set, kp.getPrivate(), null, MESSAGE), sign(set, kp.getPrivate(), null, MESSAGE)));

        MLDSAParameterSpec deterministic = MLDSAParameterSpec.builder().deterministic(true).build();
        byte[] d = sign(set, kp.getPrivate(), deterministic, MESSAGE);
        assertArrayEquals(d, sign(set, kp.getPrivate(), deterministic, MESSAGE));

        ScriptedRandom zero = ScriptedRandom.of(new byte[32]);
        Signature s = Signature.getInstance(set, PROVIDER);
        s.initSign(kp.getPrivate(), zero);
        s.update(MESSAGE);
        assertArrayEquals(d, s.sign(), "deterministic signing is rnd = 0^32 (FIPS 204 §3.4)");
        zero.assertExhausted();

        ScriptedRandom unused = ScriptedRandom.of();
        s.setParameter(deterministic);
        s.initSign(kp.getPrivate(), unused);
        s.update(MESSAGE);
        assertArrayEquals(d, s.sign(), "the deterministic option overrides initSign's random");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dilithium2", "Dilithium3", "Dilithium5"})
    void roundThreeIsDeterministicUnlessGivenRandomThenDraws64BytesOfRhoPrime(String set) throws Exception {
        KeyPair kp = keyPair(set);
        byte[] d = sign(set, kp.getPrivate(), null, MESSAGE);
        assertArrayEquals(d, sign(set, kp.getPrivate(), null, MESSAGE));

        ScriptedRandom random = ScriptedRandom.recording();
        Signature s = Signature.getInstance(set, PROVIDER);
        s.initSign(kp.getPrivate(), random);
        s.update(MESSAGE);
        byte[] r = s.sign();
        assertEquals(List.of(64), random.requests());
        assertFalse(Arrays.equals(d, r));
        assertTrue(verify(set, kp.getPublic(), null, MESSAGE, r));
    }

    /**
     * The 64 bytes drawn for round 3.1 are ρ′ itself, unchanged: scripted to be the deterministic
     * ρ′ = SHAKE256(K ‖ μ, 64), with μ = SHAKE256(tr ‖ M, 64), they give the deterministic
     * signature; other bytes give another signature that verifies, the same one each time.
     */
    @ParameterizedTest
    @ValueSource(strings = {"Dilithium2", "Dilithium3", "Dilithium5"})
    void roundThreeUsesTheDrawnBytesAsRhoPrimeUnchanged(String set) throws Exception {
        KeyPair kp = keyPair(set);
        byte[] sk = ((DilithiumPrivateKey) kp.getPrivate()).getExpandedKey();
        byte[] tr = ((DilithiumPublicKey) kp.getPublic()).getTr();
        assertArrayEquals(Arrays.copyOfRange(sk, 64, 64 + tr.length), tr);
        byte[] mu = shake256(64, tr, MESSAGE);
        byte[] rhoPrime = shake256(64, Arrays.copyOfRange(sk, 32, 64), mu);
        byte[] deterministic = sign(set, kp.getPrivate(), null, MESSAGE);

        assertArrayEquals(deterministic, signWith(set, kp.getPrivate(), ScriptedRandom.of(rhoPrime)),
                "drawing the deterministic rho' gives the deterministic signature");

        byte[] other = rhoPrime.clone();
        other[63] ^= 1;
        byte[] r = signWith(set, kp.getPrivate(), ScriptedRandom.of(other));
        assertFalse(Arrays.equals(deterministic, r), "another rho' gives another signature");
        assertTrue(verify(set, kp.getPublic(), null, MESSAGE, r));
        assertArrayEquals(r, signWith(set, kp.getPrivate(), ScriptedRandom.of(other)),
                "the signature is a function of the drawn rho'");
    }

    private static byte[] signWith(String set, PrivateKey key, ScriptedRandom random) throws Exception {
        Signature s = Signature.getInstance(set, PROVIDER);
        s.initSign(key, random);
        s.update(MESSAGE);
        byte[] sig = s.sign();
        random.assertExhausted();
        return sig;
    }

    private static byte[] shake256(int outLength, byte[]... inputs) {
        SHAKEDigest shake = new SHAKEDigest(256);
        for (byte[] in : inputs) {
            shake.update(in, 0, in.length);
        }
        byte[] out = new byte[outLength];
        shake.doFinal(out, 0, outLength);
        return out;
    }

    @ParameterizedTest
    @MethodSource("mlDsaSets")
    void contextsBindTheSignature(String set) throws Exception {
        KeyPair kp = keyPair(set);
        MLDSAParameterSpec ctx = MLDSAParameterSpec.builder().context("app-v1".getBytes(StandardCharsets.UTF_8)).build();
        MLDSAParameterSpec other = MLDSAParameterSpec.builder().context("app-v2".getBytes(StandardCharsets.UTF_8)).build();
        MLDSAParameterSpec longest = MLDSAParameterSpec.builder().context(new byte[255]).build();
        byte[] sig = sign(set, kp.getPrivate(), ctx, MESSAGE);
        assertTrue(verify(set, kp.getPublic(), ctx, MESSAGE, sig));
        assertFalse(verify(set, kp.getPublic(), other, MESSAGE, sig));
        assertFalse(verify(set, kp.getPublic(), null, MESSAGE, sig));
        assertTrue(verify(set, kp.getPublic(), longest, MESSAGE, sign(set, kp.getPrivate(), longest, MESSAGE)));
    }

    @ParameterizedTest
    @MethodSource("mlDsaSets")
    void externalMuMatchesPureSigning(String set) throws Exception {
        KeyPair kp = keyPair(set);
        byte[] ctx = {1, 2, 3};
        byte[] mu = independentMu(((DilithiumPublicKey) kp.getPublic()).getTr(), ctx, MESSAGE);
        MLDSAParameterSpec pure = MLDSAParameterSpec.builder().context(ctx).deterministic(true).build();
        MLDSAParameterSpec external = pure.toBuilder().context(null).externalMu(true).build();

        byte[] viaMu = sign(set, kp.getPrivate(), external, mu);
        assertArrayEquals(sign(set, kp.getPrivate(), pure, MESSAGE), viaMu);
        assertTrue(verify(set, kp.getPublic(), pure, MESSAGE, viaMu));
        assertTrue(verify(set, kp.getPublic(), external, mu, viaMu));

        Signature s = Signature.getInstance(set, PROVIDER);
        s.setParameter(external);
        s.initSign(kp.getPrivate());
        s.update(mu, 0, 63);
        SignatureException shortMu = assertThrows(SignatureException.class, s::sign);
        assertTrue(shortMu.getMessage().contains("64 bytes"), shortMu.getMessage());
        s.update(mu);
        assertThrows(SignatureException.class, () -> s.update(new byte[1]));
        assertThrows(SignatureException.class, s::sign);
        s.update(mu);
        assertArrayEquals(viaMu, s.sign(), "usable again after a refused external mu");
    }

    /** μ = SHAKE256(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ M, 64), FIPS 204 Algorithm 2 step 10 and Algorithm 7 step 6. */
    private static byte[] independentMu(byte[] tr, byte[] ctx, byte[] message) {
        SHAKEDigest shake = new SHAKEDigest(256);
        shake.update(tr, 0, tr.length);
        shake.update((byte) 0);
        shake.update((byte) ctx.length);
        shake.update(ctx, 0, ctx.length);
        shake.update(message, 0, message.length);
        byte[] mu = new byte[64];
        shake.doFinal(mu, 0, 64);
        return mu;
    }

    @ParameterizedTest
    @MethodSource("mlDsaSets")
    void hashMlDsaIsDistinctFromPureAndHonoursThePreHash(String set) throws Exception {
        KeyPair kp = keyPair(set);
        String hashName = set + "-WITH-SHA512";
        byte[] sig = sign(hashName, kp.getPrivate(), null, MESSAGE);
        assertTrue(verify(hashName, kp.getPublic(), null, MESSAGE, sig));
        assertTrue(verify("HASH-ML-DSA", kp.getPublic(), null, MESSAGE, sig));
        assertFalse(verify(set, kp.getPublic(), null, MESSAGE, sig));

        MLDSAParameterSpec sha3 = MLDSAParameterSpec.builder().preHash("SHA3-256").context(new byte[] {9}).build();
        byte[] sig3 = sign("HASH-ML-DSA", kp.getPrivate(), sha3, MESSAGE);
        assertTrue(verify("HASH-ML-DSA", kp.getPublic(), sha3, MESSAGE, sig3));
        assertFalse(verify("HASH-ML-DSA", kp.getPublic(), sha3.toBuilder().preHash(null).build(), MESSAGE, sig3));
        assertFalse(verify(hashName, kp.getPublic(), sha3.toBuilder().preHash(null).build(), MESSAGE, sig3));
    }

    static List<Arguments> fixedHashMlDsaNames() {
        return List.of(Arguments.of("ML-DSA-44-WITH-SHA512", "ML-DSA-44"),
                Arguments.of("ML-DSA-65-WITH-SHA512", "ML-DSA-65"), Arguments.of("ML-DSA-87-WITH-SHA512", "ML-DSA-87"),
                Arguments.of("HASH-ML-DSA-44", "ML-DSA-44"), Arguments.of("2.16.840.1.101.3.4.3.33", "ML-DSA-65"),
                Arguments.of("OID.2.16.840.1.101.3.4.3.34", "ML-DSA-87"));
    }

    /** A name that says SHA-512 never signs with another pre-hash; HASH-ML-DSA takes any. */
    @ParameterizedTest
    @MethodSource("fixedHashMlDsaNames")
    void fixedHashMlDsaNamesRefuseAnyPreHashButSha512(String name, String set) throws Exception {
        Signature s = Signature.getInstance(name, PROVIDER);
        for (String other : List.of("SHA3-256", "SHA2-256", "SHA2-512/256", "SHAKE-256")) {
            InvalidAlgorithmParameterException e = assertThrows(InvalidAlgorithmParameterException.class,
                    () -> s.setParameter(MLDSAParameterSpec.builder().preHash(other).build()), other);
            assertTrue(e.getMessage().contains(other) && e.getMessage().contains("SHA2-512")
                    && e.getMessage().contains("HASH-ML-DSA"), e.getMessage());
            Signature.getInstance("HASH-ML-DSA", PROVIDER).setParameter(MLDSAParameterSpec.builder().preHash(other).build());
        }
        assertNull(s.getParameters(), "a refused pre-hash leaves no parameters set");

        KeyPair kp = keyPair(set);
        MLDSAParameterSpec sha512 = MLDSAParameterSpec.builder().preHash("SHA2-512").deterministic(true).build();
        s.setParameter(sha512);
        s.initSign(kp.getPrivate());
        s.update(MESSAGE);
        byte[] sig = s.sign();
        assertArrayEquals(sign("HASH-ML-DSA", kp.getPrivate(), sha512.toBuilder().preHash(null).build(), MESSAGE), sig,
                "naming SHA2-512 explicitly is the service's own pre-hash");
        assertTrue(verify(name, kp.getPublic(), null, MESSAGE, sig));
    }

    @Test
    void getParametersReportsWhatWasSet() throws Exception {
        Signature s = Signature.getInstance("ML-DSA-44-WITH-SHA512", PROVIDER);
        assertNull(s.getParameters(), "no parameters were set");
        MLDSAParameterSpec spec = MLDSAParameterSpec.builder().context(new byte[] {7, 7}).deterministic(true).build();
        s.setParameter(spec);
        AlgorithmParameters params = s.getParameters();
        assertNotNull(params);
        assertEquals("ML-DSA", params.getAlgorithm());
        assertEquals(PROVIDER, params.getProvider());
        MLDSAParameterSpec got = params.getParameterSpec(MLDSAParameterSpec.class);
        assertEquals(spec.toBuilder().preHash("SHA2-512").build(), got);
        s.setParameter(null);
        assertNull(s.getParameters());
    }

    @Test
    void foreignAndMismatchedKeysAreInvalidKeys() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(1024);
        KeyPair rsaPair = rsa.generateKeyPair();
        KeyPair mlDsa65 = keyPair("ML-DSA-65");
        KeyPair dilithium2 = keyPair("Dilithium2");

        Signature s = Signature.getInstance("ML-DSA-44", PROVIDER);
        assertThrows(InvalidKeyException.class, () -> s.initVerify(rsaPair.getPublic()));
        assertThrows(InvalidKeyException.class, () -> s.initSign(rsaPair.getPrivate()));
        InvalidKeyException wrongSet = assertThrows(InvalidKeyException.class, () -> s.initSign(mlDsa65.getPrivate()));
        assertTrue(wrongSet.getMessage().contains("ML-DSA-65"), wrongSet.getMessage());
        assertThrows(InvalidKeyException.class, () -> s.initVerify(mlDsa65.getPublic()));
        assertThrows(InvalidKeyException.class,
                () -> Signature.getInstance("ML-DSA", PROVIDER).initVerify(dilithium2.getPublic()));
        assertThrows(InvalidKeyException.class,
                () -> Signature.getInstance("Dilithium", PROVIDER).initSign(mlDsa65.getPrivate()));
        assertThrows(InvalidKeyException.class,
                () -> Signature.getInstance("HASH-ML-DSA", PROVIDER).initSign(dilithium2.getPrivate()));
    }

    @Test
    void destroyedPrivateKeyIsInvalid() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        Signature s = Signature.getInstance("ML-DSA-44", PROVIDER);
        s.initSign(kp.getPrivate());
        kp.getPrivate().destroy();
        s.update(MESSAGE);
        SignatureException afterInit = assertThrows(SignatureException.class, s::sign);
        assertTrue(afterInit.getMessage().contains("destroyed"), afterInit.getMessage());
        assertThrows(InvalidKeyException.class, () -> s.initSign(kp.getPrivate()));
    }

    @Test
    void refusedParameters() throws Exception {
        Signature mlDsa = Signature.getInstance("ML-DSA", PROVIDER);
        InvalidAlgorithmParameterException tooLong = assertThrows(InvalidAlgorithmParameterException.class,
                () -> mlDsa.setParameter(MLDSAParameterSpec.builder().context(new byte[256]).build()));
        assertTrue(tooLong.getMessage().contains("256"), tooLong.getMessage());
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> mlDsa.setParameter(MLDSAParameterSpec.builder().preHash("SHA2-256").build()));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> mlDsa.setParameter(MLDSAParameterSpec.builder().externalMu(true).context(new byte[1]).build()));
        assertThrows(InvalidAlgorithmParameterException.class, () -> mlDsa.setParameter(PSSParameterSpec.DEFAULT));
        assertThrows(InvalidAlgorithmParameterException.class, () -> mlDsa.setParameter(new NamedParameterSpec("ML-DSA-44")));

        Signature round3 = Signature.getInstance("Dilithium2", PROVIDER);
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> round3.setParameter(MLDSAParameterSpec.builder().context(new byte[1]).build()));

        Signature hash = Signature.getInstance("HASH-ML-DSA", PROVIDER);
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> hash.setParameter(MLDSAParameterSpec.builder().externalMu(true).build()));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> hash.setParameter(MLDSAParameterSpec.builder().preHash("MD5").build()));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> hash.setParameter(MLDSAParameterSpec.builder().context(new byte[300]).build()));
    }

    @ParameterizedTest
    @MethodSource("allSets")
    void privateKeyThatDoesNotDecodeFailsTheSignature(String set) throws Exception {
        ParameterSet p = ParameterSet.forName(set);
        byte[] sk = ((DilithiumPrivateKey) keyPair(set).getPrivate()).getExpandedKey();
        int s1 = 2 * ParameterSet.SEED_BYTES + p.trBytes();
        Arrays.fill(sk, s1, s1 + p.polyEtaPackedBytes(), (byte) 0xff);
        // The KeyFactory refuses such a key; one made without it reaches the engine, which must too.
        assertThrows(InvalidKeySpecException.class,
                () -> KeyFactory.getInstance(set, PROVIDER).generatePrivate(new RawPrivateKeySpec(set, sk)));
        PrivateKey broken = DilithiumPrivateKey.of(p, null, sk, null);
        Signature s = Signature.getInstance(set, PROVIDER);
        s.initSign(broken);
        s.update(MESSAGE);
        SignatureException e = assertThrows(SignatureException.class, s::sign);
        assertInstanceOf(InvalidKeyException.class, e.getCause());
        assertTrue(e.getMessage().startsWith(set + " signing failed"), e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("allSets")
    void wrongLengthAndMalformedSignaturesVerifyFalse(String set) throws Exception {
        KeyPair kp = keyPair(set);
        ParameterSet p = ParameterSet.forName(set);
        byte[] sig = sign(set, kp.getPrivate(), null, MESSAGE);
        Signature v = Signature.getInstance(set, PROVIDER);
        v.initVerify(kp.getPublic());
        for (byte[] bad : List.of(new byte[0], Arrays.copyOf(sig, sig.length - 1), Arrays.copyOf(sig, sig.length + 1),
                new byte[p.signatureBytes()], filled(p.signatureBytes(), (byte) 0xff), hintOutOfRange(sig, p))) {
            v.update(MESSAGE);
            assertFalse(v.verify(bad), bad.length + "-byte malformed signature");
        }
        v.update(MESSAGE);
        assertTrue(v.verify(sig));
    }

    private static byte[] filled(int n, byte value) {
        byte[] b = new byte[n];
        Arrays.fill(b, value);
        return b;
    }

    /** The signature with its hint counters (last k bytes) pushed past ω: h does not decode. */
    private static byte[] hintOutOfRange(byte[] sig, ParameterSet p) {
        byte[] bad = sig.clone();
        Arrays.fill(bad, bad.length - p.k(), bad.length, (byte) (p.omega() + 1));
        return bad;
    }

    /** Through java.security.Signature, whose own state check answers first; the SPI's own check is in DilithiumSignatureSpiTest. */
    @Test
    void useBeforeInitIsASignatureException() throws Exception {
        Signature s = Signature.getInstance("ML-DSA-65", PROVIDER);
        assertThrows(SignatureException.class, () -> s.update(MESSAGE));
        assertThrows(SignatureException.class, s::sign);
        assertThrows(SignatureException.class, () -> s.verify(new byte[10]));
        KeyPair kp = keyPair("ML-DSA-65");
        s.initVerify(kp.getPublic());
        assertThrows(SignatureException.class, s::sign);
    }

    @Test
    void messagesNeverCarryKeyBytes() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
        byte[] sk = ((DilithiumPrivateKey) kp.getPrivate()).getExpandedKey();
        String pkHex = HexFormat.of().formatHex(pk, 0, 8);
        String skHex = HexFormat.of().formatHex(sk, 32, 40);
        Signature s = Signature.getInstance("ML-DSA-65", PROVIDER);
        for (Exception e : List.of(
                assertThrows(InvalidKeyException.class, () -> s.initSign(kp.getPrivate())),
                assertThrows(InvalidKeyException.class, () -> s.initVerify(kp.getPublic())))) {
            String text = e.toString().toLowerCase();
            assertFalse(text.contains(pkHex) || text.contains(skHex), text);
        }
        assertFalse(kp.getPrivate().toString().toLowerCase().contains(skHex));
        assertFalse(kp.getPublic().toString().toLowerCase().contains(pkHex));
    }

    @Test
    void interruptedWaitRestoresTheFlagAndThrowsTheCheckedException() {
        CompletableFuture<byte[]> never = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        try {
            SignatureException e = assertThrows(SignatureException.class,
                    () -> EngineCalls.await(never, "ML-DSA-44 signing", SignatureException::new));
            assertTrue(Thread.currentThread().isInterrupted(), "interrupt flag restored");
            assertInstanceOf(InterruptedException.class, e.getCause());
            assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
            assertTrue(never.isCancelled(), "the abandoned request is cancelled");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void interruptedSignerKeepsItsFlag() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        Signature s = Signature.getInstance("ML-DSA-44", PROVIDER);
        s.initSign(kp.getPrivate());
        s.update(MESSAGE);
        Thread.currentThread().interrupt();
        try {
            byte[] sig = s.sign();
            assertTrue(verify("ML-DSA-44", kp.getPublic(), null, MESSAGE, sig), "finished before the wait began");
        } catch (SignatureException e) {
            assertInstanceOf(InterruptedException.class, e.getCause());
        } finally {
            assertTrue(Thread.interrupted(), "interrupt flag still set");
        }
    }
}
