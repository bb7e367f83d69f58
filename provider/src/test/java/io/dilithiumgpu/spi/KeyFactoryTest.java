package io.dilithiumgpu.spi;

import static io.dilithiumgpu.ProviderTestSupport.ALL_SETS;
import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.key.Oids;
import io.dilithiumgpu.key.Pkcs8;
import io.dilithiumgpu.key.PrivateKeyForm;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.RawPublicKeySpec;
import io.dilithiumgpu.spec.SeedPrivateKeySpec;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERTaggedObject;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.ProviderException;
import java.security.PublicKey;
import java.security.spec.DSAPublicKeySpec;
import java.security.spec.EncodedKeySpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

class KeyFactoryTest {
    private static final HexFormat HEX = HexFormat.of();

    static List<String> allSets() { return ALL_SETS; }

    @ParameterizedTest
    @MethodSource("allSets")
    void everySpecRoundTrips(String set) throws Exception {
        KeyPair kp = keyPair(set);
        DilithiumPublicKey pub = (DilithiumPublicKey) kp.getPublic();
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        String generic = set.startsWith("ML-DSA") ? "ML-DSA" : "Dilithium";
        for (String name : List.of(set, generic)) {
            KeyFactory kf = KeyFactory.getInstance(name, PROVIDER);

            X509EncodedKeySpec x509 = kf.getKeySpec(pub, X509EncodedKeySpec.class);
            assertArrayEquals(pub.getEncoded(), x509.getEncoded());
            assertEquals(pub, kf.generatePublic(x509));
            assertArrayEquals(pub.getEncoded(), kf.getKeySpec(pub, EncodedKeySpec.class).getEncoded());
            assertInstanceOf(X509EncodedKeySpec.class, kf.getKeySpec(pub, KeySpec.class));

            RawPublicKeySpec rawPub = kf.getKeySpec(pub, RawPublicKeySpec.class);
            assertEquals(set, rawPub.getParameterSet());
            assertArrayEquals(pub.getRawKey(), rawPub.getKey());
            assertEquals(pub, kf.generatePublic(rawPub));

            PKCS8EncodedKeySpec pkcs8 = kf.getKeySpec(priv, PKCS8EncodedKeySpec.class);
            assertArrayEquals(priv.getEncoded(), pkcs8.getEncoded());
            DilithiumPrivateKey decoded = (DilithiumPrivateKey) kf.generatePrivate(pkcs8);
            assertEquals(priv, decoded);
            assertArrayEquals(priv.getEncoded(), decoded.getEncoded());

            RawPrivateKeySpec rawPriv = kf.getKeySpec(priv, RawPrivateKeySpec.class);
            assertArrayEquals(priv.getExpandedKey(), rawPriv.getKey());
            DilithiumPrivateKey fromRaw = (DilithiumPrivateKey) kf.generatePrivate(rawPriv);
            assertEquals(priv, fromRaw);
            assertFalse(fromRaw.hasSeed());
            assertThrows(InvalidKeySpecException.class, () -> kf.getKeySpec(fromRaw, SeedPrivateKeySpec.class));

            SeedPrivateKeySpec seed = kf.getKeySpec(priv, SeedPrivateKeySpec.class);
            assertArrayEquals(priv.getSeed(), seed.getSeed());
            DilithiumPrivateKey fromSeed = (DilithiumPrivateKey) kf.generatePrivate(seed);
            assertEquals(priv, fromSeed);
            assertArrayEquals(priv.getSeed(), fromSeed.getSeed());
        }
    }

