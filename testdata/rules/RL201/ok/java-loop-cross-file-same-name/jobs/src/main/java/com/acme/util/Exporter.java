package com.acme.util;

import java.io.File;
import java.io.IOException;

public class Exporter {
    public void export(String name) throws IOException {
        new File(name).createNewFile();
    }
}
