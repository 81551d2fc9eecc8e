package org.netpubsub.edge.overlay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * ZooKeeper's four-letter words ({@code mntr}, {@code srst}, ...), which {@link EmbeddedZooKeeper}
 * allows: the server's own counters and latencies, read by the join benchmark (nps-bench) and by
 * tests that count a cache's reads.
 */
public final class FourLetterWords {
  private FourLetterWords() {}

  /** ZooKeeper's {@code mntr} four-letter word as key → value. */
  public static Map<String, String> mntr(InetSocketAddress server) throws IOException {
    String text = send(server, "mntr");
    Map<String, String> out = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] kv = line.split("\t", 2);
      if (kv.length == 2) {
        out.put(kv[0].strip(), kv[1].strip());
      }
    }
    return out;
  }

  /** Sends {@code word} and returns the server's whole answer. */
  public static String send(InetSocketAddress server, String word) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(server, 5000);
      s.setSoTimeout(5000);
      OutputStream o = s.getOutputStream();
      o.write(word.getBytes(StandardCharsets.US_ASCII));
      o.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