    @Test
    void mlDsaPrivateKeyFormsFollowRfc9881() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] seed = priv.getSeed();
        byte[] sk = priv.getExpandedKey();
        String header = "300b0609608648016503040311";

        byte[] seedForm = priv.getEncoded();
        assertEquals("30340201" + "00" + header + "0422" + "8020" + HEX.formatHex(seed), HEX.formatHex(seedForm),
                "default: seed only, [0] IMPLICIT OCTET STRING");
        withFormat("expanded", () -> assertEquals("30820a180201" + "00" + header + "04820a04" + "04820a00"
                + HEX.formatHex(sk), HEX.formatHex(priv.getEncoded())));
        withFormat("both", () -> assertEquals("30820a3e0201" + "00" + header + "04820a2a" + "30820a26" + "0420"
                + HEX.formatHex(seed) + "04820a00" + HEX.formatHex(sk), HEX.formatHex(priv.getEncoded())));
        withFormat("Seed ", () -> assertArrayEquals(seedForm, priv.getEncoded()));
        withFormat("compressed", () -> assertThrows(ProviderException.class, priv::getEncoded));

        KeyFactory kf = KeyFactory.getInstance("ML-DSA-44", PROVIDER);
        DilithiumPrivateKey expandedOnly = (DilithiumPrivateKey) kf.generatePrivate(new RawPrivateKeySpec("ML-DSA-44", sk));
        withFormat("seed", () -> assertEquals(Pkcs8.encode(ParameterSet.ML_DSA_44, PrivateKeyForm.EXPANDED, null, sk).length,
                expandedOnly.getEncoded().length, "without the seed, every form falls back to expanded"));
    }

    @Test
    void decodedKeysKeepTheirFormAndAllThreeFormsDecode() throws Exception {
        KeyFactory kf = KeyFactory.getInstance("ML-DSA", PROVIDER);
        DilithiumPrivateKey priv = (DilithiumPrivateKey) keyPair("ML-DSA-87").getPrivate();
        byte[] seed = priv.getSeed();
        byte[] sk = priv.getExpandedKey();
        for (PrivateKeyForm form : PrivateKeyForm.values()) {
            byte[] encoded = Pkcs8.encode(ParameterSet.ML_DSA_87, form, seed, sk);
            DilithiumPrivateKey decoded = (DilithiumPrivateKey) kf.generatePrivate(new PKCS8EncodedKeySpec(encoded));
            assertEquals(priv, decoded, form.toString());
            assertEquals(form != PrivateKeyForm.EXPANDED, decoded.hasSeed(), form.toString());
            assertArrayEquals(encoded, decoded.getEncoded(), form + " re-encodes byte for byte");
        }
    }

    @Test
    void bothFormWhoseSeedDoesNotRegenerateTheKeyIsRefused() throws Exception {
        DilithiumPrivateKey priv = (DilithiumPrivateKey) keyPair("ML-DSA-65").getPrivate();
        byte[] seed = priv.getSeed();
        seed[0] ^= 1;
        byte[] encoded = Pkcs8.encode(ParameterSet.ML_DSA_65, PrivateKeyForm.BOTH, seed, priv.getExpandedKey());
        InvalidKeySpecException e = assertThrows(InvalidKeySpecException.class,
                () -> KeyFactory.getInstance("ML-DSA", PROVIDER).generatePrivate(new PKCS8EncodedKeySpec(encoded)));
        assertTrue(e.getMessage().contains("seed does not regenerate"), e.getMessage());
    }

    @Test
    void oneAsymmetricKeyWithPublicKeyMustMatch() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        KeyPair other = keyPair("ML-DSA-44");
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
        byte[] otherPk = ((DilithiumPublicKey) other.getPublic()).getRawKey();
        KeyFactory kf = KeyFactory.getInstance("ML-DSA-44", PROVIDER);
        for (PrivateKeyForm form : List.of(PrivateKeyForm.SEED, PrivateKeyForm.EXPANDED)) {
            byte[] inner = innerPrivateKey(priv, form);
            assertEquals(priv, kf.generatePrivate(new PKCS8EncodedKeySpec(v1(Oids.ML_DSA_44, inner, pk))), form.toString());
            assertThrows(InvalidKeySpecException.class,
                    () -> kf.generatePrivate(new PKCS8EncodedKeySpec(v1(Oids.ML_DSA_44, inner, otherPk))), form.toString());
        }
        byte[] inner = innerPrivateKey(priv, PrivateKeyForm.SEED);
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new PKCS8EncodedKeySpec(der(new DERSequence(
                new ASN1Encodable[] {new ASN1Integer(0), mlDsa44(), new DEROctetString(inner), new DERTaggedObject(false, 1,
                        new org.bouncycastle.asn1.DERBitString(pk))})))), "version 0 with a public key");
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new PKCS8EncodedKeySpec(der(new DERSequence(
                new ASN1Encodable[] {new ASN1Integer(2), mlDsa44(), new DEROctetString(inner)})))), "version 2");
    }

    @Test
    void malformedEncodingsAreInvalidKeySpecs() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] spki = kp.getPublic().getEncoded();
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
        byte[] pkcs8 = priv.getEncoded();
        byte[] seed = priv.getSeed();
        KeyFactory kf = KeyFactory.getInstance("ML-DSA", PROVIDER);

        List<byte[]> badPublic = List.of(new byte[0], Arrays.copyOf(spki, spki.length - 1),
                Arrays.copyOf(spki, spki.length + 1),
                der(new SubjectPublicKeyInfo(new AlgorithmIdentifier(new ASN1ObjectIdentifier(Oids.ML_DSA_44), new ASN1Integer(0)), pk)),
                der(new SubjectPublicKeyInfo(mlDsa44(), Arrays.copyOf(pk, pk.length - 1))),
                der(new SubjectPublicKeyInfo(new AlgorithmIdentifier(new ASN1ObjectIdentifier("1.3.101.112")), pk)),
                der(new SubjectPublicKeyInfo(mlDsa44(), new org.bouncycastle.asn1.DERBitString(pk, 3))),
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic().getEncoded());
        for (byte[] bad : badPublic) {
            InvalidKeySpecException e = assertThrows(InvalidKeySpecException.class,
                    () -> kf.generatePublic(new X509EncodedKeySpec(bad)));
            assertFalse(e.getMessage().toLowerCase().contains(HEX.formatHex(pk, 40, 56)), e.getMessage());
        }

        byte[] berLength = new byte[pkcs8.length + 1];
        berLength[0] = 0x30;
        berLength[1] = (byte) 0x81;
        System.arraycopy(pkcs8, 1, berLength, 2, pkcs8.length - 1);
        List<byte[]> badPrivate = List.of(new byte[0], Arrays.copyOf(pkcs8, pkcs8.length - 1),
                Arrays.copyOf(pkcs8, pkcs8.length + 1), berLength,
                v0(Oids.ML_DSA_44, der(new DERTaggedObject(true, 0, new DEROctetString(seed)))),
                v0(Oids.ML_DSA_44, der(new DERTaggedObject(false, 1, new DEROctetString(seed)))),
                v0(Oids.ML_DSA_44, der(new DERTaggedObject(false, 0, new DEROctetString(Arrays.copyOf(seed, 31))))),
                v0(Oids.ML_DSA_44, der(new DEROctetString(Arrays.copyOf(priv.getExpandedKey(), 2559)))),
                v0(Oids.ML_DSA_44, der(new ASN1Integer(5))),
                v0(Oids.ML_DSA_44, der(new DERSequence(new DEROctetString(seed)))),
                v0(Oids.ML_DSA_44, seed),
                v0(Oids.DILITHIUM2, Arrays.copyOf(priv.getExpandedKey(), 2528 - 1)),
                der(new PrivateKeyInfo(new AlgorithmIdentifier(new ASN1ObjectIdentifier(Oids.ML_DSA_44), new ASN1Integer(0)),
                        der(new DERTaggedObject(false, 0, new DEROctetString(seed))))));
        String seedHex = HEX.formatHex(seed);
        for (byte[] bad : badPrivate) {
            InvalidKeySpecException e = assertThrows(InvalidKeySpecException.class,
                    () -> kf.generatePrivate(new PKCS8EncodedKeySpec(bad)));
            assertFalse(e.getMessage().toLowerCase().contains(seedHex.substring(0, 16)), e.getMessage());
        }
    }

    /** JDK 17 re-encodes keys with NULL parameters (certificates, JKS): read, never written. */
    @Test
    void nullParametersAreReadButNeverWritten() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
        KeyFactory kf = KeyFactory.getInstance("ML-DSA", PROVIDER);
        AlgorithmIdentifier withNull = new AlgorithmIdentifier(new ASN1ObjectIdentifier(Oids.ML_DSA_44), DERNull.INSTANCE);

        PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(der(new SubjectPublicKeyInfo(withNull, pk))));
        PrivateKey back = kf.generatePrivate(new PKCS8EncodedKeySpec(der(new PrivateKeyInfo(withNull,
                der(new DERTaggedObject(false, 0, new DEROctetString(priv.getSeed())))))));

        assertEquals(kp.getPublic(), pub);
        assertEquals(priv, back);
        assertArrayEquals(kp.getPublic().getEncoded(), pub.getEncoded());
        assertArrayEquals(priv.getEncoded(), back.getEncoded());
    }

    @Test
    void rawSpecsAreChecked() throws Exception {
        KeyFactory kf = KeyFactory.getInstance("ML-DSA", PROVIDER);
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePublic(new RawPublicKeySpec("ML-DSA-44", new byte[1311])));
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePublic(new RawPublicKeySpec("ML-DSA-99", new byte[1312])));
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePublic(new RawPublicKeySpec("Dilithium2", new byte[1312])));
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new RawPrivateKeySpec("ML-DSA-44", new byte[2528])));
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new SeedPrivateKeySpec("ML-DSA-44", new byte[31])));
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePublic(new DSAPublicKeySpec(BigInteger.ONE,
                BigInteger.ONE, BigInteger.ONE, BigInteger.ONE)));
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new X509EncodedKeySpec(new byte[10])));
        assertThrows(InvalidKeySpecException.class,
                () -> KeyFactory.getInstance("ML-DSA-65", PROVIDER).generatePrivate(new SeedPrivateKeySpec("ML-DSA-44", new byte[32])));
        KeyPair kp = keyPair("ML-DSA-44");
        assertThrows(InvalidKeySpecException.class, () -> kf.getKeySpec(kp.getPublic(), PKCS8EncodedKeySpec.class));
        assertThrows(InvalidKeySpecException.class, () -> kf.getKeySpec(kp.getPrivate(), X509EncodedKeySpec.class));
    }

    @Test
    void hashMlDsaOidsDecodeAsPlainMlDsaKeys() throws Exception {
        KeyPair kp = keyPair("ML-DSA-65");
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
        byte[] spki = der(new SubjectPublicKeyInfo(new AlgorithmIdentifier(
                new ASN1ObjectIdentifier(Oids.HASH_ML_DSA_65_WITH_SHA512)), pk));
        PublicKey decoded = KeyFactory.getInstance(Oids.HASH_ML_DSA_65_WITH_SHA512, PROVIDER)
                .generatePublic(new X509EncodedKeySpec(spki));
        assertEquals(kp.getPublic(), decoded);
        assertEquals("ML-DSA-65", decoded.getAlgorithm());
    }

    @Test
    void translateKeyReadsOtherImplementationsThroughTheirEncoding() throws Exception {
        KeyPair kp = keyPair("Dilithium3");
        KeyFactory kf = KeyFactory.getInstance("Dilithium", PROVIDER);
        assertSame(kp.getPublic(), kf.translateKey(kp.getPublic()));
        Key foreignPublic = new ForeignPublicKey(kp.getPublic());
        Key foreignPrivate = new ForeignPrivateKey(kp.getPrivate());
        Key translatedPublic = kf.translateKey(foreignPublic);
        Key translatedPrivate = kf.translateKey(foreignPrivate);
        assertEquals(kp.getPublic(), translatedPublic);
        assertEquals(kp.getPrivate(), translatedPrivate);
        assertNotSame(kp.getPrivate(), translatedPrivate);
        assertArrayEquals(kp.getPublic().getEncoded(), kf.getKeySpec(foreignPublic, X509EncodedKeySpec.class).getEncoded());

        assertThrows(InvalidKeyException.class, () -> KeyFactory.getInstance("Dilithium2", PROVIDER).translateKey(foreignPublic));
        assertThrows(InvalidKeyException.class, () -> KeyFactory.getInstance("ML-DSA", PROVIDER).translateKey(foreignPrivate));
        KeyPair rsa = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        assertThrows(InvalidKeyException.class, () -> kf.translateKey(rsa.getPublic()));
        assertThrows(InvalidKeyException.class, () -> kf.translateKey(rsa.getPrivate()));
        assertThrows(InvalidKeyException.class, () -> kf.translateKey(null));
    }

    /** A key of another implementation: only its algorithm name and encoding are shared. */
    private abstract static class ForeignKey implements Key {
        private final byte[] encoded;
        private final String algorithm;
        private final String format;

        ForeignKey(Key key) {
            this.encoded = key.getEncoded();
            this.algorithm = key.getAlgorithm();
            this.format = key.getFormat();
        }

        @Override public String getAlgorithm() { return algorithm; }
        @Override public String getFormat() { return format; }
        @Override public byte[] getEncoded() { return encoded.clone(); }
    }

    private static final class ForeignPublicKey extends ForeignKey implements PublicKey {
        ForeignPublicKey(PublicKey key) { super(key); }
    }

    private static final class ForeignPrivateKey extends ForeignKey implements PrivateKey {
        ForeignPrivateKey(PrivateKey key) { super(key); }
    }

    private static void withFormat(String value, Runnable check) {
        System.setProperty(PrivateKeyForm.PROPERTY, value);
        try {
            check.run();
        } finally {
            System.clearProperty(PrivateKeyForm.PROPERTY);
        }
    }

    private static AlgorithmIdentifier mlDsa44() {
        return new AlgorithmIdentifier(new ASN1ObjectIdentifier(Oids.ML_DSA_44));
    }

    private static byte[] innerPrivateKey(DilithiumPrivateKey key, PrivateKeyForm form) throws Exception {
        byte[] full = Pkcs8.encode(key.parameterSet(), form, key.getSeed(), key.getExpandedKey());
        return PrivateKeyInfo.getInstance(full).getPrivateKey().getOctets();
    }

    private static byte[] v0(String oid, byte[] privateKeyOctets) {
        return der(new DERSequence(new ASN1Encodable[] {new ASN1Integer(0),
                new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid)), new DEROctetString(privateKeyOctets)}));
    }

    private static byte[] v1(String oid, byte[] privateKeyOctets, byte[] publicKey) {
        return der(new PrivateKeyInfo(new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid)), privateKeyOctets, null, publicKey));
    }

    private static byte[] der(org.bouncycastle.asn1.ASN1Object value) {
        try {
            return value.getEncoded(ASN1Encoding.DER);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
