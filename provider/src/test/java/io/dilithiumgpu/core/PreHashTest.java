package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.MessageDigest;
import java.util.Random;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class PreHashTest {

    @ParameterizedTest
    @CsvSource({
        "SHA2_224, SHA2-224, 2.16.840.1.101.3.4.2.4, 28, SHA-224",
        "SHA2_256, SHA2-256, 2.16.840.1.101.3.4.2.1, 32, SHA-256",
        "SHA2_384, SHA2-384, 2.16.840.1.101.3.4.2.2, 48, SHA-384",
        "SHA2_512, SHA2-512, 2.16.840.1.101.3.4.2.3, 64, SHA-512",
        "SHA2_512_224, SHA2-512/224, 2.16.840.1.101.3.4.2.5, 28, SHA-512/224",
        "SHA2_512_256, SHA2-512/256, 2.16.840.1.101.3.4.2.6, 32, SHA-512/256",
        "SHA3_224, SHA3-224, 2.16.840.1.101.3.4.2.7, 28, SHA3-224",
        "SHA3_256, SHA3-256, 2.16.840.1.101.3.4.2.8, 32, SHA3-256",
        "SHA3_384, SHA3-384, 2.16.840.1.101.3.4.2.9, 48, SHA3-384",
        "SHA3_512, SHA3-512, 2.16.840.1.101.3.4.2.10, 64, SHA3-512",
        "SHAKE_128, SHAKE-128, 2.16.840.1.101.3.4.2.11, 32, ",
        "SHAKE_256, SHAKE-256, 2.16.840.1.101.3.4.2.12, 64, ",
    })
    void namesOidsLengthsAndDigests(PreHash ph, String acvpName, String oid, int bytes, String jdkName)
            throws Exception {
        assertEquals(acvpName, ph.acvpName());
        assertEquals(ph, PreHash.forAcvpName(acvpName));
        assertArrayEquals(new ASN1ObjectIdentifier(oid).getEncoded(), ph.oidDer());
        assertEquals(bytes, ph.digestBytes());

        byte[] message = new byte[1000];
        new Random(bytes).nextBytes(message);
        byte[] expected;
        if (jdkName != null) {
            expected = MessageDigest.getInstance(jdkName).digest(message);
        } else {
            SHAKEDigest shake = new SHAKEDigest(ph == PreHash.SHAKE_128 ? 128 : 256);
            shake.update(message, 0, message.length);
            expected = new byte[bytes];
            shake.doFinal(expected, 0, bytes);
        }
        assertArrayEquals(expected, ph.digest(message));
        assertArrayEquals(expected, ph.hasher().update(message, 0, 300).update(message, 300, 700).finish());
    }

    @ParameterizedTest
    @EnumSource(PreHash.class)
    void oidsAgreeWithBouncyCastle(PreHash ph) throws Exception {
        ASN1ObjectIdentifier[] bc = {
            NISTObjectIdentifiers.id_sha224, NISTObjectIdentifiers.id_sha256, NISTObjectIdentifiers.id_sha384,
            NISTObjectIdentifiers.id_sha512, NISTObjectIdentifiers.id_sha512_224, NISTObjectIdentifiers.id_sha512_256,
            NISTObjectIdentifiers.id_sha3_224, NISTObjectIdentifiers.id_sha3_256, NISTObjectIdentifiers.id_sha3_384,
            NISTObjectIdentifiers.id_sha3_512, NISTObjectIdentifiers.id_shake128, NISTObjectIdentifiers.id_shake256,
        };
        assertArrayEquals(bc[ph.ordinal()].getEncoded(), ph.oidDer());
    }

    @org.junit.jupiter.api.Test
    void unknownNameAndSpentHasher() {
        assertThrows(IllegalArgumentException.class, () -> PreHash.forAcvpName("MD5"));
        PreHash.Hasher h = PreHash.SHA2_256.hasher();
        h.finish();
        assertThrows(IllegalStateException.class, h::finish);
        assertThrows(IllegalStateException.class, () -> h.update(new byte[1], 0, 1));
    }
}
