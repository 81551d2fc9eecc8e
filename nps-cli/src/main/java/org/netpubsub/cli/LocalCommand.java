package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.netpubsub.controller.api.ControllerApi;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.local.LocalNetwork;
import org.netpubsub.controller.local.LocalSwitch;
import org.netpubsub.controller.pubsub.PubSubService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps local}: the controller with an embedded software network, for developing applications
 * without root or Open vSwitch (docs/local.md).
 */
@Command(
    name = "local",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs the controller with an embedded software network: no root, no Open vSwitch. Ten"
          + " simulated switches in the shape of PLEROMA's test bed connect to it over loopback"
          + " OpenFlow and execute the flows it installs; events travel as loopback UDP through"
          + " those flow tables to the subscribers. nps pub, nps sub and the Python client work"
          + " against it as against a real network (each attaches as a host of it). For"
          + " developing applications, not for measuring performance. Prints the content flows"
          + " per switch when they change. Stops on SIGTERM or Ctrl-C."
    })
final class LocalCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Mixin ServerOptions server;

  @Mixin PubSubOptions pubsub;

  @Spec CommandSpec spec;

  @Option(
      names = "--api",
      defaultValue = "http://127.0.0.1:8080",
      paramLabel = "URL",
      description = "Where the REST API listens (default: ${DEFAULT-VALUE}; port 0: any free).")
  String api;

  @Option(
      names = "--flows-interval",
      defaultValue = "1s",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "How often to look for changed content flows (default: ${DEFAULT-VALUE}).")
  Duration flowsInterval;

  /** For tests: start, report, and shut down at once. */
  @Option(names = "--exit-after-start", hidden = true)
  boolean exitAfterStart;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (pubsub.schema == null) {
      throw new IllegalArgumentException("nps local needs --schema FILE");
    }
    if (!pubsub.routing.equals("pleroma") || pubsub.cluster != null) {
      throw new IllegalArgumentException(
          "nps local routes with --routing pleroma in one process (no --cluster)");
    }
    InetSocketAddress http = ControllerCommand.parseApi(api);
    if (api.startsWith("https:")) {
      throw new IllegalArgumentException("--api: nps local serves http://HOST:PORT only");
    }
    NetworkController controller =
        NetworkController.start(
            ControllerConfig.defaults().withPort("127.0.0.1", 0).withProbeInterval(500));
    ControllerApi rest = null;
    LocalNetwork net = null;
    Optional<PubSubService> service = Optional.empty();
    try {
      service = pubsub.attach(controller);
      net = LocalNetwork.start(controller, service.orElseThrow(), Duration.ofSeconds(30));
      rest = ControllerApi.start(controller, service, http);
    } catch (IOException | RuntimeException e) {
      if (net != null) {
        net.close();
      }
      service.ifPresent(PubSubService::close);
      controller.close();
      throw e;
    }
    PrintWriter out = spec.commandLine().getOut();
    InetSocketAddress at = rest.address();
    String apiUrl = "http://" + ControllerUrl.listenHost(at) + ":" + at.getPort();
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "local");
      o.put("api", apiUrl);
      o.put("local_switch", "[::1]:" + net.switchAddress().getPort());
      o.put("switches", net.contentFlows().size());
      JsonOutput.printLine(out, o);
    } else {
      out.println(
          "local network ready: 10 switches, 16 links; api "
              + apiUrl
              + ", local switch [::1]:"
              + net.switchAddress().getPort());
      out.println("try: NPS_CONTROLLER=" + apiUrl + " ./nps sub 'price > 50000'");
    }
    out.flush();
    LocalNetwork network = net;
    ControllerApi restApi = rest;
    Optional<PubSubService> attached = service;
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              restApi.close();
              network.close();
              attached.ifPresent(PubSubService::close);
              controller.close();
              stopped.countDown();
            },
            "nps-local-shutdown");
    if (exitAfterStart) {
      hook.run();
      return 0;
    }
    Runtime.getRuntime().addShutdownHook(hook);
    Map<Long, Integer> shown = Map.of();
    while (!stopped.await(flowsInterval.toMillis(), TimeUnit.MILLISECONDS)) {
      Map<Long, Integer> now = network.contentFlows();
      if (!now.equals(shown)) {
        shown = now;
        print(out, now, network.counters());
      }
    }
    return 0;
  }

  /** One line, as the demo prints them: {@code content flows per switch: s1=0, s2=3, …}. */
  private void print(PrintWriter out, Map<Long, Integer> flows, LocalSwitch.Counters c) {
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "flows");
      Map<String, Integer> per = new LinkedHashMap<>();
      flows.forEach((d, n) -> per.put("s" + d, n));
      o.put("content_flows", per);
      o.put("events", c.events.get());
      o.put("deliveries", c.deliveries.get());
      o.put("unmatched", c.unmatched.get());
      o.put("malformed", c.malformed.get());
      JsonOutput.printLine(out, o);
    } else {
      out.println(
          "content flows per switch: "
              + flows.entrySet().stream()
                  .map(e -> "s" + e.getKey() + "=" + e.getValue())
                  .collect(Collectors.joining(", "))
              + " (events so far "
              + c.events.get()
              + ", deliveries "
              + c.deliveries.get()
              + ", dropped by the switches "
              + c.unmatched.get()
              + ", malformed "
              + c.malformed.get()
              + ")");
    }
    out.flush();
  }
}
