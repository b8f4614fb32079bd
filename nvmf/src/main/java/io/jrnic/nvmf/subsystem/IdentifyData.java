package io.jrnic.nvmf.subsystem;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The data structures the admin commands return (NVMe base 1.4 section 5.15 Identify, 5.14 Get
 * Log Page; NVMe over Fabrics 1.1 section 4.1 for the fabrics fields of Identify Controller).
 * Each is 4096 octets (Identify) or the log page's size, little-endian.
 */
final class IdentifyData {
    static final int SIZE = 4096;
    /** Version 1.3.0 (VS property and VER field). */
    static final int VERSION = 0x0001_0300;
    static final String FIRMWARE = "0.1";

    private IdentifyData() {
    }

    /** Identify Controller (CNS 01h). */
    static ByteBuffer controller(NvmfTarget.Config cfg, int cntlid) {
        ByteBuffer b = le(SIZE);
        ascii(b, 4, 20, serial(cfg.subsystemNqn()));       // SN
        ascii(b, 24, 40, "jrnic NVMe-oF target");          // MN
        ascii(b, 64, 8, FIRMWARE);                         // FR
        b.put(72, (byte) 6);                               // RAB
        b.put(77, (byte) mdts(cfg.maxTransfer()));         // MDTS, in 4 KiB (CAP.MPSMIN) units, log2
        b.putShort(78, (short) cntlid);                    // CNTLID
        b.putInt(80, VERSION);                             // VER
        b.putInt(96, 1 | 1 << 6);                          // CTRATT: 128-bit host identifier, TBKAS
        b.put(111, (byte) 1);                              // CNTRLTYPE: I/O controller
        b.put(258, (byte) 3);                              // ACL (0's based)
        b.put(259, (byte) (NvmfTarget.AER_LIMIT - 1));     // AERL (0's based)
        b.put(260, (byte) 0x03);                           // FRMW: 1 slot, slot 1 read only
        b.put(261, (byte) 0x04);                           // LPA bit 2: extended Get Log Page (NUMDU, LPO)
        b.put(262, (byte) 0);                              // ELPE: 1 error log entry
        b.putShort(320, (short) NvmfTarget.KAS);           // KAS, 100 ms units
        b.put(512, (byte) 0x66);                           // SQES: 64 octets
        b.put(513, (byte) 0x44);                           // CQES: 16 octets
        b.putShort(514, (short) cfg.queueDepth());         // MAXCMD
        b.putInt(516, 1);                                  // NN: one namespace
        b.put(525, (byte) 1);                              // VWC present: hosts send Flush
        // SGLS: bits 1:0 = 01b SGLs supported (byte aligned), bit 2 keyed SGL data block,
        // bit 20 Address as offset for SGL Data Block (in-capsule data).
        b.putInt(536, 0x1 | 1 << 2 | 1 << 20);
        ascii0(b, 768, 256, cfg.subsystemNqn());           // SUBNQN
        b.putInt(1792, (SQE_SIZE + cfg.inCapsuleData()) / 16); // IOCCSZ
        b.putInt(1796, 1);                                 // IORCSZ: 16 octets
        b.putShort(1800, (short) 0);                       // ICDOFF
        b.put(1802, (byte) 0);                             // FCATT: dynamic controller model
        b.put(1803, (byte) 1);                             // MSDBD: one SGL descriptor
        return b;
    }

    private static final int SQE_SIZE = io.jrnic.nvmf.wire.Sqe.SIZE;

    static int mdts(int maxTransfer) {
        return Integer.numberOfTrailingZeros(maxTransfer / 4096);
    }

    /** Identify Namespace (CNS 00h), one LBA format. */
    static ByteBuffer namespace(Namespace ns, String subnqn, int nsid) {
        ByteBuffer b = le(SIZE);
        b.putLong(0, ns.blocks());                         // NSZE
        b.putLong(8, ns.blocks());                         // NCAP
        b.putLong(16, ns.blocks());                        // NUSE
        b.put(25, (byte) 0);                               // NLBAF (0's based)
        b.put(26, (byte) 0);                               // FLBAS: format 0
        b.put(104, nguid(subnqn, nsid));                   // NGUID
        b.putInt(128, Integer.numberOfTrailingZeros(ns.blockSize()) << 16); // LBAF0: LBADS
        return b;
    }

    /** Active Namespace ID list (CNS 02h): the NSIDs above {@code after}. */
    static ByteBuffer activeNamespaces(int after) {
        ByteBuffer b = le(SIZE);
        if (Integer.compareUnsigned(after, 1) < 0) {
            b.putInt(0, 1);
        }
        return b;
    }

    /** Namespace Identification Descriptor list (CNS 03h): NGUID (type 2) and UUID (type 3). */
    static ByteBuffer namespaceDescriptors(String subnqn, int nsid) {
        ByteBuffer b = le(SIZE);
        byte[] id = nguid(subnqn, nsid);
        b.put(0, (byte) 2).put(1, (byte) 16).put(4, id);
        byte[] uuid = id.clone();
        uuid[6] = (byte) ((uuid[6] & 0x0F) | 0x80);        // version 8 (custom), RFC 9562
        uuid[8] = (byte) ((uuid[8] & 0x3F) | 0x80);        // variant 10b
        b.put(20, (byte) 3).put(21, (byte) 16).put(24, uuid);
        return b;
    }

    /** SMART / Health Information log (02h), 512 octets. */
    static ByteBuffer smartLog(long unitsRead, long unitsWritten, long reads, long writes) {
        ByteBuffer b = le(512);
        b.putShort(1, (short) 300);                        // composite temperature, kelvin
        b.put(3, (byte) 100);                              // available spare %
        b.put(4, (byte) 10);                               // available spare threshold %
        b.putLong(32, unitsRead);                          // data units read (1000 x 512 octets)
        b.putLong(48, unitsWritten);
        b.putLong(64, reads);                              // host read commands
        b.putLong(80, writes);
        return b;
    }

    /** Firmware Slot Information log (03h), 512 octets: slot 1 active. */
    static ByteBuffer firmwareLog() {
        ByteBuffer b = le(512);
        b.put(0, (byte) 1);                                // AFI: slot 1
        ascii(b, 8, 8, FIRMWARE);                          // FRS1
        return b;
    }

    static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Space-padded ASCII field. */
    private static void ascii(ByteBuffer b, int at, int len, String s) {
        byte[] v = s.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < len; i++) {
            b.put(at + i, i < v.length ? v[i] : (byte) ' ');
        }
    }

    /** NUL-padded UTF-8 field. */
    private static void ascii0(ByteBuffer b, int at, int len, String s) {
        byte[] v = s.getBytes(StandardCharsets.UTF_8);
        b.put(at, v, 0, Math.min(v.length, len - 1));
    }

    private static String serial(String nqn) {
        return String.format("%016x", java.util.Arrays.hashCode(sha256(nqn)) & 0xFFFF_FFFFL);
    }

    static byte[] nguid(String subnqn, int nsid) {
        byte[] h = sha256(subnqn + "/" + nsid);
        byte[] id = new byte[16];
        System.arraycopy(h, 0, id, 0, 16);
        return id;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
