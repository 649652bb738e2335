import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import javax.servlet.http.HttpServletResponse;

// The output of a local child process copied to the servlet's response,
// then `proc.exitValue()` asked until the process has ended: it throws
// `IllegalThreadStateException` while the subprocess still runs (JDK
// `Process.exitValue`), the only failure that goes round. A wait for a
// process of this host, not a retry of a remote call (apache/tomcat
// `CGIServlet`, twenty-sixth pass).
class ChildOutput {
    void copy(Process proc, HttpServletResponse response) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(proc.getInputStream()));
        boolean running = true;
        while (running) {
            try {
                String line;
                while ((line = reader.readLine()) != null && !line.isEmpty()) {
                    response.addHeader("X-Child", line);
                }
                OutputStream out = response.getOutputStream();
                out.flush();
                proc.exitValue();
                running = false;
            } catch (IllegalThreadStateException e) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException ignored) {
                    // go on waiting
                }
            }
        }
    }
}
