package com.example.fallback;

// Tried again with a setting switched off after a failure
// (`optimize = false`): a fallback, not a retry of the same call.
class Fallback {
    interface Merger {
        byte[] merge(byte[] code, boolean optimize);
    }

    byte[] mergeWithFallback(Merger merger, byte[] code, boolean strict) {
        boolean optimize = true;
        while (true) {
            try {
                return merger.merge(code, optimize);
            } catch (RuntimeException e) {
                if (!optimize || strict) {
                    throw e;
                }
                System.err.println("optimized merge failed, trying without");
                optimize = false;
            }
        }
    }
}
