package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatusCliTest {

    @Test
    @Timeout(120)
    void printsTheStatusThenTheSelfTest() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertEquals(Cli.OK, Cli.run(new String[] {"status"}, out, out));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("dilithium-gpu " + System.getProperty("project.version") + ": backend "), text);
        assertTrue(text.contains("\n  reason: dilithiumgpu.backend="), text);
        assertTrue(text.endsWith("self-test passed: 24 known answers\n"), text);

        bytes.reset();
        assertEquals(Cli.OK, Cli.run(new String[] {"status", "--no-self-test"}, out, out));
        assertFalse(bytes.toString(StandardCharsets.UTF_8).contains("self-test"));
    }
}
