package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.netpubsub.controller.api.ControllerApi;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.app.RestartHold;
import org.netpubsub.controller.multicast.LinkLoadMonitor;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.nbi.ControllerApp;
import org.netpubsub.controller.nbi.DistributionMode;
import org.netpubsub.controller.nbi.RemoteAppEndpoints;
import org.netpubsub.controller.nbi.RemoteAppKeys;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.southbound.OpenFlowTls;
import org.netpubsub.http.Authenticator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps controller}: runs the OpenFlow 1.3 network controller (link discovery, host learning,
 * unicast routing) and its REST API until SIGTERM or Ctrl-C.
 */
@Command(
    name = "controller",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs the network controller: switches connect over OpenFlow 1.3; it discovers links (LLDP),"
          + " learns hosts (IPv6 neighbour discovery), routes IPv6 unicast on shortest paths and"
          + " serves the REST API (GET /v1/topology, POST /v1/hosts,"
          + " GET /v1/switches/{dpid}/flows). With --schema it also serves in-network"
          + " publish/subscribe (POST/DELETE /v1/advertisements, /v1/subscriptions):"
          + " content filters become switch flows. Packet-ins pass the northbound bus (--nbi);"
          + " --nbi-remote lets apps in other processes subscribe to them over ZeroMQ."
          + " Multicast groups (PUT/DELETE /v1/groups/{name}) become shortest-path trees with"
          + " shared replication segments; --te-link-mbps moves them off busy links."
          + " Stops on SIGTERM or Ctrl-C."
    })
