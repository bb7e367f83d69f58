package io.dilithiumgpu.spi;

import io.dilithiumgpu.core.PreHash;
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
 * Streaming PH(M) for HashML-DSA (FIPS 204 §5.4): the BouncyCastle digest of each {@link PreHash},
 * so that a HashML-DSA Signature hashes the message as it arrives instead of buffering it.
 */
final class PreHashDigests {
    private PreHashDigests() {}

    /** A fresh digest computing {@code ph}. */
    static Digest create(PreHash ph) {
        switch (ph) {
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
            default: throw new AssertionError(ph);
        }
    }

    /** PH(M) of everything {@code digest} absorbed: {@link PreHash#digestBytes()} bytes. */
    static byte[] finish(Digest digest, PreHash ph) {
        byte[] out = new byte[ph.digestBytes()];
        if (digest instanceof Xof) {
            ((Xof) digest).doFinal(out, 0, out.length);
        } else {
            digest.doFinal(out, 0);
        }
        return out;
    }
}
