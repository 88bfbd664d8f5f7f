package io.apiary.ingest.devstack;

import java.util.concurrent.CountDownLatch;

/**
 * Test helper run in a separate JVM by {@link LocalStackIT}: starts a {@link LocalStack}, prints
 * one line {@code STACK kafkaPid=.. cassandraPid=.. registryPid=.. workDir=.. bootstrap=..} and then waits
 * forever, so the test can {@code SIGKILL} this JVM and check that the servers (the schema registry
 * included) die with it.
 */
public final class OrphanCheckMain {

    /** Prefix of the line that reports the started stack. */
    static final String STACK_LINE = "STACK ";

    private OrphanCheckMain() {}

    /**
     * @param args ignored
     * @throws InterruptedException never in practice: the JVM is killed while waiting
     */
    public static void main(String[] args) throws InterruptedException {
        LocalStack stack =
                LocalStack.start(LocalStackOptions.builder().registry(true).build());
        System.out.println(STACK_LINE + "kafkaPid=" + stack.kafka().pid()
                + " cassandraPid=" + stack.cassandra().pid()
                + " registryPid=" + stack.registry().orElseThrow().pid()
                + " workDir=" + stack.workDir()
                + " bootstrap=" + stack.kafkaBootstrapServers());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
