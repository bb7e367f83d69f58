package io.dilithiumgpu.spi;

import static io.dilithiumgpu.DerBuilder.concat;
import static io.dilithiumgpu.DerBuilder.tlv;
import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dilithiumgpu.DerBuilder;
import io.dilithiumgpu.DilithiumGpu;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.key.Oids;
import io.dilithiumgpu.key.Pkcs8;
import io.dilithiumgpu.key.PrivateKeyForm;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.SeedPrivateKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Every malformed or non-DER private key is an {@link InvalidKeySpecException} from the KeyFactory,
 * and an {@link InvalidKeyException} from {@code translateKey}, {@code Signature.initSign} and
 * (through its future) {@code DilithiumGpu.signAsync}, never an unchecked exception; the inputs of
 * issue 21 are kept here as regression inputs. Also the policies of docs/encodings.md (Reading).
 */
@Timeout(120)
class MalformedPrivateKeyTest {
    private static final HexFormat HEX = HexFormat.of();
    /** AlgorithmIdentifier of ML-DSA-44. */
    private static final String A = "300b0609608648016503040311";
    /** privateKey OCTET STRING holding a seed [0] of 32 zero bytes. */
    private static final String S = "04228020" + "0000000000000000000000000000000000000000000000000000000000000000";

    /** The inputs issue 21 found, each of which once threw an unchecked exception. */
    @ParameterizedTest
    @ValueSource(strings = {
        "3003020100",                                  // NoSuchElementException: no algorithm
        "303802050100000000" + A + S,                  // ArithmeticException: a 5-byte version
        "3036020100" + A + S + "0500",                 // ClassCastException: NULL after privateKey
        "3036020100" + A + S + "8000",                 // IllegalStateException: primitive [0] attributes
        "3018020100" + A + "0406a00405000500",         // IllegalArgumentException: constructed [0] of NULLs
    })
    void issueInputsAreCheckedExceptionsOnEveryPath(String hex) throws Exception {
        assertRefusedEverywhere(HEX.parseHex(hex));
    }

