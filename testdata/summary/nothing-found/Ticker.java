// A Java file the loop reader opens (`while (true)`) and finds nothing in:
// a ticker, no call retried.
public class Ticker {
    private long ticks;

    public void run() throws InterruptedException {
        while (true) {
            ticks++;
            Thread.sleep(1000);
        }
    }
}