final class ControllerCommand implements Callable<Integer> {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ControllerCommand.class);

  @Mixin JsonOutput json;

  @Mixin ServerOptions server;

  @Mixin PubSubOptions pubsub;

  @Mixin TrafficEngineeringOptions te;

  @Mixin ForwardingOptions forwarding;

  @Mixin AuthOptions auth;

  @Mixin OpenFlowTlsOptions openflowTls;

  @Mixin TlsServerOptions apiTls;

  @Spec CommandSpec spec;

  @Option(
      names = "--openflow",
      defaultValue = "tcp:127.0.0.1:6653",
      paramLabel = "tcp:HOST:PORT",
      description =
          "Where switches connect (default: ${DEFAULT-VALUE}; port 0: any free port);"
              + " ssl:HOST:PORT for mutual TLS (--openflow-key, --openflow-cert, --openflow-ca)."
              + " tcp: beyond loopback needs --insecure-openflow.")
  String openflow;

  @Option(
      names = "--insecure-openflow",
      description =
          "Serve OpenFlow over plain tcp: on a non-loopback address, where any host that reaches"
              + " the port may claim a switch's dpid. For isolated labs and management networks"
              + " only; without it such a bind is refused (use ssl:).")
  boolean insecureOpenflow;

  @Option(
      names = "--api",
      defaultValue = "http://127.0.0.1:8080",
      paramLabel = "URL",
      description =
          "Where the REST API listens (default: ${DEFAULT-VALUE}); https://HOST:PORT with"
              + " --tls-cert and --tls-key.")
  String api;

  @Option(
      names = "--probe-interval",
      defaultValue = "2s",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "LLDP probe interval; links expire after 3 (default: ${DEFAULT-VALUE}).")
  Duration probeInterval;

  @Option(
      names = "--probe-interval-ms",
      paramLabel = "MS",
      description =
          "Deprecated alias of --probe-interval, in milliseconds (removed in the release after 0.1).")
  Long probeIntervalMs;

  @Option(
      names = "--nbi",
      defaultValue = "classified",
      paramLabel = "MODE",
      description =
          "How packet-ins reach apps: classified (only apps whose topics match, EMD) or"
              + " broadcast (every app, as Ryu and ONOS) (default: ${DEFAULT-VALUE}).")
  String nbi;

  @Option(
      names = "--nbi-remote",
      paramLabel = "HOST:PORT",
      description =
          "Let apps in other processes join the northbound bus over ZeroMQ: control on PORT,"
              + " packet-ins on PORT+1, answers on PORT+2 (port 0: three free ports). Off by"
              + " default. Beyond loopback it needs --nbi-remote-key and --nbi-remote-clients.")
  String nbiRemote;

  @Option(
      names = "--nbi-remote-key",
      paramLabel = "FILE",
      description =
          "The bus's CURVE key pair (secret = Z85; nps auth curve-key): remote apps must"
              + " authenticate (docs/security.md). Needs --nbi-remote-clients.")
  java.nio.file.Path nbiRemoteKey;

  @Option(
      names = "--nbi-remote-clients",
      paramLabel = "FILE",
      description =
          "The remote apps admitted with --nbi-remote-key: one NAME PUBLIC_KEY [APP ...] a line;"
              + " each may act as its APPs only (none listed: the app NAME).")
  java.nio.file.Path nbiRemoteClients;

  @Option(
      names = "--insecure-nbi-remote",
      description =
          "Take remote apps without --nbi-remote-key on a non-loopback address: anyone who"
              + " reaches the ports may send flow-mods. For isolated labs only.")
  boolean insecureNbiRemote;

  @Option(
      names = "--warm-up",
      defaultValue = "${env:NPS_CONTROLLER_WARM_UP:-300}",
      paramLabel = "REQUESTS",
      description =
          "With --schema: once listening, in the background, run up to REQUESTS synthetic"
              + " subscriptions and withdrawals through a throwaway copy of the controller over"
              + " simulated switches, so that the JIT compiles the request path while the switches"
              + " connect (docs/controller.md); 0: off (default: ${DEFAULT-VALUE}, or"
              + " $NPS_CONTROLLER_WARM_UP).")
  int warmUp;

  @Option(
      names = "--warm-up-budget",
      defaultValue = "${env:NPS_CONTROLLER_WARM_UP_BUDGET:-20s}",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "The warm-up stops after this long at most, its set-up included (default:"
              + " ${DEFAULT-VALUE}, or $NPS_CONTROLLER_WARM_UP_BUDGET).")
  Duration warmUpBudget;

  /** For tests: start, report, and shut down at once. */
  @Option(names = "--exit-after-start", hidden = true)
  boolean exitAfterStart;

  @Override
  public Integer call() throws IOException, InterruptedException {
    InetSocketAddress of = parseOpenflow(openflow);
    OpenFlowTls tls = openflowTls.settings(openflow.startsWith("ssl:"));
    LoopbackRule.check(
        of,
        tls != null,
        insecureOpenflow,
        "--openflow",
        "ssl:HOST:PORT with --openflow-ca",
        "--insecure-openflow");
    InetSocketAddress http = parseApi(api);
    auth.checkListen(http, "--api");
    RemoteAppEndpoints remote = remoteApps(nbiRemote);
    RemoteAppKeys remoteKeys =
        NbiRemoteKeys.load(nbiRemoteKey, nbiRemoteClients, nbiRemote != null);
    if (nbiRemote != null) {
      LoopbackRule.check(
          hostPort(nbiRemote, "--nbi-remote"),
          remoteKeys != null,
          insecureNbiRemote,
          "--nbi-remote",
          "--nbi-remote-key and --nbi-remote-clients",
          "--insecure-nbi-remote");
    }
    boolean https = api.startsWith("https:");
    if (https != apiTls.enabled()) {
      throw new IllegalArgumentException(
          https
              ? "--api https://HOST:PORT needs --tls-cert FILE and --tls-key FILE"
              : "--tls-cert, --tls-key and --tls-client-ca need --api https://HOST:PORT");
    }
    org.netpubsub.http.ServerTls restTls = apiTls.load();
    long probeMs = probeIntervalMs != null ? probeIntervalMs : probeInterval.toMillis();
    if (probeMs < 100) {
      throw new IllegalArgumentException("--probe-interval must be at least 100ms");
    }
    Optional<LinkLoadMonitor.Settings> teSettings = te.settings();
    NetworkController.Forwarding how = forwarding.mode();
    List<ControllerApp> busApps = forwarding.busApps();
    pubsub.validateCluster();
    if (warmUp < 0) {
      throw new IllegalArgumentException("--warm-up must be 0 or more, not " + warmUp);
    }
    if (warmUpBudget.isNegative() || warmUpBudget.isZero()) {
      throw new IllegalArgumentException("--warm-up-budget must be positive");
    }
    AtomicReference<ControllerWarmUp.Result> warmed = new AtomicReference<>();
    RestartHold hold = pubsub.restartHold(); // --store: read before any switch can connect
    NetworkController controller =
        NetworkController.start(
            ControllerConfig.defaults()
                .withPort(of.getHostString(), of.getPort())
                .withProbeInterval(probeMs)
                .withNorthbound(distribution(nbi), remote, remoteKeys)
                .withForwarding(how, busApps)
                .withReconcileScope(pubsub.reconcileScope())
                .withOpenflowTls(tls)
                .withRestartHold(hold));
    ControllerApi rest;
    Optional<LinkLoadMonitor> monitor;
    Optional<PubSubService> service = Optional.empty();
    try {
      MulticastGroups groups = MulticastGroups.attach(controller);
      pubsub.restoreGroups(groups); // --store: before the requests' restore ends the hold
      service = pubsub.attach(controller);
      Optional<PubSubService> regions = service;
      Optional<Authenticator> principals =
          Optional.ofNullable(auth.load(r -> regions.ifPresent(s -> s.checkRegion(r))));
      rest =
          ControllerApi.start(
              controller,
              service,
              Optional.of(groups),
              pubsub.registry(controller, groups),
              http,
              principals,
              restTls,
              pubsub.clusterIngress(controller, principals.isPresent()));
      monitor =
          teSettings.map(s -> LinkLoadMonitor.start(controller, controller.server(), groups, s));
      if (warmsUp()) {
        ControllerWarmUp.bind(rest.metrics(), warmed);
      }
      if (remoteKeys != null) { // its SIGHUP shares the one dispatcher with --auth's
        NbiRemoteKeys.watch(nbiRemoteClients, controller.northbound());
      }
    } catch (IOException | RuntimeException e) {
      pubsub.closeCluster(service);
      controller.close();
      pubsub.closeStore();
      throw e;
    }
    Optional<PubSubService> attached = service;
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              monitor.ifPresent(LinkLoadMonitor::close);
              rest.close();
              pubsub.closeCluster(attached);
              controller.close();
              pubsub.closeStore();
              stopped.countDown();
            },
            "nps-controller-shutdown");
    PrintWriter out = spec.commandLine().getOut();
    InetSocketAddress ofAt = controller.openflowAddress();
    InetSocketAddress apiAt = rest.address();
    String ofUrl =
        (tls == null ? "tcp:" : "ssl:") + ControllerUrl.listenHost(ofAt) + ":" + ofAt.getPort();
    String apiUrl =
        (https ? "https://" : "http://") + ControllerUrl.listenHost(apiAt) + ":" + apiAt.getPort();
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "controller");
      o.put("openflow", ofUrl);
      o.put("api", apiUrl);
      o.put("pubsub", pubsub.schema != null);
      o.put("nbi", nbi);
      o.put("traffic_engineering", monitor.isPresent());
      o.put("forwarding", forwarding.forwarding);
      if (pubsub.cluster != null) {
        o.put("cluster", pubsub.cluster);
        o.put("member", attached.flatMap(PubSubService::clusterMember).orElse(null));
      }
      controller.northbound().remoteEndpoints().ifPresent(e -> o.put("nbi_remote", e.control()));
      JsonOutput.printLine(out, o);
    } else {
      out.println(
          "controller listening: openflow "
              + ofUrl
              + ", api "
              + apiUrl
              + controller
                  .northbound()
                  .remoteEndpoints()
                  .map(e -> ", remote apps " + e.control())
                  .orElse(""));
    }
    out.flush();
    Thread warming = warmUp(warmed);
    if (exitAfterStart) {
      if (warming != null) {
        warming.join(); // its log line, as a full start gives it
      }
      hook.run();
      return 0;
    }
    Runtime.getRuntime().addShutdownHook(hook);
    stopped.await();
    return 0;
  }

  private boolean warmsUp() {
    return warmUp > 0 && pubsub.schema != null;
  }

  /**
   * Starts the warm-up on a thread of its own, once the controller listens: its set-up (a cold JVM
   * starting a second controller and ten simulated switches) took longer than the budget on a
   * loaded machine, so run before listening it ran 0 requests (docs/results/ovs-response-p99.md,
   * stops 37-39), and it delayed every start. Alongside, it compiles the request path while the
   * switches connect and the links are learned; a real request meanwhile is served, slower. Null
   * when off or without pub/sub. A warm-up that fails is logged and changes nothing else.
   */
  private Thread warmUp(AtomicReference<ControllerWarmUp.Result> warmed) {
    if (!warmsUp()) {
      return null;
    }
    Thread t =
        new Thread(
            () -> {
              try {
                ControllerWarmUp.Result r =
                    ControllerWarmUp.run(
                        pubsub.index(),
                        pubsub.limits(),
                        pubsub.configuratorSettings(),
                        warmUp,
                        warmUpBudget);
                warmed.set(r);
                LOG.info(
                    "warm-up: {} synthetic requests ({} refused) through a throwaway controller"
                        + " over simulated switches in {} s ({} s of it setting up)",
                    r.requests(),
                    r.refused(),
                    String.format(java.util.Locale.ROOT, "%.2f", r.seconds()),
                    String.format(java.util.Locale.ROOT, "%.2f", r.setupNanos() / 1e9));
              } catch (IOException | RuntimeException e) {
                LOG.warn("warm-up failed: {}", e.toString());
              }
            },
            "nps-controller-warm-up");
    t.setDaemon(true);
    t.start();
    return t;
  }

  static InetSocketAddress parseOpenflow(String s) {
    if (!s.startsWith("tcp:") && !s.startsWith("ssl:")) {
      throw new IllegalArgumentException(
          "--openflow must be tcp:HOST:PORT or ssl:HOST:PORT, not '" + s + "'");
    }
    return hostPort(s.substring(4), "--openflow");
  }

  static DistributionMode distribution(String s) {
    return switch (s) {
      case "classified" -> DistributionMode.CLASSIFIED;
      case "broadcast" -> DistributionMode.BROADCAST;
      default ->
          throw new IllegalArgumentException(
              "--nbi must be classified or broadcast, not '" + s + "'");
    };
  }

  /** HOST:PORT → control on PORT, packet-ins on PORT+1, answers on PORT+2; null when absent. */
  static RemoteAppEndpoints remoteApps(String s) {
    if (s == null) {
      return null;
    }
    InetSocketAddress a = hostPort(s, "--nbi-remote");
    if (a.getPort() == 0) {
      return RemoteAppEndpoints.onHost(a.getHostString());
    }
    if (a.getPort() > 65533) {
      throw new IllegalArgumentException("--nbi-remote needs PORT..PORT+2 free, not " + s);
    }
    int p = a.getPort();
    return RemoteAppEndpoints.tcp(a.getHostString(), p, p + 1, p + 2);
  }

  static InetSocketAddress parseApi(String s) {
    URI u;
    try {
      u = URI.create(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--api must be http(s)://HOST:PORT, not '" + s + "'");
    }
    if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme()))
        || u.getHost() == null
        || u.getPort() < 0) {
      throw new IllegalArgumentException("--api must be http(s)://HOST:PORT, not '" + s + "'");
    }
    String host = u.getHost().replace("[", "").replace("]", "");
    return new InetSocketAddress(host, u.getPort());
  }

  static InetSocketAddress hostPort(String s, String option) {
    int colon = s.lastIndexOf(':');
    if (colon < 1) {
      throw new IllegalArgumentException(option + " needs HOST:PORT, not '" + s + "'");
    }
    String host = s.substring(0, colon).replace("[", "").replace("]", "");
    int port;
    try {
      port = Integer.parseInt(s.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + ": bad port in '" + s + "'");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(option + ": port out of range in '" + s + "'");
    }
    return new InetSocketAddress(host, port);
  }
}
