package com.example.local;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

// Loops whose every call stays in this process: what they try again is
// local work, whatever goes round. A local process run until it exits
// with 0 (a benchmark's helper), and a factory trying constructor arities
// by reflection (each pass a shorter parameter list).
class LocalByType {
    private final String[] commands;

    LocalByType(String[] commands) {
        this.commands = commands;
    }

    private Process startProcess() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(commands);
        return builder.start();
    }

    void runOnce(Duration timeout) throws Exception {
        Process process = startProcess();
        boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!exited || process.exitValue() != 0) {
            throw new IllegalStateException("command failed");
        }
    }

    void runUntilItWorks(int maxRuns, Duration timeout) throws Exception {
        int runs = 0;
        while (true) {
            try {
                runOnce(timeout);
                break;
            } catch (Exception e) {
                if (++runs > maxRuns) {
                    throw e;
                }
            }
        }
    }

    Object construct(Class<?> type, Method factory, Class<?>[] params, Object[] values) throws Exception {
        for (int arity = params.length; arity >= 1; arity--) {
            try {
                Class<?>[] head = java.util.Arrays.copyOf(params, arity);
                Constructor<?> ctor = type.getConstructor(head);
                return factory.invoke(null, ctor, java.util.Arrays.copyOf(values, arity));
            } catch (NoSuchMethodException ignored) {
            }
        }
        return null;
    }
}
