package io.apiary.ingest.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a {@link LocalStack} is started. Immutable and thread-safe; build one with
 * {@link #builder()} or take {@link #defaults()}.
 *
 * <p>Defaults: a fresh work folder {@code apiary-devstack-*} under {@code java.io.tmpdir}, deleted
 * on close; 180 s start timeout per server; 30 s stop timeout per server; classpath files and Java
 * home found automatically (see {@link LocalStack}); Kafka heap {@code -Xms512m -Xmx1g}; Cassandra
 * heap {@code -Xms256m -Xmx1g}; no extra JVM options.
 */
public final class LocalStackOptions {

    private static final Pattern HEAP_SIZE = Pattern.compile("[1-9][0-9]*[kKmMgG]?");

    private final Path workDir;
    private final boolean keepWorkDir;
    private final Duration startTimeout;
    private final Duration stopTimeout;
    private final Path devstackDir;
    private final Path javaHome;
    private final String kafkaInitialHeap;
    private final String kafkaMaxHeap;
    private final String cassandraInitialHeap;
    private final String cassandraMaxHeap;
    private final List<String> kafkaJvmOptions;
    private final List<String> cassandraJvmOptions;
    private final boolean registry;
    private final boolean secure;

    private LocalStackOptions(Builder b) {
        this.workDir = b.workDir;
        this.keepWorkDir = b.keepWorkDir;
        this.startTimeout = b.startTimeout;
        this.stopTimeout = b.stopTimeout;
        this.devstackDir = b.devstackDir;
        this.javaHome = b.javaHome;
        this.kafkaInitialHeap = b.kafkaInitialHeap;
        this.kafkaMaxHeap = b.kafkaMaxHeap;
        this.cassandraInitialHeap = b.cassandraInitialHeap;
        this.cassandraMaxHeap = b.cassandraMaxHeap;
        this.kafkaJvmOptions = List.copyOf(b.kafkaJvmOptions);
        this.cassandraJvmOptions = List.copyOf(b.cassandraJvmOptions);
        this.registry = b.registry;
        this.secure = b.secure;
    }

    /** @return the default options; never {@code null} */
    public static LocalStackOptions defaults() {
        return builder().build();
    }

    /** @return a builder holding the defaults; never {@code null} */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding these options, to derive changed options; never {@code null} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.workDir = workDir;
        b.keepWorkDir = keepWorkDir;
        b.startTimeout = startTimeout;
        b.stopTimeout = stopTimeout;
        b.devstackDir = devstackDir;
        b.javaHome = javaHome;
        b.kafkaInitialHeap = kafkaInitialHeap;
        b.kafkaMaxHeap = kafkaMaxHeap;
        b.cassandraInitialHeap = cassandraInitialHeap;
        b.cassandraMaxHeap = cassandraMaxHeap;
        b.kafkaJvmOptions.addAll(kafkaJvmOptions);
        b.cassandraJvmOptions.addAll(cassandraJvmOptions);
        b.registry = registry;
        b.secure = secure;
        return b;
    }

    /**
     * @return whether the stack also runs a schema registry ({@link RegistryServer}), over HTTPS
     *     only on a secured stack; true by default
     */
    public boolean registry() {
        return registry;
    }

    /**
     * @return whether Kafka and Cassandra are secured ({@link StackSecurity}): Kafka on a SASL_SSL
     *     listener only (SCRAM-SHA-512, {@code StandardAuthorizer}), Cassandra with client TLS
     *     required and {@code PasswordAuthenticator}, the schema registry (if {@link #registry()})
     *     on HTTPS only, certificates made for the run; false by default
     */
    public boolean secure() {
        return secure;
    }

    /** @return the work folder asked for; empty for a fresh temporary folder */
    public Optional<Path> workDir() {
        return Optional.ofNullable(workDir);
    }

    /** @return whether the work folder is kept after {@link LocalStack#close()} */
    public boolean keepWorkDir() {
        return keepWorkDir;
    }

    /** @return how long each server may take to become ready; positive */
    public Duration startTimeout() {
        return startTimeout;
    }

    /** @return how long each server may take to stop after SIGTERM before it is killed; positive */
    public Duration stopTimeout() {
        return stopTimeout;
    }

    /** @return the folder holding {@code kafka-server/classpath.txt} and
     *     {@code cassandra-server/classpath.txt}; empty to locate it automatically */
    public Optional<Path> devstackDir() {
        return Optional.ofNullable(devstackDir);
    }

    /** @return the Java home used to run the servers; empty to locate a Java 17 automatically */
    public Optional<Path> javaHome() {
        return Optional.ofNullable(javaHome);
    }

    /** @return Kafka's initial heap as given to {@code -Xms}, e.g. {@code 512m} */
    public String kafkaInitialHeap() {
        return kafkaInitialHeap;
    }

    /** @return Kafka's maximum heap as given to {@code -Xmx}, e.g. {@code 1g} */
    public String kafkaMaxHeap() {
        return kafkaMaxHeap;
    }

    /** @return Cassandra's initial heap as given to {@code -Xms}, e.g. {@code 256m} */
    public String cassandraInitialHeap() {
        return cassandraInitialHeap;
    }

    /** @return Cassandra's maximum heap as given to {@code -Xmx}, e.g. {@code 1g} */
    public String cassandraMaxHeap() {
        return cassandraMaxHeap;
    }

    /** @return extra JVM options appended to Kafka's command line; unmodifiable */
    public List<String> kafkaJvmOptions() {
        return kafkaJvmOptions;
    }

    /** @return extra JVM options appended to Cassandra's command line; unmodifiable */
    public List<String> cassandraJvmOptions() {
        return cassandraJvmOptions;
    }

    @Override
    public String toString() {
        return "LocalStackOptions[workDir=" + workDir + ", keepWorkDir=" + keepWorkDir
                + ", startTimeout=" + startTimeout + ", stopTimeout=" + stopTimeout
                + ", devstackDir=" + devstackDir + ", javaHome=" + javaHome
                + ", kafkaHeap=" + kafkaInitialHeap + "/" + kafkaMaxHeap
                + ", cassandraHeap=" + cassandraInitialHeap + "/" + cassandraMaxHeap
                + ", kafkaJvmOptions=" + kafkaJvmOptions
                + ", cassandraJvmOptions=" + cassandraJvmOptions + ", registry=" + registry + ", secure=" + secure
                + "]";
    }

    /** Mutable builder of {@link LocalStackOptions}; not thread-safe. */
    public static final class Builder {
        private Path workDir;
        private boolean keepWorkDir;
        private Duration startTimeout = Duration.ofSeconds(180);
        private Duration stopTimeout = Duration.ofSeconds(30);
        private Path devstackDir;
        private Path javaHome;
        private String kafkaInitialHeap = "512m";
        private String kafkaMaxHeap = "1g";
        private String cassandraInitialHeap = "256m";
        private String cassandraMaxHeap = "1g";
        private final List<String> kafkaJvmOptions = new ArrayList<>();
        private final List<String> cassandraJvmOptions = new ArrayList<>();
        private boolean registry = true;
        private boolean secure;

        private Builder() {}

        /**
         * @param dir the work folder: created if missing, and it must then be empty; {@code null}
         *            for a fresh temporary folder. Deleted on close unless {@link #keepWorkDir}.
         * @return this builder
         */
        public Builder workDir(Path dir) {
            this.workDir = dir == null ? null : dir.toAbsolutePath().normalize();
            return this;
        }

        /**
         * @param keep whether to keep the work folder after close
         * @return this builder
         */
        public Builder keepWorkDir(boolean keep) {
            this.keepWorkDir = keep;
            return this;
        }

        /**
         * @param timeout how long each server may take to become ready; positive, not null
         * @return this builder
         * @throws IllegalArgumentException if the timeout is not positive
         */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = positive(timeout, "startTimeout");
            return this;
        }

        /**
         * @param timeout how long a server may take to stop after SIGTERM; positive, not null
         * @return this builder
         * @throws IllegalArgumentException if the timeout is not positive
         */
        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = positive(timeout, "stopTimeout");
            return this;
        }

        /**
         * @param dir folder holding the server classpath files, {@code null} to locate it
         * @return this builder
         */
        public Builder devstackDir(Path dir) {
            this.devstackDir = dir;
            return this;
        }

        /**
         * @param home a Java 17 home to run the servers, {@code null} to locate one
         * @return this builder
         */
        public Builder javaHome(Path home) {
            this.javaHome = home;
            return this;
        }

        /**
         * @param initial Kafka's {@code -Xms} value, e.g. {@code 512m}
         * @param max     Kafka's {@code -Xmx} value, e.g. {@code 1g}
         * @return this builder
         * @throws IllegalArgumentException if a value is not a JVM heap size
         */
        public Builder kafkaHeap(String initial, String max) {
            this.kafkaInitialHeap = heap(initial);
            this.kafkaMaxHeap = heap(max);
            return this;
        }

        /**
         * @param initial Cassandra's {@code -Xms} value, e.g. {@code 256m}
         * @param max     Cassandra's {@code -Xmx} value, e.g. {@code 1g}
         * @return this builder
         * @throws IllegalArgumentException if a value is not a JVM heap size
         */
        public Builder cassandraHeap(String initial, String max) {
            this.cassandraInitialHeap = heap(initial);
            this.cassandraMaxHeap = heap(max);
            return this;
        }

        /**
         * @param option an extra JVM option for Kafka, not null
         * @return this builder
         */
        public Builder addKafkaJvmOption(String option) {
            kafkaJvmOptions.add(Objects.requireNonNull(option, "option"));
            return this;
        }

        /**
         * @param option an extra JVM option for Cassandra, not null
         * @return this builder
         */
        public Builder addCassandraJvmOption(String option) {
            cassandraJvmOptions.add(Objects.requireNonNull(option, "option"));
            return this;
        }

        /**
         * @param run whether the stack also starts a schema registry ({@link RegistryServer}),
         *            beside Kafka and Cassandra (the default: the topics' wire format needs one)
         * @return this builder
         */
        public Builder registry(boolean run) {
            this.registry = run;
            return this;
        }

        /**
         * @param secured whether Kafka and Cassandra are secured (see {@link
         *                LocalStackOptions#secure()}); a secured stack's schema registry, if
         *                {@link #registry}, serves HTTPS only with the run's certificate
         * @return this builder
         */
        public Builder secure(boolean secured) {
            this.secure = secured;
            return this;
        }

        /** @return the immutable options; never {@code null} */
        public LocalStackOptions build() {
            return new LocalStackOptions(this);
        }

        private static Duration positive(Duration d, String name) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be a positive duration, got " + d);
            }
            return d;
        }

        private static String heap(String size) {
            if (size == null || !HEAP_SIZE.matcher(size).matches()) {
                throw new IllegalArgumentException(
                        "heap size must look like 256m, 1g or 1048576 (as for -Xmx), got " + size);
            }
            return size;
        }
    }
}
