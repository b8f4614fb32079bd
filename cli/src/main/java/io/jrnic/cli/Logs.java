package io.jrnic.cli;

/** Logging choices shared by the benchmark commands (SLF4J simple binding, configured by system properties). */
final class Logs {
    static final String JRNIC_LEVEL = "org.slf4j.simpleLogger.log.io.jrnic";

    private Logs() {
    }

    /**
     * Connection INFO lines off unless the user chose a level: a benchmark opens connections per round and
     * their lines would bury its table ({@code JRNIC_JAVA_OPTS=-Dorg.slf4j.simpleLogger.log.io.jrnic=info}
     * brings them back). Call before the first logger of io.jrnic is created.
     */
    static void quietConnections() {
        if (System.getProperty(JRNIC_LEVEL) == null) {
            System.setProperty(JRNIC_LEVEL, "warn");
        }
    }
}
