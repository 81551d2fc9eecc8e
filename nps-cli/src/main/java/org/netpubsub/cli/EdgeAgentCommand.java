package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netpubsub.content.Durations;
import org.netpubsub.edge.broker.AgentStats;
import org.netpubsub.edge.broker.EdgeAgent;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.http.RestServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps edge-agent}: the SNAPS agent beside one Mosquitto (docs/edge.md). */
@Command(
    name = "edge-agent",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs the edge agent beside an unmodified MQTT broker: it forwards what the broker's"
          + " clients publish to the edges the coordinator names (one UDP datagram per target),"
          + " publishes what other edges send, and tells the coordinator which topic filters the"
          + " broker's clients hold (read from the broker's $SYS log topics; docs/edge.md lists"
          + " the mosquitto.conf lines). Prints its counters every --status-interval and at the"
          + " end. Stops on SIGTERM or Ctrl-C."
    })
final class EdgeAgentCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Mixin ServerOptions server;

  @Spec CommandSpec spec;

  @Option(
      names = "--broker",
      required = true,
      paramLabel = "mqtt://HOST:PORT | amqp://HOST:PORT[/VHOST]",
      description =
          "The local MQTT broker (Mosquitto) or AMQP broker (RabbitMQ with the"
              + " rabbitmq_event_exchange plugin).")
  String broker;

  @Option(
      names = "--coordinator",
      required = true,
      paramLabel = "URL",
      description = "The edge coordinator, http://HOST:PORT.")
  String coordinator;

  @Option(
      names = "--edge",
      required = true,
      paramLabel = "NAME",
      description = "This edge's name (A-Z a-z 0-9 . _ -, at most 64).")
  String edge;

  @Option(
      names = "--listen",
      required = true,
      paramLabel = "ADDR:PORT",
      description =
          "Where datagrams from other edges arrive ([v6]:PORT for IPv6); a specific address, since"
              + " the coordinator hands it to other agents. In network mode every agent uses the"
              + " same PORT.")
  String listen;

  @Option(
      names = "--status-interval",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description =
          "How often to print the counters (default: ${DEFAULT-VALUE}; 0: only at the end).")
  String statusInterval;

  @Option(
      names = "--reliable",
      description =
          "Reliable mode: sequenced datagrams, lost ones repaired by NACK from the sending"
              + " agent's buffer, delivery in order per topic and sending edge (docs/edge.md)."
              + " Agents without it refuse or ignore the repair traffic.")
  boolean reliable;

  @Option(
      names = "--retransmit-buffer",
      defaultValue = "10000",
      paramLabel = "N",
      description =
          "With --reliable: how many sent messages are kept for retransmission, all topics"
              + " together, the oldest evicted (default: ${DEFAULT-VALUE}).")
  int retransmitBuffer;

  @Mixin WanEmulationOptions wanEmulation;

  @Mixin DatagramKeyOptions datagramKey;

  @Option(
      names = "--coordinator-keys",
      description =
          "Take the datagram keys from the coordinator (with --token-file or NPS_TOKEN) instead of"
              + " --datagram-key: fetched before the first datagram, then polled for rotations"
              + " (docs/security.md).")
  boolean coordinatorKeys;

  @Option(
      names = "--key-poll-interval",
      defaultValue = "30s",
      paramLabel = "DURATION",
      description =
          "With --coordinator-keys: how often to ask for rotated keys, 100ms to 1h (default:"
              + " ${DEFAULT-VALUE}).")
  String keyPollInterval;

  @Option(
      names = "--own-key-only",
      description =
          "--datagram-key holds this agent's own key only (nps overlay keys edge), not the"
              + " deployment's: it signs as no other edge, and accepts a datagram only under the key"
              + " of the edge it names, from --sender-keys (docs/security-datagrams.md, \"Per-agent"
              + " keys (SNAPS)\"). With --coordinator-keys instead of --datagram-key, the"
              + " coordinator hands out the own key, the senders' keys and the revoked edges,"
              + " refreshed every --key-poll-interval.")
  boolean ownKeyOnly;

  @Option(
      names = "--sender-keys",
      paramLabel = "FILE",
      description =
          "With --own-key-only: the own keys of the agents this one receives from, PEER HEX [HEX...]"
              + " a line (nps overlay keys edge --senders); reloaded every second when it changes,"
              + " so a sender left out is refused from then on.")
  java.nio.file.Path senderKeys;

  @Option(
      names = "--revoked-edges",
      paramLabel = "FILE",
      description =
          "Edges whose datagrams are refused whatever their key, one name a line; reloaded every"
              + " second when it changes.")
  java.nio.file.Path revokedEdges;

  @Mixin TokenOptions token;

  @Mixin CaOptions ca;

  @Mixin MetricsOption metrics;

  @Option(
      names = "--leave-on-exit",
      description =
          "Remove this edge from the coordinator on exit (default: stay, so a restarted agent"
              + " keeps its broker's subscriptions).")
  boolean leaveOnExit;

  /** For tests: start, report, and shut down at once. */
  @Option(names = "--exit-after-start", hidden = true)
  boolean exitAfterStart;

  @Override
  public Integer call() throws InterruptedException {
    InetSocketAddress at = ControllerCommand.hostPort(listen, "--listen");
    Duration interval =
        statusInterval.strip().equals("0")
            ? Duration.ZERO
            : Durations.positive(statusInterval, "--status-interval");
    if (retransmitBuffer < 1) {
      throw new IllegalArgumentException("--retransmit-buffer must be at least 1");
    }
    EdgeAgent.Builder builder = EdgeAgent.builder().emulation(wanEmulation.emulation());
    DatagramAuth auth = datagramKey.auth();
    if (auth != null) {
      builder.auth(auth); // none: the builder refuses, after checking the other options
    }
    if (coordinatorKeys) {
      builder.keysFromCoordinator(Durations.positive(keyPollInterval, "--key-poll-interval"));
    }
    if (reliable) {
      builder.reliable(retransmitBuffer);
    }
    if (senderKeys != null && !ownKeyOnly) {
      throw new IllegalArgumentException("--sender-keys needs --own-key-only");
    }
    if (ownKeyOnly && coordinatorKeys && senderKeys != null) {
      // --revoked-edges stays allowed: refused beside the coordinator's revoked edges (a union)
      throw new IllegalArgumentException(
          "--own-key-only --coordinator-keys excludes --sender-keys: the coordinator hands out"
              + " the senders' keys");
    }
    if (ownKeyOnly) { // a bad file: one line and exit 2, before anything starts
      builder.ownKeyOnly(senderKeys == null ? Map.of() : SenderKeys.read(senderKeys));
    }
    if (revokedEdges != null) {
      builder.revokedEdges(RevokedEdges.read(revokedEdges));
    }
    EdgeAgent agent;
    try {
      agent =
          builder
              .edge(edge)
              .broker(
                  broker.startsWith("amqp://")
                      ? URI.create(broker) // a path is the virtual host; EdgeAgent checks the rest
                      : ControllerUrl.parse(broker, "--broker", "mqtt"))
              .coordinator(ControllerUrl.parseHttp(coordinator, "--coordinator"))
              .coordinatorTls(ca.context())
              .coordinatorToken(token.token())
              .listen(at)
              .start();
    } catch (IOException e) {
      throw CommandFailure.io(e);
    }
    List<ScheduledExecutorService> watches = new java.util.ArrayList<>();
    try {
      if (senderKeys != null) {
        watches.add(SenderKeys.watch(senderKeys, agent::senderKeys));
      }
      if (revokedEdges != null) {
        watches.add(RevokedEdges.watch(revokedEdges, agent::revokeEdges));
      }
    } catch (RuntimeException e) {
      watches.forEach(ScheduledExecutorService::shutdownNow);
      agent.close();
      throw e;
    }
    RestServer metricsServer;
    try {
      metricsServer =
          metrics.start("edge-agent", r -> EdgeMeters.agent(r, agent::stats), null, null);
    } catch (RuntimeException e) {
      agent.close();
      throw e;
    }
    PrintWriter out = spec.commandLine().getOut();
    InetSocketAddress d = agent.datagramAddress();
    String udp = ControllerUrl.host(d) + ":" + d.getPort();
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "edge-agent");
      o.put("edge", edge);
      o.put("listen", udp);
      o.put("mode", agent.mode());
      o.put("reliable", reliable);
      o.put("broker", broker);
      o.put("coordinator", coordinator);
      JsonOutput.printLine(out, o);
    } else {
      out.println(
          "edge agent "
              + edge
              + ": broker "
              + broker
              + ", datagrams on "
              + udp
              + " ("
              + agent.mode()
              + " mode)");
      out.flush();
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              printStats(out, agent.stats());
              if (leaveOnExit) {
                try {
                  agent.leave();
                } catch (IOException e) {
                  spec.commandLine().getErr().println("error: leaving: " + e.getMessage());
                }
              }
              if (metricsServer != null) {
                metricsServer.close();
              }
              watches.forEach(ScheduledExecutorService::shutdownNow);
              agent.close();
              stopped.countDown();
            },
            "nps-edge-agent-shutdown");
    if (exitAfterStart) {
      hook.run();
      return 0;
    }
    Runtime.getRuntime().addShutdownHook(hook);
    if (interval.isZero()) {
      stopped.await();
    } else {
      while (!stopped.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
        printStats(out, agent.stats());
      }
    }
    return 0;
  }

  private void printStats(PrintWriter out, AgentStats s) {
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "stats");
      o.put("edge", edge);
      o.put("forwarded", s.forwarded());
      o.put("received", s.received());
      o.put("published", s.published());
      o.put("route_lookups", s.routeLookups());
      o.put("cache_hits", s.cacheHits());
      o.put("filters_reported", s.filtersReported());
      o.put("dropped", s.dropped());
      if (!s.reliable().isEmpty()) {
        o.put("reliable", s.reliable());
      }
      if (!s.keys().isEmpty()) {
        o.put("keys", s.keys());
      }
      JsonOutput.printLine(out, o);
    } else {
      out.println(
          "forwarded "
              + s.forwarded()
              + ", received "
              + s.received()
              + ", published "
              + s.published()
              + ", route lookups "
              + s.routeLookups()
              + ", cache hits "
              + s.cacheHits()
              + ", dropped "
              + s.dropped()
              + (s.reliable().isEmpty() ? "" : ", reliable " + s.reliable())
              + (s.keys().isEmpty() ? "" : ", keys " + s.keys()));
      out.flush();
    }
  }
}
