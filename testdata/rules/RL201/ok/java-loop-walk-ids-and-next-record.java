package com.example.walks;

import java.io.DataInputStream;
import java.io.FileNotFoundException;
import java.util.function.Predicate;

// Each pass asks for another item: a walk down ids handed to the call
// (a missing one skipped), and a reader that skips a bad record and
// returns the next one.
class Walks {
    interface Versions {
        Long newest();
        Long oldest();
        Version load(long id) throws FileNotFoundException;
    }

    interface Version {
        long id();
    }

    Long newestMatching(Versions versions, Predicate<Version> wanted) {
        Long newest = versions.newest();
        Long oldest = versions.oldest();
        for (long versionId = newest; versionId >= oldest; versionId--) {
            try {
                Version v = versions.load(versionId);
                if (wanted.test(v)) {
                    return v.id();
                }
            } catch (FileNotFoundException ignored) {
            }
        }
        return newest;
    }

    private final DataInputStream in;

    Walks(DataInputStream in) {
        this.in = in;
    }

    Object nextRecord(DataInputStream from) throws Exception {
        return from.readUTF();
    }

    Object read() throws Exception {
        while (true) {
            try {
                return nextRecord(in);
            } catch (java.io.IOException e) {
                throw e;
            } catch (Exception e) {
                System.err.println("skipping a bad record " + e);
            }
        }
    }
}
