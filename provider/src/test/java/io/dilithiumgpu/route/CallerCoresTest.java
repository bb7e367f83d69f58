package io.dilithiumgpu.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CallerCoresTest {
    @Test
    void theProcessorsUnlessFewerCarriersAreSet() {
        assertEquals(64, CallerCores.of(64, null), "unset: the JDK's default, the processors");
        assertEquals(16, CallerCores.of(64, "16"));
        assertEquals(16, CallerCores.of(64, " 16 "));
        assertEquals(64, CallerCores.of(64, "128"), "more carriers than processors share the processors");
        assertEquals(1, CallerCores.of(64, "1"));
    }

    @Test
    void aSettingThatIsNotAPositiveIntegerLeavesTheProcessors() {
        for (String bad : new String[] {"", "0", "-4", "sixteen", "16.5", "99999999999"}) {
            assertEquals(8, CallerCores.of(8, bad), "\"" + bad + "\"");
        }
    }
}
