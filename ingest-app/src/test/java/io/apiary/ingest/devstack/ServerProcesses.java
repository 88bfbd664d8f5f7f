package io.apiary.ingest.devstack;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Test helper: finds live processes by what their command line mentions. */
final class ServerProcesses {

    private ServerProcesses() {}

    /** @return live processes whose command line mentions the given work folder */
    static List<ProcessHandle> mentioning(Path workDir) {
        String needle = workDir.toString();
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().map(c -> c.contains(needle)).orElse(false))
                .collect(Collectors.toList());
    }

    /** @return whether a process with this pid is alive */
    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
