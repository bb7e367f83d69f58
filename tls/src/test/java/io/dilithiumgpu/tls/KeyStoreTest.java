package io.dilithiumgpu.tls;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.dilithiumgpu.key.DilithiumPrivateKey;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;

import javax.net.ssl.SSLContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keys and chains through the JDK's key stores and into a handshake. The JDK reads a stored key
 * with the first installed provider that has a KeyFactory for its algorithm, so this provider is
 * installed for these tests (last: on JDK 24 and later the JDK's own ML-DSA comes first). On JDK
 * 17 this also exercises the JDK's certificate parser, which re-encodes each ML-DSA subject public
 * key with NULL parameters before handing it to this provider's KeyFactory.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyStoreTest {
    private static final char[] PASSWORD = "changeit".toCharArray();
    private static boolean installed;

    @BeforeAll
    static void install() {
        installed = Security.addProvider(MlDsaTls.provider()) != -1;
    }

    @AfterAll
    static void uninstall() {
        if (installed) {
            Security.removeProvider(MlDsaTls.provider().getName());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"})
    void pkcs12RoundTripServesAHandshake(String set) throws Exception {
        Pki pki = Pki.of(set);
        KeyStore loaded = roundTrip("PKCS12", pki.serverKeys().getPrivate(), pki.serverChain());

        Key key = loaded.getKey("server", PASSWORD);
        Certificate[] chain = loaded.getCertificateChain("server");
        assertEquals(set, key.getAlgorithm());
        assertArrayEquals(pki.serverKeys().getPrivate().getEncoded(), key.getEncoded());
        assertEquals(pki.serverChain(), List.of(chain));

        List<X509Certificate> x509 = Arrays.stream(chain).map(X509Certificate.class::cast).toList();
        SSLContext server = MlDsaTls.server((PrivateKey) key, x509).build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).build();
        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome o = EnginePair.handshake(client, server);
        assertTrue(o.succeeded(), () -> "client: " + o.clientFailure() + ", server: " + o.serverFailure());
        assertEquals(3, work.since());
    }

    /** Another provider's ML-DSA key is turned into this provider's once, when the context is built. */
    @Test
    void bouncyCastleKeyIsConvertedOnce() throws Exception {
        Pki pki = Pki.of("ML-DSA-65");
        PrivateKey theirs = java.security.KeyFactory.getInstance("ML-DSA-65", MlDsaTls.bouncyCastle())
                .generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(pki.serverKeys().getPrivate().getEncoded()));
        PrivateKey ours = MlDsaTls.ownKey(theirs, MlDsaTls.provider());
        assertInstanceOf(DilithiumPrivateKey.class, ours);
        assertEquals(pki.serverKeys().getPrivate(), ours);

        SSLContext server = MlDsaTls.server(theirs, pki.serverChain()).build();
        assertTrue(EnginePair.handshake(MlDsaTls.client(List.of(pki.ca())).build(), server).succeeded());
    }

    /**
     * JKS: JDK 17 re-encodes the key with NULL AlgorithmIdentifier parameters before asking the
     * installed KeyFactory for it; this provider reads that, and its key encodes without them.
     */
    @Test
    void jksRoundTrip() throws Exception {
        Pki pki = Pki.of("ML-DSA-44");
        Key key = roundTrip("JKS", pki.serverKeys().getPrivate(), pki.serverChain()).getKey("server", PASSWORD);
        PrivateKey ours = MlDsaTls.ownKey((PrivateKey) key, MlDsaTls.provider());
        assertEquals(pki.serverKeys().getPrivate(), ours);
        assertFalse(hasNullParameters(ours.getEncoded()));
    }

    /** The same on every JDK, from a key encoded the way JDK 17's JKS writes it, into a handshake. */
    @Test
    void nullParametersAreReadAndNeverWritten() throws Exception {
        Pki pki = Pki.of("ML-DSA-44");
        PrivateKey original = pki.serverKeys().getPrivate();
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(original.getEncoded());
        byte[] withNull = new PrivateKeyInfo(new AlgorithmIdentifier(info.getPrivateKeyAlgorithm().getAlgorithm(),
                DERNull.INSTANCE), info.parsePrivateKey()).getEncoded();
        PrivateKey jksStyle = new PrivateKey() {
            @Override
            public String getAlgorithm() {
                return original.getAlgorithm();
            }

            @Override
            public String getFormat() {
                return "PKCS#8";
            }

            @Override
            public byte[] getEncoded() {
                return withNull.clone();
            }
        };
        assertTrue(hasNullParameters(jksStyle.getEncoded()));
        assertArrayEquals(original.getEncoded(), MlDsaTls.ownKey(jksStyle, MlDsaTls.provider()).getEncoded());

        SSLContext server = MlDsaTls.server(jksStyle, pki.serverChain()).build();
        assertTrue(EnginePair.handshake(MlDsaTls.client(List.of(pki.ca())).build(), server).succeeded());
    }

    private static boolean hasNullParameters(byte[] pkcs8) {
        return DERNull.INSTANCE.equals(PrivateKeyInfo.getInstance(pkcs8).getPrivateKeyAlgorithm().getParameters());
    }

    private static KeyStore roundTrip(String type, PrivateKey key, List<X509Certificate> chain) throws Exception {
        KeyStore store = KeyStore.getInstance(type);
        store.load(null, null);
        store.setKeyEntry("server", key, PASSWORD, chain.toArray(new Certificate[0]));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        store.store(bytes, PASSWORD);
        KeyStore loaded = KeyStore.getInstance(type);
        loaded.load(new ByteArrayInputStream(bytes.toByteArray()), PASSWORD);
        return loaded;
    }
}
