package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * JeroMQ 0.6.0 sometimes leaves a freshly connected TCP socket without its ZMTP handshake (a race
 * in its poller, zeromq/jeromq#1022: 3-10 % of connections on this machine, quiet) until the
 * handshake timer drops it; ZeroMQ's default timer is 30 s. So every socket that connects must set
 * {@link RemoteAppClient#HANDSHAKE_MS}. A test socket without it failed CI at stop 41 (a REQ that
 * never got its reply in 5 s). This check reads the module's sources: any {@code SocketType} that
 * connects over TCP, created into a variable, must have that variable's {@code setHandshakeIvl}.
 */
class HandshakeIntervalGuardTest {
  private static final Pattern CREATED =
      Pattern.compile(
          "(\\w+)\\s*=\\s*\\w+\\.createSocket\\(SocketType\\.(REQ|DEALER|PUSH|SUB|PULL|PUB|ROUTER)\\)");

  @Test
  void everyConnectingSocketSetsTheHandshakeInterval() throws IOException {
    List<String> missing = new ArrayList<>();
    for (Path root : List.of(Path.of("src/main/java"), Path.of("src/test/java"))) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          String text = Files.readString(f);
          Matcher m = CREATED.matcher(text);
          while (m.find()) {
            String var = m.group(1);
            boolean connects = text.contains(var + ".connect(");
            if (connects && !text.contains(var + ".setHandshakeIvl(")) {
              missing.add(f.getFileName() + ": " + var + " (" + m.group(2) + ")");
            }
          }
        }
      }
    }
    assertThat(missing).as("sockets that connect without a handshake interval").isEmpty();
  }
}
