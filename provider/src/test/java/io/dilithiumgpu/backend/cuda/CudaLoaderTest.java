package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fatbin half of the loader, which needs no GPU. */
class CudaLoaderTest {

    /** Serves one resource with fixed content, or an unreadable stream. */
    private static ClassLoader serving(String name, byte[] content, boolean failing) {
        return new ClassLoader(null) {
            @Override
            public InputStream getResourceAsStream(String resource) {
                if (!resource.equals(name)) {
                    return null;
                }
                if (failing) {
                    return new InputStream() {
                        @Override
                        public int read() throws IOException {
                            throw new IOException("disk gone");
                        }
                    };
                }
                return new ByteArrayInputStream(content);
            }
        };
    }

    @Test
    void aMissingFatbinIsReportedAsSuch() {
        CudaLoader.Unavailable e = assertThrows(CudaLoader.Unavailable.class,
                () -> CudaLoader.readFatbin(serving("other", new byte[1], false), CudaLoader.FATBIN_RESOURCE));
        assertEquals(CudaLoader.Reason.FATBIN_MISSING, e.reason());
        assertTrue(e.getMessage().contains(CudaLoader.FATBIN_RESOURCE), e.getMessage());
        assertTrue(e.getMessage().contains("not on the classpath"), e.getMessage());
    }

    @Test
    void anEmptyOrUnreadableFatbinIsReportedAsMissing() {
        String r = CudaLoader.FATBIN_RESOURCE;
        CudaLoader.Unavailable empty = assertThrows(CudaLoader.Unavailable.class,
                () -> CudaLoader.readFatbin(serving(r, new byte[0], false), r));
        assertEquals(CudaLoader.Reason.FATBIN_MISSING, empty.reason());
        assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
        CudaLoader.Unavailable unreadable = assertThrows(CudaLoader.Unavailable.class,
                () -> CudaLoader.readFatbin(serving(r, null, true), r));
        assertEquals(CudaLoader.Reason.FATBIN_MISSING, unreadable.reason());
        assertTrue(unreadable.getMessage().contains("disk gone"), unreadable.getMessage());
    }

    @Test
    void aPresentFatbinIsReadWhole() throws CudaLoader.Unavailable {
        byte[] image = new byte[100_000];
        for (int i = 0; i < image.length; i++) {
            image[i] = (byte) (i * 31 + 7);
        }
        assertArrayEquals(image, CudaLoader.readFatbin(serving("k.fatbin", image, false), "k.fatbin"));
    }
}
