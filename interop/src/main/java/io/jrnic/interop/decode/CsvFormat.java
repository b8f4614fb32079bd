package io.jrnic.interop.decode;

/**
 * The CSV form of FPDU records, chosen to equal tshark's {@code -T fields} rendering field for
 * field: opcode as two-digit hex {@code 0x03}; tagged/last as {@code 1}/{@code 0}; STag as
 * {@code 0x} + 8 lowercase hex digits; TO as {@code 0x} + 16; ULPDU_Length, QN, MSN, MO decimal;
 * fields a segment does not carry are empty (STag/TO for untagged, QN/MSN/MO for tagged, all DDP
 * fields when the ULPDU is shorter than its header); crc {@code good}, {@code bad} or {@code off}.
 */
public final class CsvFormat {
    public static final String HEADER = "stream,dir,ulpdu_length,opcode,tagged,last,stag,to,qn,msn,mo,crc";

    private CsvFormat() {
    }

    public static String row(FpduRecord r) {
        StringBuilder b = new StringBuilder(96);
        b.append(r.stream()).append(',').append(r.dir().label()).append(',').append(r.ulpduLength()).append(',');
        if (r.hasControl()) {
            b.append(String.format("0x%02x", r.opcode())).append(',').append(r.tagged() ? 1 : 0).append(',')
                    .append(r.last() ? 1 : 0).append(',');
        } else {
            b.append(",,,");
        }
        if (r.hasTaggedFields()) {
            b.append(String.format("0x%08x,0x%016x,", r.stag(), r.to()));
        } else {
            b.append(",,");
        }
        if (r.hasUntaggedFields()) {
            b.append(r.qn()).append(',').append(r.msn()).append(',').append(r.mo()).append(',');
        } else {
            b.append(",,,");
        }
        return b.append(r.crc().label()).toString();
    }
}
