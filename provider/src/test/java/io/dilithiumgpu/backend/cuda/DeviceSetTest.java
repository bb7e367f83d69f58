package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What of the device set needs no GPU: which devices it opens. */
class DeviceSetTest {

    @Test
    void opensEveryDeviceUnlessTheConfigurationNamesSome() throws CudaLoader.Unavailable {
        assertEquals(List.of(0, 1, 2), DeviceSet.ordinals(CudaConfig.defaults(), 3));
        CudaConfig second = CudaConfig.builder().devices(List.of(1)).build();
        assertEquals(List.of(1), DeviceSet.ordinals(second, 2));
        assertEquals(List.of(2, 0), DeviceSet.ordinals(CudaConfig.builder().devices(List.of(2, 0)).build(), 4));
    }

    @Test
    void aDeviceTheDriverDoesNotReportIsNoDevice() {
        CudaConfig third = CudaConfig.builder().devices(List.of(0, 2)).build();
        CudaLoader.Unavailable e = assertThrows(CudaLoader.Unavailable.class, () -> DeviceSet.ordinals(third, 2));
        assertEquals(CudaLoader.Reason.NO_DEVICE, e.reason());
        assertTrue(e.getMessage().contains("device 2") && e.getMessage().contains("reports 2"), e.getMessage());
    }
}
