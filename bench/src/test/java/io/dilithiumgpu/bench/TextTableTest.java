package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextTableTest {

    @Test
    void textLeftNumbersRightOneRuleUnderTheHeader() {
        String out = new TextTable("set", "op", "ops/s")
                .row("ML-DSA-44", "sign", "1,234")
                .row("Dilithium5", "verify", "98,765,432")
                .render();
        String expected = ""
                + "set         op           ops/s\n"
                + "------------------------------\n"
                + "ML-DSA-44   sign         1,234\n"
                + "Dilithium5  verify  98,765,432\n";
        assertEquals(expected, out);
    }

    @Test
    void missingValuesKeepAColumnNumeric() {
        String out = new TextTable("a", "b").row("x", "—").row("y", "12").render();
        assertTrue(out.contains("x   —\n"), out);
        assertTrue(out.contains("y  12\n"), out);
    }

    @Test
    void rowWidthMustMatch() {
        assertThrows(IllegalArgumentException.class, () -> new TextTable("a", "b").row("only one"));
    }

    @Test
    void numericCells() {
        assertTrue(TextTable.looksNumeric("12"));
        assertTrue(TextTable.looksNumeric("-3"));
        assertTrue(TextTable.looksNumeric("87%"));
        assertTrue(TextTable.looksNumeric("—"));
        assertTrue(TextTable.looksNumeric("<1%"));
        assertFalse(TextTable.looksNumeric("-"));
        assertFalse(TextTable.looksNumeric("cuda"));
    }
}
