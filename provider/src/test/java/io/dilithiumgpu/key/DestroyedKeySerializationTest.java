package io.dilithiumgpu.key;

import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;

/** A destroyed private key has nothing to write: serializing it is an {@link java.io.IOException}. */
class DestroyedKeySerializationTest {
    @Test
    void serializingADestroyedKeyIsNotSerializable() throws Exception {
        DilithiumPrivateKey key = (DilithiumPrivateKey) keyPair("ML-DSA-44").getPrivate();
        key.destroy();
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            NotSerializableException e = assertThrows(NotSerializableException.class, () -> out.writeObject(key));
            assertTrue(e.getMessage().contains("destroyed"), e.getMessage());
        }
    }
}
