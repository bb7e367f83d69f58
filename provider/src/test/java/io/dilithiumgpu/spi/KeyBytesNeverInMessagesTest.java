package io.dilithiumgpu.spi;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERTaggedObject;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * No exception from a bad-input path carries key bytes: every message and {@code toString()} in the
 * cause chain (and suppressed exceptions) of every refusal of a malformed or foreign key, encoding or
 * raw spec is searched for every 8-byte window of the public keys, seeds and expanded private keys
 * involved, as lower- and upper-case hex and as standard and URL-safe Base64.
 */
class KeyBytesNeverInMessagesTest {
    private static final String RSA_OID = "1.2.840.113549.1.1.1";

    private final List<Throwable> refusals = new ArrayList<>();
    private final List<byte[]> secrets = new ArrayList<>();

    @Test
    void noRefusalOfABadKeyQuotesTheKey() throws Exception {
        for (String set : List.of("ML-DSA-44", "Dilithium2")) {
            refuseBadEncodingsAndSpecs(set);
        }
        assertTrue(refusals.size() > 100, "refusals collected: " + refusals.size());
        List<String> leaks = leaks();
        assertTrue(leaks.isEmpty(), leaks.size() + " messages quote key bytes:\n" + String.join("\n", leaks));
    }

    /** The search itself finds each of the encodings it looks for, at any offset. */
    @Test
    void theSearchFindsKeyBytesInEveryEncoding() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        byte[] sk = track(((DilithiumPrivateKey) kp.getPrivate()).getExpandedKey());
        byte[] slice = Arrays.copyOfRange(sk, 1001, 1011);
        for (String quoted : List.of(HexFormat.of().formatHex(slice), HexFormat.of().withUpperCase().formatHex(slice),
                Base64.getEncoder().encodeToString(slice), Base64.getUrlEncoder().encodeToString(slice))) {
            refusals.clear();
            refusals.add(new GeneralSecurityException("outer", new IOException("key was " + quoted + ".")));
            assertEquals(1, leaks().size(), quoted);
        }
        refusals.clear();
        refusals.add(new GeneralSecurityException("ML-DSA-44 private key must be 2560 bytes, not 2561"));
        assertTrue(leaks().isEmpty());
    }

    private void refuseBadEncodingsAndSpecs(String set) throws Exception {
        ParameterSet p = ParameterSet.forName(set);
        String generic = p.isFips204() ? "ML-DSA" : "Dilithium";
        String otherFamily = p.isFips204() ? "Dilithium2" : "ML-DSA-44";
        KeyPair a = keyPair(set);
        KeyPair b = keyPair(set);
        DilithiumPrivateKey privA = (DilithiumPrivateKey) a.getPrivate();
        DilithiumPrivateKey privB = (DilithiumPrivateKey) b.getPrivate();
        byte[] pkA = track(((DilithiumPublicKey) a.getPublic()).getRawKey());
        byte[] pkB = track(((DilithiumPublicKey) b.getPublic()).getRawKey());
        byte[] seedA = track(privA.getSeed());
        byte[] seedB = track(privB.getSeed());
        byte[] skA = track(privA.getExpandedKey());
        byte[] skB = track(privB.getExpandedKey());
        String keyOid = Oids.keyOid(p);

        List<byte[]> badPkcs8 = new ArrayList<>();
        List<byte[]> encodings = new ArrayList<>();
        for (PrivateKeyForm form : p.isFips204() ? List.of(PrivateKeyForm.values()) : List.of(PrivateKeyForm.EXPANDED)) {
            encodings.add(track(Pkcs8.encode(p, form, seedA, skA)));
        }
        for (byte[] good : encodings) {
            badPkcs8.add(Arrays.copyOf(good, good.length - 1));
            badPkcs8.add(Arrays.copyOf(good, good.length + 1));
            badPkcs8.add(Arrays.copyOfRange(good, 4, good.length));
            byte[] longLength = good.clone();
            longLength[3] ^= 0x01;
            badPkcs8.add(longLength);
        }
        badPkcs8.add(pkcs8(0, keyOid, false, octets(grown(skA, 1)), null));
        badPkcs8.add(pkcs8(0, keyOid, false, octets(Arrays.copyOf(skA, skA.length - 1)), null));
        badPkcs8.add(pkcs8(0, RSA_OID, false, octets(skA), null));
        badPkcs8.add(pkcs8(0, keyOid, true, octets(skA), null));
        badPkcs8.add(pkcs8(1, keyOid, false, octets(skA), pkB));
        badPkcs8.add(pkcs8(1, keyOid, false, octets(skA), Arrays.copyOf(pkA, pkA.length - 1)));
        badPkcs8.add(pkcs8(0, keyOid, false, octets(skA), pkA));
        badPkcs8.add(pkcs8(2, keyOid, false, octets(skA), null));
        badPkcs8.add(der(new DERSequence(new ASN1Encodable[] {new ASN1Integer(0),
                new AlgorithmIdentifier(new ASN1ObjectIdentifier(keyOid)), new DERBitString(skA)})));
        badPkcs8.add(der(new DERSequence(new ASN1Encodable[] {new ASN1Integer(0),
                new AlgorithmIdentifier(new ASN1ObjectIdentifier(keyOid)), new ASN1Integer(new java.math.BigInteger(1, skA))})));
        badPkcs8.add(der(new DERSequence(new ASN1Encodable[] {new DEROctetString(seedA),
                new AlgorithmIdentifier(new ASN1ObjectIdentifier(keyOid)), octets(skA)})));
        badPkcs8.add(der(new DERSequence(new ASN1Encodable[] {new ASN1Integer(0),
                new DEROctetString(skA), octets(skA)})));
        badPkcs8.add(der(new DERSequence(new ASN1Encodable[] {new ASN1Integer(0),
                new AlgorithmIdentifier(new ASN1ObjectIdentifier(keyOid), new DEROctetString(seedA)), octets(skA)})));
        badPkcs8.add(der(new DERSequence(new ASN1Encodable[] {new ASN1Integer(0),
                new AlgorithmIdentifier(new ASN1ObjectIdentifier(keyOid)), new DERUTF8String(HexFormat.of().formatHex(skA))})));
        if (p.isFips204()) {
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERTaggedObject(false, 0, new DEROctetString(grown(seedA, 1)))), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERTaggedObject(false, 0, new DEROctetString(Arrays.copyOf(seedA, 31)))), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERTaggedObject(true, 0, new DEROctetString(seedA))), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERTaggedObject(false, 1, new DEROctetString(seedA))), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERTaggedObject(false, 0,
                    new DERSequence(new ASN1Encodable[] {new DEROctetString(seedA)}))), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERTaggedObject(false, 0, new DERBitString(seedA))), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERSequence(new ASN1Encodable[] {
                    new DERTaggedObject(false, 0, new DEROctetString(seedA)), new DEROctetString(skA)})), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERSequence(new ASN1Encodable[] {
                    new DEROctetString(seedA), new DEROctetString(skB)})), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERSequence(new ASN1Encodable[] {
                    new DEROctetString(seedA), new DEROctetString(skA), new DEROctetString(seedB)})), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERSequence(new ASN1Encodable[] {
                    new DERBitString(seedA), new DEROctetString(skA)})), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new DERSequence(new ASN1Encodable[] {
                    new DEROctetString(seedA), new DEROctetString(grown(skA, 1))})), null));
            badPkcs8.add(pkcs8(0, keyOid, false, der(new ASN1Integer(new java.math.BigInteger(1, seedA))), null));
            badPkcs8.add(pkcs8(0, keyOid, false, grown(der(new DEROctetString(skA)), 1), null));
            badPkcs8.add(pkcs8(1, keyOid, false, der(new DERTaggedObject(false, 0, new DEROctetString(seedA))), pkB));
            badPkcs8.add(pkcs8(0, keyOid, false, skA, null));
            badPkcs8.add(pkcs8(0, keyOid, false, seedA, null));
        }

        List<byte[]> badSpki = new ArrayList<>();
        byte[] goodSpki = track(a.getPublic().getEncoded());
        badSpki.add(Arrays.copyOf(goodSpki, goodSpki.length - 1));
        badSpki.add(Arrays.copyOf(goodSpki, goodSpki.length + 1));
        badSpki.add(Arrays.copyOfRange(goodSpki, 4, goodSpki.length));
        badSpki.add(spki(keyOid, false, new DERBitString(Arrays.copyOf(pkA, pkA.length - 1))));
        badSpki.add(spki(keyOid, false, new DERBitString(grown(pkA, 1))));
        badSpki.add(spki(keyOid, false, new DERBitString(pkA, 3)));
        badSpki.add(spki(RSA_OID, false, new DERBitString(pkA)));
        badSpki.add(spki(keyOid, true, new DERBitString(pkA)));
        badSpki.add(spki(keyOid, false, new DEROctetString(pkA)));
        badSpki.add(der(new DERSequence(new ASN1Encodable[] {new DEROctetString(pkA), new DERBitString(pkA)})));
        badSpki.add(der(new DERSequence(new ASN1Encodable[] {new AlgorithmIdentifier(new ASN1ObjectIdentifier(keyOid)),
                new DERBitString(pkA), new DERBitString(pkA)})));

        for (String name : List.of(set, generic, otherFamily)) {
            KeyFactory kf = KeyFactory.getInstance(name, PROVIDER);
            Signature signature = Signature.getInstance(name, PROVIDER);
            for (byte[] bad : badPkcs8) {
                refused(() -> kf.generatePrivate(new PKCS8EncodedKeySpec(bad.clone())));
                refused(() -> kf.translateKey(new ForeignPrivateKey(set, "PKCS#8", bad)));
                refused(() -> kf.getKeySpec(new ForeignPrivateKey(set, "PKCS#8", bad), RawPrivateKeySpec.class));
                refused(() -> signature.initSign(new ForeignPrivateKey(set, "PKCS#8", bad)));
            }
            for (byte[] bad : badSpki) {
                refused(() -> kf.generatePublic(new X509EncodedKeySpec(bad.clone())));
                refused(() -> kf.translateKey(new ForeignPublicKey(set, "X.509", bad)));
                refused(() -> kf.getKeySpec(new ForeignPublicKey(set, "X.509", bad), RawPublicKeySpec.class));
                refused(() -> signature.initVerify(new ForeignPublicKey(set, "X.509", bad)));
            }
            refused(() -> signature.initSign(new ForeignPrivateKey(set, "RAW", skA)));
            refused(() -> signature.initVerify(new ForeignPublicKey(set, "RAW", pkA)));
            refused(() -> kf.translateKey(new ForeignPrivateKey(set, null, skA)));
            refused(() -> kf.translateKey(new ForeignPublicKey(set, "PKCS#8", pkA)));
            refused(() -> kf.generatePrivate(new PKCS8EncodedKeySpec(skA.clone())));
            refused(() -> kf.generatePublic(new X509EncodedKeySpec(pkA.clone())));
            refused(() -> kf.generatePublic(new PKCS8EncodedKeySpec(encodings.get(0).clone())));
            refused(() -> kf.generatePrivate(new X509EncodedKeySpec(goodSpki.clone())));
            for (String specSet : List.of(set, "ML-DSA-45")) {
                refused(() -> kf.generatePrivate(new RawPrivateKeySpec(specSet, grown(skA, 1))));
                refused(() -> kf.generatePrivate(new RawPrivateKeySpec(specSet, Arrays.copyOf(skA, skA.length - 1))));
                refused(() -> kf.generatePrivate(new RawPrivateKeySpec(specSet, pkA)));
                refused(() -> kf.generatePublic(new RawPublicKeySpec(specSet, grown(pkA, 1))));
                refused(() -> kf.generatePublic(new RawPublicKeySpec(specSet, Arrays.copyOf(pkA, pkA.length - 1))));
                refused(() -> kf.generatePublic(new RawPublicKeySpec(specSet, skA)));
                refused(() -> kf.generatePrivate(new SeedPrivateKeySpec(specSet, grown(seedA, 1))));
                refused(() -> kf.generatePrivate(new SeedPrivateKeySpec(specSet, Arrays.copyOf(seedA, 31))));
            }
        }
        refused(() -> Signature.getInstance(otherFamily, PROVIDER).initSign(privA));
        refused(() -> Signature.getInstance(otherFamily, PROVIDER).initVerify(a.getPublic()));
        refused(() -> KeyFactory.getInstance(otherFamily, PROVIDER).translateKey(privA));
        refused(() -> KeyFactory.getInstance(otherFamily, PROVIDER).getKeySpec(privA, RawPrivateKeySpec.class));
        refused(() -> KeyFactory.getInstance(otherFamily, PROVIDER).generatePrivate(new SeedPrivateKeySpec(set, seedA)));
        refused(() -> KeyFactory.getInstance(otherFamily, PROVIDER).generatePrivate(new RawPrivateKeySpec(set, skA)));
        refused(() -> KeyFactory.getInstance(otherFamily, PROVIDER).generatePublic(new RawPublicKeySpec(set, pkA)));

        byte[] broken = skA.clone();
        int s1 = 2 * ParameterSet.SEED_BYTES + p.trBytes();
        Arrays.fill(broken, s1, s1 + p.polyEtaPackedBytes(), (byte) 0xff);
        track(broken);
        refused(() -> KeyFactory.getInstance(set, PROVIDER).generatePrivate(new RawPrivateKeySpec(set, broken)));
        PrivateKey undecodable = DilithiumPrivateKey.of(p, null, broken, null);
        Signature signer = Signature.getInstance(set, PROVIDER);
        signer.initSign(undecodable);
        signer.update(new byte[] {1, 2, 3});
        refused(signer::sign);

        DilithiumPrivateKey destroyed = (DilithiumPrivateKey) keyPair(set).getPrivate();
        track(destroyed.getExpandedKey());
        track(destroyed.getSeed());
        destroyed.destroy();
        refused(() -> Signature.getInstance(set, PROVIDER).initSign(destroyed));
        refused(() -> KeyFactory.getInstance(set, PROVIDER).getKeySpec(destroyed, RawPrivateKeySpec.class));
    }

    private void refused(Executable call) {
        refusals.add(assertThrows(GeneralSecurityException.class, call));
    }

    private byte[] track(byte[] secret) {
        secrets.add(secret.clone());
        return secret;
    }

    /** Each message or toString in the collected chains that quotes 8 consecutive bytes of a tracked key. */
    private List<String> leaks() {
        Set<String> hex = new HashSet<>();
        Set<String> base64 = new HashSet<>();
        for (byte[] secret : secrets) {
            for (int i = 0; i + 8 <= secret.length; i++) {
                hex.add(HexFormat.of().formatHex(secret, i, i + 8));
                byte[] window = Arrays.copyOfRange(secret, i, i + 8);
                // the first 10 characters depend only on the window's first 60 bits; every run of 10
                // or more leaked bytes has a window that starts on a Base64 group boundary
                base64.add(Base64.getEncoder().encodeToString(window).substring(0, 10));
                base64.add(Base64.getUrlEncoder().encodeToString(window).substring(0, 10));
            }
        }
        List<String> leaks = new ArrayList<>();
        for (Throwable refusal : refusals) {
            for (Throwable t : chain(refusal)) {
                for (String text : new String[] {t.getMessage(), t.getLocalizedMessage(), t.toString()}) {
                    if (text != null && (contains(text.toLowerCase(java.util.Locale.ROOT), hex, 16)
                            || contains(text, base64, 10))) {
                        leaks.add(t.getClass().getName() + ": " + text);
                        break;
                    }
                }
            }
        }
        return leaks;
    }

    private static boolean contains(String text, Set<String> needles, int length) {
        for (int i = 0; i + length <= text.length(); i++) {
            if (needles.contains(text.substring(i, i + length))) {
                return true;
            }
        }
        return false;
    }

    /** The exception, its causes and suppressed exceptions, each once. */
    private static List<Throwable> chain(Throwable top) {
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> out = new ArrayList<>();
        List<Throwable> todo = new ArrayList<>(List.of(top));
        while (!todo.isEmpty()) {
            Throwable t = todo.remove(todo.size() - 1);
            if (t == null || !seen.add(t)) {
                continue;
            }
            out.add(t);
            todo.add(t.getCause());
            todo.addAll(Arrays.asList(t.getSuppressed()));
        }
        return out;
    }

    private static byte[] grown(byte[] b, int extra) {
        byte[] out = Arrays.copyOf(b, b.length + extra);
        Arrays.fill(out, b.length, out.length, (byte) 0x5a);
        return out;
    }

    private static DEROctetString octets(byte[] b) {
        return new DEROctetString(b);
    }

    private static byte[] pkcs8(int version, String oid, boolean withParameters, byte[] privateKey, byte[] publicKey) {
        return pkcs8(version, oid, withParameters, new DEROctetString(privateKey), publicKey);
    }

    private static byte[] pkcs8(int version, String oid, boolean withParameters, ASN1Primitive privateKey,
                                byte[] publicKey) {
        AlgorithmIdentifier algorithm = withParameters
                ? new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid), new ASN1Integer(0))
                : new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid));
        List<ASN1Encodable> fields = new ArrayList<>(List.of(new ASN1Integer(version), algorithm, privateKey));
        if (publicKey != null) {
            fields.add(new DERTaggedObject(false, 1, new DERBitString(publicKey)));
        }
        return der(new DERSequence(fields.toArray(new ASN1Encodable[0])));
    }

    private static byte[] spki(String oid, boolean withParameters, ASN1Encodable key) {
        AlgorithmIdentifier algorithm = withParameters
                ? new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid), new ASN1Integer(0))
                : new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid));
        return der(new DERSequence(new ASN1Encodable[] {algorithm, key}));
    }

    private static byte[] der(ASN1Encodable value) {
        try {
            return value.toASN1Primitive().getEncoded(ASN1Encoding.DER);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Another provider's key: only an algorithm name, a format and an encoding. */
    private abstract static class ForeignKey implements Key {
        private static final long serialVersionUID = 1L;
        private final String algorithm;
        private final String format;
        private final byte[] encoded;

        ForeignKey(String algorithm, String format, byte[] encoded) {
            this.algorithm = algorithm;
            this.format = format;
            this.encoded = encoded.clone();
        }

        @Override public String getAlgorithm() { return algorithm; }
        @Override public String getFormat() { return format; }
        @Override public byte[] getEncoded() { return encoded.clone(); }
    }

    private static final class ForeignPublicKey extends ForeignKey implements PublicKey {
        ForeignPublicKey(String algorithm, String format, byte[] encoded) { super(algorithm, format, encoded); }
    }

    private static final class ForeignPrivateKey extends ForeignKey implements PrivateKey {
        ForeignPrivateKey(String algorithm, String format, byte[] encoded) { super(algorithm, format, encoded); }
    }
}
