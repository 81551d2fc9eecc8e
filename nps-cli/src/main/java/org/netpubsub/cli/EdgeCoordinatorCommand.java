package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.netpubsub.edge.coordinator.EdgeCoordinator;
import org.netpubsub.http.PortInUseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps edge-coordinator}: the SNAPS edge coordinator (docs/edge.md) until SIGTERM/Ctrl-C. */
@Command(
    name = "edge-coordinator",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs the edge coordinator: edge agents register, report the topic filters their MQTT"
          + " brokers' clients hold, ask where a topic's messages go and long-poll for changes"
          + " (REST, docs/edge.md). State is kept in SQLite. Without --controller the routes"
          + " spray one datagram per member edge; with it, the network controller replicates"
          + " (one group per topic). Stops on SIGTERM or Ctrl-C."
    })
final class EdgeCoordinatorCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Mixin ServerOptions server;

  @Mixin AuthOptions auth;

  @Mixin TlsServerOptions tls;

  @Option(
      names = "--controller-token-file",
      paramLabel = "FILE",
      description =
          "Network mode with an authenticating controller: the file of the coordinator's bearer"
              + " token there (its principal needs the admin right groups).")
  java.nio.file.Path controllerTokenFile;

  @Option(
      names = "--controller-ca",
      paramLabel = "FILE",
      description =
          "Network mode with an https controller: the CA certificate (PEM) that signed its"
              + " certificate. Default: the JDK's trusted CAs.")
  java.nio.file.Path controllerCa;

  @Option(
      names = "--datagram-key",
      paramLabel = "FILE",
      description =
          "Hand this datagram key file's keys to the edge agents (GET /v1/edges/{name}/keys, to a"
              + " principal that may act as that edge; needs --auth). Read again at each request, so"
              + " rotate by editing it (docs/security.md).")
  java.nio.file.Path datagramKey;

  @Option(
      names = "--revoked-edges",
      paramLabel = "FILE",
      description =
          "Edges revoked here, one name a line (# comments; needs --datagram-key). Read again when"
              + " it changed, at each keys request, registration and report, and every 5 s: a"
              + " revoked edge gets no keys (403), leaves routing (removed as if it had left), may"
              + " not register or report (403), and every agent started with --coordinator-keys"
              + " refuses its datagrams from its next refresh (docs/security-revocation.md).")
  java.nio.file.Path revokedEdges;

  @Option(
      names = "--rotate-on-revoke",
      paramLabel = "GRACE",
      description =
          "When --revoked-edges names a new edge, rotate the --datagram-key file: a fresh key signs"
              + " from each agent's next refresh, the old keys are accepted for GRACE (e.g. 2m)"
              + " and then dropped. Only if every deployment-key holder takes its keys from this"
              + " coordinator (--coordinator-keys); state in FILE.rotation"
              + " (docs/security-datagrams.md).")
  String rotateOnRevoke;

  @Spec CommandSpec spec;

  @Option(
      names = "--listen",
      defaultValue = "127.0.0.1:7080",
      paramLabel = "HOST:PORT",
      description = "Where the REST API listens (default: ${DEFAULT-VALUE}; port 0: any free).")
  String listen;

  @Option(
      names = "--db",
      required = true,
      paramLabel = "URL",
      description =
          "The database: sqlite:PATH (created if missing) or"
              + " postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE (tables created if missing).")
  String db;

  @Option(
      names = "--controller",
      paramLabel = "URL",
      description =
          "Network mode: the network controller (http(s)://HOST:PORT) that makes one group per topic"
              + " (PUT/DELETE /v1/groups/{name}). Default: spray mode.")
  String controller;

  /** For tests: start, report, and shut down at once. */
  @Option(names = "--exit-after-start", hidden = true)
  boolean exitAfterStart;

  @Override
  public Integer call() throws InterruptedException {
    InetSocketAddress at = ControllerCommand.hostPort(listen, "--listen");
    auth.checkListen(at, "--listen");
    EdgeCoordinator.Builder b =
        EdgeCoordinator.builder()
            .listen(at)
            .database(db)
            .auth(auth.load(r -> {}))
            .tls(tls.load())
            .datagramKeys(datagramKey)
            .revokedEdges(revokedEdges);
    if (rotateOnRevoke != null) {
      b.rotateOnRevoke(
          org.netpubsub.content.Durations.positive(rotateOnRevoke, "--rotate-on-revoke"));
    }
    if (controllerCa != null) {
      b.controllerTls(org.netpubsub.client.TrustedCa.context(controllerCa));
    }
    if (controllerTokenFile != null) {
      TokenOptions t = new TokenOptions();
      t.tokenFile = controllerTokenFile;
      b.controllerToken(t.token());
    }
    if (controller != null) {
      b.controller(ControllerUrl.parseHttp(controller, "--controller"));
    }
    EdgeCoordinator coordinator;
    PrintWriter out = spec.commandLine().getOut();
    try {
      coordinator = b.start();
    } catch (IOException e) {
      spec.commandLine()
          .getErr()
          .println(
              "error: "
                  + (e instanceof PortInUseException
                      ? e.getMessage()
                      : "cannot listen on " + listen + ": " + e.getMessage()));
      return 1;
    }
    InetSocketAddress a = coordinator.address();
    String api =
        (tls.enabled() ? "https://" : "http://") + ControllerUrl.host(a) + ":" + a.getPort();
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "edge-coordinator");
      o.put("api", api);
      o.put("mode", coordinator.mode());
      o.put("db", db);
      o.put("edges", coordinator.edges().size());
      JsonOutput.printLine(out, o);
    } else {
      out.println(
          "edge coordinator listening: "
              + api
              + " ("
              + coordinator.mode()
              + " mode, "
              + coordinator.edges().size()
              + " edges in "
              + db
              + ")");
      out.flush();
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              coordinator.close();
              stopped.countDown();
            },
            "nps-edge-coordinator-shutdown");
    if (exitAfterStart) {
      hook.run();
      return 0;
    }
    Runtime.getRuntime().addShutdownHook(hook);
    stopped.await();
    return 0;
  }
}
