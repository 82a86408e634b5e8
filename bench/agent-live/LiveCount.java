import io.siteflow.agent.capture.live.LiveCapture;
import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * Counts what LiveCapture delivers on an interface until a line arrives on standard input, then prints
 * {@code delivered=N wireBytes=B dropped=D ifDropped=I}. Prints {@code ready} once the handle is open.
 * Run with the java source launcher: {@code java -cp CLASSPATH LiveCount.java IFACE BUFFER_MIB}.
 */
public class LiveCount {
    public static void main(String[] args) throws Exception {
        LiveCapture capture = LiveCapture.builder(args[0]).bufferBytes(Integer.parseInt(args[1]) << 20).build();
        long[] counts = new long[2];
        Thread t = new Thread(() -> {
            try {
                capture.run((ts, lt, data, off, cap, wire) -> {
                    counts[0]++;
                    counts[1] += wire;
                });
            } catch (Exception e) {
                e.printStackTrace();
            }
        });
        t.start();
        System.out.println("ready");
        new BufferedReader(new InputStreamReader(System.in)).readLine();
        capture.stop();
        t.join();
        var s = capture.stats();
        System.out.printf("delivered=%d wireBytes=%d dropped=%d ifDropped=%d%n",
                counts[0], counts[1], s.droppedKernel(), s.droppedInterface());
        capture.close();
    }
}
