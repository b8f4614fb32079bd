package io.jrnic.interop.decode;

/** CRC outcome of one FPDU: checked and good, checked and bad, or CRCs not negotiated. */
public enum CrcStatus {
    GOOD, BAD, OFF;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
