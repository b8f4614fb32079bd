package io.jrnic.nvmf.wire;

/** Opcodes and Fabrics command types used here (NVMe base 1.4 figures 139 and 346; Fabrics 1.1 figure 12). */
public final class Opcodes {
    // Admin command set
    public static final int ADMIN_GET_LOG_PAGE = 0x02;
    public static final int ADMIN_IDENTIFY = 0x06;
    public static final int ADMIN_ABORT = 0x08;
    public static final int ADMIN_SET_FEATURES = 0x09;
    public static final int ADMIN_GET_FEATURES = 0x0A;
    public static final int ADMIN_ASYNC_EVENT_REQUEST = 0x0C;
    public static final int ADMIN_KEEP_ALIVE = 0x18;
    // NVM command set
    public static final int IO_FLUSH = 0x00;
    public static final int IO_WRITE = 0x01;
    public static final int IO_READ = 0x02;
    /** Fabrics commands (both queues). */
    public static final int FABRICS = 0x7F;
    public static final int FCTYPE_PROPERTY_SET = 0x00;
    public static final int FCTYPE_CONNECT = 0x01;
    public static final int FCTYPE_PROPERTY_GET = 0x04;
    public static final int FCTYPE_DISCONNECT = 0x08;

    // Identify CNS values
    public static final int CNS_NAMESPACE = 0x00;
    public static final int CNS_CONTROLLER = 0x01;
    public static final int CNS_ACTIVE_NS_LIST = 0x02;
    public static final int CNS_NS_DESCRIPTORS = 0x03;
    public static final int CNS_CS_CONTROLLER = 0x06;

    // Log page identifiers
    public static final int LOG_ERROR = 0x01;
    public static final int LOG_SMART = 0x02;
    public static final int LOG_FIRMWARE_SLOT = 0x03;
    public static final int LOG_CHANGED_NS = 0x04;

    // Feature identifiers
    public static final int FEATURE_VOLATILE_WRITE_CACHE = 0x06;
    public static final int FEATURE_NUMBER_OF_QUEUES = 0x07;
    public static final int FEATURE_ASYNC_EVENT_CONFIG = 0x0B;
    public static final int FEATURE_KEEP_ALIVE_TIMER = 0x0F;

    private Opcodes() {
    }
}
