import java.net.*;
import java.io.*;

public class MavenWrapperDownloader {

    private static final String DEFAULT_DOWNLOAD_URL =
            "https://repo.maven.apache.org/maven2/io/takari/maven-wrapper/0.4.2/maven-wrapper-0.4.2.jar";

    public static void main(String args[]) throws Exception {
        String url = DEFAULT_DOWNLOAD_URL;
        URL website = new URL(url);
        InputStream in = website.openStream();
        in.close();
    }
}