    @Test
    void constructedStringsAreNotDer() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] seed = priv.getSeed();
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();

        // seed [0] as two segments: a0 24 { 04 10 <16 bytes> 04 10 <16 bytes> }
        byte[] segmentedSeed = tlv(0xa0, concat(tlv(0x04, Arrays.copyOf(seed, 16)),
                tlv(0x04, Arrays.copyOfRange(seed, 16, 32))));
        assertRefusedEverywhere(oneAsymmetricKey(0, tlv(0x04, segmentedSeed), null), "constructed");

        // the expandedKey OCTET STRING as a constructed string
        byte[] sk = priv.getExpandedKey();
        byte[] segmentedExpanded = tlv(0x24, concat(tlv(0x04, Arrays.copyOf(sk, 1000)),
                tlv(0x04, Arrays.copyOfRange(sk, 1000, sk.length))));
        assertRefusedEverywhere(oneAsymmetricKey(0, tlv(0x04, segmentedExpanded), null), "constructed");

        // the privateKey OCTET STRING itself constructed
        byte[] inner = tlv(0x80, seed);
        assertRefusedEverywhere(oneAsymmetricKey(0, tlv(0x24, tlv(0x04, inner)), null), "constructed");

        // a version 2 key whose publicKey [1] is constructed: a1 { 03 ... 00 <pk> }
        byte[] bits = concat(new byte[] {0}, pk);
        byte[] constructedPk = tlv(0xa1, tlv(0x03, bits));
        byte[] good = oneAsymmetricKey(1, tlv(0x04, inner), tlv(0x81, bits));
        assertEquals(priv, kf().generatePrivate(new PKCS8EncodedKeySpec(good)), "the primitive form is fine");
        byte[] bad = oneAsymmetricKey(1, tlv(0x04, inner), constructedPk);
        assertRefusedEverywhere(bad, "constructed");
    }

    @Test
    void lengthsMustBeMinimalAndDefinite() throws Exception {
        byte[] seedForm = ((DilithiumPrivateKey) keyPair("ML-DSA-44").getPrivate()).getEncoded();
        // 30 34 ... as 30 81 34 ...
        byte[] longForm = new byte[seedForm.length + 1];
        longForm[0] = 0x30;
        longForm[1] = (byte) 0x81;
        System.arraycopy(seedForm, 1, longForm, 2, seedForm.length - 1);
        assertRefusedEverywhere(longForm, "not DER");
        // indefinite length with its end-of-contents octets
        byte[] indefinite = concat(new byte[] {0x30, (byte) 0x80}, Arrays.copyOfRange(seedForm, 2, seedForm.length),
                new byte[] {0, 0});
        assertRefusedEverywhere(indefinite, "indefinite");
        // version 0 as 02 02 00 00
        byte[] paddedVersion = concat(new byte[] {0x30, (byte) (seedForm[1] + 1), 0x02, 0x02, 0x00, 0x00},
                Arrays.copyOfRange(seedForm, 5, seedForm.length));
        assertRefusedEverywhere(paddedVersion, "shortest form");
    }

    @Test
    void everyTruncationAndEveryFlipOfTheFramingIsRefused() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
        byte[] v2 = oneAsymmetricKey(1, tlv(0x04, tlv(0x80, priv.getSeed())), tlv(0x81, concat(new byte[] {0}, pk)));
        assertEquals(priv, kf().generatePrivate(new PKCS8EncodedKeySpec(v2)));
        for (int n = 0; n < v2.length; n++) {
            assertRefused(Arrays.copyOf(v2, n));
        }
        // The framing and the seed: the public key binds the rest, so every flip must fail.
        int framing = 4 + 3 + A.length() / 2 + 4 + 32 + 4;
        for (int bit = 0; bit < 8 * framing; bit++) {
            byte[] flipped = v2.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            assertRefused(flipped);
        }
    }

    @Test
    void versionTwoNeedsAPublicKeyAndVersionOneMustNotHaveOne() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_65;
        KeyPair kp = keyPair("ML-DSA-65");
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] inner = tlv(0x80, priv.getSeed());
        byte[] pkBits = tlv(0x81, concat(new byte[] {0}, ((DilithiumPublicKey) kp.getPublic()).getRawKey()));
        assertEquals(priv, kf().generatePrivate(
                new PKCS8EncodedKeySpec(oneAsymmetricKey(p, 0, tlv(0x04, inner), null))));
        assertEquals(priv, kf().generatePrivate(
                new PKCS8EncodedKeySpec(oneAsymmetricKey(p, 1, tlv(0x04, inner), pkBits))));
        assertRefusedEverywhere(oneAsymmetricKey(p, 1, tlv(0x04, inner), null), "must carry a public key");
        assertRefusedEverywhere(oneAsymmetricKey(p, 0, tlv(0x04, inner), pkBits), "must not carry a public key");
    }

    @Test
    void attributesAreRefused() throws Exception {
        DilithiumPrivateKey priv = (DilithiumPrivateKey) keyPair("ML-DSA-44").getPrivate();
        byte[] inner = tlv(0x04, tlv(0x80, priv.getSeed()));
        // [0] { SEQUENCE { OID 1.2.840.113549.1.9.9.20 (friendlyName), SET { BMPString "k" } } }
        byte[] attribute = tlv(0x30, concat(HEX.parseHex("06092a864886f70d010914"),
                tlv(0x31, tlv(0x1e, new byte[] {0, 'k'}))));
        byte[] withAttributes = tlv(0x30, concat(HEX.parseHex("020100"), HEX.parseHex(A), inner, tlv(0xa0, attribute)));
        assertRefusedEverywhere(withAttributes, "attributes");
    }

    /**
     * An expanded key whose s1, s2 and t0 are another key's, under the first key's ρ, K, tr and
     * public key: tr = H(pk) holds, yet its signatures would never verify. Refused in every form
     * that carries an expanded key alone.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "ML-DSA-87", "Dilithium3"})
    void expandedKeyInconsistentWithItsPublicKeyIsRefused(String set) throws Exception {
        ParameterSet p = ParameterSet.forName(set);
        KeyPair a = keyPair(set);
        byte[] skA = ((DilithiumPrivateKey) a.getPrivate()).getExpandedKey();
        byte[] skB = ((DilithiumPrivateKey) keyPair(set).getPrivate()).getExpandedKey();
        byte[] pkA = ((DilithiumPublicKey) a.getPublic()).getRawKey();
        int secrets = 2 * ParameterSet.SEED_BYTES + p.trBytes();
        byte[] spliced = skA.clone();
        System.arraycopy(skB, secrets, spliced, secrets, skA.length - secrets);

        KeyFactory kf = KeyFactory.getInstance(set, PROVIDER);
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new RawPrivateKeySpec(set, spliced)));
        assertRefusedEverywhere(Pkcs8.encode(p, PrivateKeyForm.EXPANDED, null, spliced), "inconsistent");
        if (p.isFips204()) {
            byte[] inner = tlv(0x04, spliced);
            assertRefusedEverywhere(oneAsymmetricKey(p, 1, tlv(0x04, inner), tlv(0x81, concat(new byte[] {0}, pkA))),
                    "inconsistent");
        }
        // t0 alone off by one coefficient
        byte[] t0Changed = skA.clone();
        t0Changed[t0Changed.length - 1] ^= 1;
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new RawPrivateKeySpec(set, t0Changed)));
        // K is any 32 bytes: a key with another K is still a key of the same public key
        byte[] otherK = skA.clone();
        otherK[ParameterSet.SEED_BYTES] ^= 1;
        PrivateKey withOtherK = kf.generatePrivate(new RawPrivateKeySpec(set, otherK));
        Signature signer = Signature.getInstance(set, PROVIDER);
        signer.initSign(withOtherK);
        signer.update(new byte[] {1, 2, 3});
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(set, PROVIDER);
        verifier.initVerify(a.getPublic());
        verifier.update(new byte[] {1, 2, 3});
        assertTrue(verifier.verify(signature));
    }

    @Test
    void destroyedSpecsAreInvalidKeySpecs() throws Exception {
        DilithiumPrivateKey priv = (DilithiumPrivateKey) keyPair("ML-DSA-44").getPrivate();
        SeedPrivateKeySpec seed = new SeedPrivateKeySpec("ML-DSA-44", priv.getSeed());
        RawPrivateKeySpec raw = new RawPrivateKeySpec("ML-DSA-44", priv.getExpandedKey());
        assertEquals(priv, kf().generatePrivate(seed));
        assertEquals(priv, kf().generatePrivate(raw));
        seed.destroy();
        raw.destroy();
        assertTrue(assertThrows(InvalidKeySpecException.class, () -> kf().generatePrivate(seed)).getMessage()
                .contains("destroyed"));
        assertTrue(assertThrows(InvalidKeySpecException.class, () -> kf().generatePrivate(raw)).getMessage()
                .contains("destroyed"));
    }

    @Test
    void decodedPartsAreCopiesOfTheirFields() throws Exception {
        DilithiumPrivateKey priv = (DilithiumPrivateKey) keyPair("ML-DSA-44").getPrivate();
        byte[] encoded = Pkcs8.encode(ParameterSet.ML_DSA_44, PrivateKeyForm.BOTH, priv.getSeed(),
                priv.getExpandedKey());
        byte[] before = encoded.clone();
        Pkcs8.Decoded d = Pkcs8.decode(encoded);
        assertArrayEquals(priv.getSeed(), d.seed());
        assertArrayEquals(priv.getExpandedKey(), d.expanded());
        d.destroy();
        assertArrayEquals(before, encoded, "decoding neither keeps nor alters its input");
    }

    // ---- helpers

    private static KeyFactory kf() throws Exception {
        return KeyFactory.getInstance("ML-DSA", PROVIDER);
    }

    private static void assertRefused(byte[] encoding) throws Exception {
        try {
            kf().generatePrivate(new PKCS8EncodedKeySpec(encoding));
            fail("accepted " + HEX.formatHex(encoding, 0, Math.min(encoding.length, 64)) + "...");
        } catch (InvalidKeySpecException expected) {
            // the checked refusal
        }
    }

    private static void assertRefusedEverywhere(byte[] encoding) throws Exception {
        assertRefusedEverywhere(encoding, "");
    }

    /** Refused by generatePrivate, translateKey, initSign and signAsync, with {@code words} in the message. */
    private static void assertRefusedEverywhere(byte[] encoding, String words) throws Exception {
        InvalidKeySpecException e = assertThrows(InvalidKeySpecException.class,
                () -> kf().generatePrivate(new PKCS8EncodedKeySpec(encoding)));
        assertTrue(e.getMessage().contains(words), e.getMessage());
        PrivateKey foreign = new ForeignPrivateKey("ML-DSA-44", encoding);
        assertThrows(InvalidKeyException.class, () -> kf().translateKey(foreign));
        assertThrows(InvalidKeyException.class, () -> Signature.getInstance("ML-DSA", PROVIDER).initSign(foreign));
        CompletableFuture<byte[]> signature = DilithiumGpu.signAsync(foreign, new byte[] {1});
        CompletionException failed = assertThrows(CompletionException.class, signature::join);
        assertInstanceOf(InvalidKeyException.class, failed.getCause());
    }

    /** DER of {@code OneAsymmetricKey} for ML-DSA-44 with the given privateKey field and optional publicKey field. */
    private static byte[] oneAsymmetricKey(int version, byte[] privateKeyField, byte[] publicKeyField) {
        return oneAsymmetricKey(ParameterSet.ML_DSA_44, version, privateKeyField, publicKeyField);
    }

    /** DER of {@code OneAsymmetricKey} for set {@code p}. */
    private static byte[] oneAsymmetricKey(ParameterSet p, int version, byte[] privateKeyField, byte[] publicKeyField) {
        byte[] algorithm = tlv(0x30, tlv(0x06, DerBuilder.oidContents(Oids.keyOid(p))));
        byte[] body = concat(new byte[] {0x02, 0x01, (byte) version}, algorithm, privateKeyField,
                publicKeyField == null ? new byte[0] : publicKeyField);
        return tlv(0x30, body);
    }

    /** Another implementation's key: an algorithm name and a PKCS#8 encoding, nothing else. */
    private static final class ForeignPrivateKey implements PrivateKey {
        private final String algorithm;
        private final byte[] encoded;

        ForeignPrivateKey(String algorithm, byte[] encoded) {
            this.algorithm = algorithm;
            this.encoded = encoded.clone();
        }

        @Override public String getAlgorithm() { return algorithm; }
        @Override public String getFormat() { return "PKCS#8"; }
        @Override public byte[] getEncoded() { return encoded.clone(); }
    }
}
