package com.acme.index;

import java.io.File;
import java.io.FileWriter;
import java.io.IOException;

public class LocalIndexWriter {
    public void rebuild(String path) throws IOException {
        File target = new File(path, "index.dat");
        FileWriter out = new FileWriter(target);
        out.write(header());
        out.close();
    }

    private String header() {
        return "index v1";
    }
}
