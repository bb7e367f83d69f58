package io.dilithiumgpu.core;

import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.Xof;
import org.bouncycastle.crypto.digests.SHA224Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.digests.SHA384Digest;
import org.bouncycastle.crypto.digests.SHA3Digest;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.digests.SHA512tDigest;
import org.bouncycastle.crypto.digests.SHAKEDigest;

/**
 * The pre-hash functions of HashML-DSA (FIPS 204 §5.4, and the ones NIST's ACVP server tests),
 * with their DER-encoded OIDs (all under 2.16.840.1.101.3.4.2, NIST hash algorithms). Digests
 * come from BouncyCastle.
 */
public enum PreHash {
    SHA2_224("SHA2-224", 4, 28),
    SHA2_256("SHA2-256", 1, 32),
    SHA2_384("SHA2-384", 2, 48),
    SHA2_512("SHA2-512", 3, 64),
    SHA2_512_224("SHA2-512/224", 5, 28),
    SHA2_512_256("SHA2-512/256", 6, 32),
    SHA3_224("SHA3-224", 7, 28),
    SHA3_256("SHA3-256", 8, 32),
    SHA3_384("SHA3-384", 9, 48),
    SHA3_512("SHA3-512", 10, 64),
    /** SHAKE128 with 256 bits of output (FIPS 204 §5.4.1). */
    SHAKE_128("SHAKE-128", 11, 32),
    /** SHAKE256 with 512 bits of output (FIPS 204 §5.4.1). */
    SHAKE_256("SHAKE-256", 12, 64);

    private final String acvpName;
    private final byte[] oidDer;
    private final int digestBytes;

    PreHash(String acvpName, int lastArc, int digestBytes) {
        this.acvpName = acvpName;
        // DER of 2.16.840.1.101.3.4.2.lastArc: tag 06, length 9, 60 86 48 01 65 03 04 02, arc
        this.oidDer = new byte[] {
            0x06, 0x09, 0x60, (byte) 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, (byte) lastArc
        };
        this.digestBytes = digestBytes;
    }

    /** The ACVP name: {@code SHA2-256}, {@code SHA2-512/224}, {@code SHA3-384}, {@code SHAKE-128}, .... */
    public String acvpName() {
        return acvpName;
    }

    /** Bytes of PH(M): the digest length; 32 for SHAKE-128 and 64 for SHAKE-256 (FIPS 204 §5.4.1). */
    public int digestBytes() {
        return digestBytes;
    }

    /** The full DER encoding of the hash function's OID (tag 06, length, value). */
    public byte[] oidDer() {
        return oidDer.clone();
    }

    /** PH(M) over a whole message. */
    public byte[] digest(byte[] message) {
        return hasher().update(message, 0, message.length).finish();
    }

    /** A streaming PH(M), for messages fed in pieces. */
    public Hasher hasher() {
        return new Hasher(this);
    }

    /** @throws IllegalArgumentException for an unknown name */
    public static PreHash forAcvpName(String name) {
        for (PreHash ph : values()) {
            if (ph.acvpName.equals(name)) {
                return ph;
            }
        }
        throw new IllegalArgumentException("unknown HashML-DSA pre-hash function: " + name);
    }

    private Digest newDigest() {
        switch (this) {
            case SHA2_224: return new SHA224Digest();
            case SHA2_256: return new SHA256Digest();
            case SHA2_384: return new SHA384Digest();
            case SHA2_512: return new SHA512Digest();
            case SHA2_512_224: return new SHA512tDigest(224);
            case SHA2_512_256: return new SHA512tDigest(256);
            case SHA3_224: return new SHA3Digest(224);
            case SHA3_256: return new SHA3Digest(256);
            case SHA3_384: return new SHA3Digest(384);
            case SHA3_512: return new SHA3Digest(512);
            case SHAKE_128: return new SHAKEDigest(128);
            case SHAKE_256: return new SHAKEDigest(256);
            default: throw new AssertionError(this);
        }
    }

    /** Streaming PH(M). Single use: after {@link #finish()} the hasher is spent. */
    public static final class Hasher {
        private final PreHash function;
        private final Digest digest;
        private boolean finished;

        private Hasher(PreHash function) {
            this.function = function;
            this.digest = function.newDigest();
        }

        public Hasher update(byte[] in, int off, int len) {
            if (finished) {
                throw new IllegalStateException("PreHash.Hasher already finished");
            }
            digest.update(in, off, len);
            return this;
        }

        /** PH(M), {@link PreHash#digestBytes()} long. */
        public byte[] finish() {
            if (finished) {
                throw new IllegalStateException("PreHash.Hasher already finished");
            }
            finished = true;
            byte[] out = new byte[function.digestBytes];
            if (digest instanceof Xof) {
                ((Xof) digest).doFinal(out, 0, out.length);
            } else {
                digest.doFinal(out, 0);
            }
            return out;
        }
    }
}
