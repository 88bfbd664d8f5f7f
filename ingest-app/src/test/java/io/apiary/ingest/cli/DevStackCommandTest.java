package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code devstack restart|stop|start}: their arguments and errors, without a stack (LocalStackIT runs them on one). */
class DevStackCommandTest {

    @TempDir
    Path work;

    @Test
    void restart_of_a_folder_no_devstack_serves_exits_1_naming_the_folder() {
        CliRun run = CliRun.of("devstack", "restart", "kafka", "--kill", "--work-dir", work.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("error: No local stack serves " + work);
    }

    @Test
    void stop_takes_the_work_folder_from_the_settings_file() {
        CliRun run = CliRun.of(
                "devstack",
                "stop",
                "cassandra",
                "--config",
                work.resolve("apiary-devstack.properties").toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("No local stack serves " + work);
    }

    @Test
    void an_unknown_server_is_refused_naming_the_servers() {
        CliRun run = CliRun.of("devstack", "restart", "zookeeper", "--work-dir", work.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("no server 'zookeeper' in the local stack: kafka, cassandra or registry");
    }

    @Test
    void needs_exactly_one_of_the_work_folder_and_the_settings_file() {
        CliRun neither = CliRun.of("devstack", "start", "kafka");
        CliRun both = CliRun.of("devstack", "start", "kafka", "--work-dir", "a", "--config", "b");

        assertThat(neither.exit()).isEqualTo(2);
        assertThat(neither.err()).contains("give the running devstack's --work-dir or its settings file (--config)");
        assertThat(both.exit()).isEqualTo(2);
    }

    @Test
    void start_has_no_kill_option() {
        CliRun run = CliRun.of("devstack", "start", "kafka", "--kill", "--work-dir", work.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--kill'");
    }
}
