package org.netpubsub.bench.overlay;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttCallback;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.MqttDisconnectResponse;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.netpubsub.bench.stats.Latencies;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.LinkProfile;
import org.netpubsub.edge.link.WanEmulation;
import org.netpubsub.edge.overlay.AssignmentStrategy;
import org.netpubsub.edge.overlay.EdgeBroker;
import org.netpubsub.edge.overlay.EdgeBrokerConfig;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
import org.netpubsub.edge.overlay.RoutingBroker;
import org.netpubsub.edge.overlay.Zk;
import org.netpubsub.edge.overlay.ZkAuth;

/**
 * The paper's deadline-aware experiment (§3.4, Table 1, Figure 7) on one machine: two sites (a
 * Mosquitto each), one routing broker, links L1 (publishing edge → routing broker), L2 (routing
 * broker → subscribing edge) and L3 (edge to edge) emulated per case; single path vs multi-path
 * (the topic declared with a deadline). Latency is publish to delivery in one JVM (one clock).
 */
public final class MultipathExperiment implements Closeable {
  public record Outcome(int sent, int delivered, double avgMs, double p99Ms, double maxMs) {}

  /** One case of Figure 7: its number (1..8), L1..L3's profiles as letters, and the path. */
  public record Case(int number, String links, boolean multi, Outcome outcome) {}

  private final List<Process> mosquittos = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();
  private final String zookeeper;

  /** Credentials of this run's ZooKeeper (random): every znode is theirs alone. */
  private final ZkAuth zkAuth;

  public MultipathExperiment(String zookeeper, Path dir) throws IOException {
    this(zookeeper, dir, 2);
  }

  /** Starts {@code sites} Mosquitto processes, one per site. */
  public MultipathExperiment(String zookeeper, Path dir, int sites) throws IOException {
    this(zookeeper, ZkAuth.random("nps-bench"), dir, sites);
  }

  /** As above, every ZooKeeper client with {@code zkAuth}. */
  public MultipathExperiment(String zookeeper, ZkAuth zkAuth, Path dir, int sites)
      throws IOException {
    this.zookeeper = zookeeper;
    this.zkAuth = zkAuth;
    for (int i = 0; i < sites; i++) {
      int port;
      try (ServerSocket s = new ServerSocket(0)) {
        port = s.getLocalPort();
      }
      Path conf = dir.resolve("mosquitto-" + port + ".conf");
      Files.writeString(
          conf,
          "listener "
              + port
              + " 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest topic\n"
              + "log_type subscribe\nlog_type unsubscribe\nlog_type notice\n");
      mosquittos.add(
          new ProcessBuilder("/usr/sbin/mosquitto", "-c", conf.toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("mosquitto-" + port + ".log").toFile())
              .start());
      ports.add(port);
      waitFor(port);
    }
  }

  /**
   * The paper's Figure 7 on an embedded ZooKeeper: the 8 assignments of profiles {@code a} and
   * {@code b} to L1..L3, each over the single path (once where only L3 differs) and over multipath;
   * {@code each} sees every case as it ends.
   */
  public static void figure7(
      LinkProfile a, LinkProfile b, int messages, long intervalMs, Consumer<Case> each)
      throws Exception {
    Path dir = Files.createTempDirectory("nps-fig7");
    try (EmbeddedZooKeeper zk =
            EmbeddedZooKeeper.start(new InetSocketAddress("127.0.0.1", 0), dir.resolve("zk"), 100);
        MultipathExperiment x = new MultipathExperiment(zk.connectString(), dir)) {
      for (int c = 0; c < 8; c++) {
        LinkProfile l1 = (c & 4) == 0 ? a : b;
        LinkProfile l2 = (c & 2) == 0 ? a : b;
        LinkProfile l3 = (c & 1) == 0 ? a : b;
        String links =
            ((c & 4) == 0 ? "A" : "B") + ((c & 2) == 0 ? "A" : "B") + ((c & 1) == 0 ? "A" : "B");
        for (boolean multi : new boolean[] {false, true}) {
          if (!multi && (c & 1) == 1) {
            continue; // L3 does not matter on the single path: case 2k+1 = case 2k
          }
          Outcome o = x.run(l1, l2, l3, multi, messages, intervalMs, c * 2L + (multi ? 1 : 0));
          each.accept(new Case(c + 1, links, multi, o));
        }
      }
    }
  }

  private static void waitFor(int port) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException e) {
        LockSupport.parkNanos(20_000_000);
      }
    }
    throw new IOException("mosquitto did not start on port " + port);
  }

  /** A ZooKeeper client of this run, with its credentials. */
  public org.apache.curator.framework.CuratorFramework zk() {
    return Zk.client(zookeeper, java.time.Duration.ofSeconds(5), zkAuth);
  }

  public int port(int site) {
    return ports.get(site);
  }

  public Outcome run(
      LinkProfile l1,
      LinkProfile l2,
      LinkProfile l3,
      boolean multiPath,
      int messages,
      long intervalMs,
      long seed)
      throws Exception {
    InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
    String topic = "fig7/" + seed + (multiPath ? "/multi" : "/single");
    DatagramAuth auth = DatagramAuth.random(); // one key for this run's brokers
    try (RoutingBroker rb =
            RoutingBroker.start(
                "rb-fig7",
                zk(),
                any,
                AssignmentStrategy.TOPIC_COUNT,
                new WanEmulation(l2, Map.of(), seed),
                auth);
        EdgeBroker rome =
            EdgeBroker.start(
                EdgeBrokerConfig.of("rome", "rome", uri(1), any).withAuth(auth), zk())) {
      WanEmulation paris =
          new WanEmulation(l3, Map.of(rb.address(), l1), seed + 1); // to rome: L3, to rb: L1
      try (EdgeBroker a =
              EdgeBroker.start(
                  EdgeBrokerConfig.of("paris", "paris", uri(0), any)
                      .withDeadlines(multiPath ? Map.of("fig7/#", 100L) : Map.of(), 1)
                      .withEmulation(paris)
                      .withAuth(auth),
                  zk());
          Client sub = new Client(ports.get(1), "fig7-sub");
          Client pub = new Client(ports.get(0), "fig7-pub")) {
        sub.subscribe(topic);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        // rome caches the topics it subscribes (paris loads it with its first message)
        while (rome.view()
            .topic(topic)
            .filter(t -> t.assignment().isPresent() && t.subscribers().containsKey("rome"))
            .isEmpty()) {
          // the subscription's entry must be in the tree and assigned before the run
          if (System.nanoTime() > deadline) {
            throw new IOException("the subscription did not reach the tree");
          }
          LockSupport.parkNanos(10_000_000);
        }
        for (int i = 0; i < messages; i++) {
          pub.publish(topic, Long.toString(System.nanoTime()));
          LockSupport.parkNanos(intervalMs * 1_000_000); // the publisher's rate
        }
        long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (sub.latencies.size() < messages && System.nanoTime() < settle) {
          LockSupport.parkNanos(10_000_000);
        }
        Latencies l = Latencies.of(sub.latencies.stream().mapToLong(Long::longValue).toArray());
        return new Outcome(
            messages,
            (int) l.count(),
            l.meanMillis(Double.NaN),
            l.percentileMillis(0.99, Double.NaN),
            l.percentileMillis(1.0, Double.NaN));
      }
    }
  }

  URI uri(int site) {
    return URI.create("mqtt://127.0.0.1:" + ports.get(site));
  }

  @Override
  public void close() {
    for (Process p : mosquittos) {
      p.destroy();
      try {
        p.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A plain MQTT client: publishes QoS 1, or records publish-to-delivery latency. */
  static final class Client implements Closeable, MqttCallback {
    final MqttClient mqtt;
    final List<Long> latencies = new CopyOnWriteArrayList<>();

    Client(int port, String id) throws MqttException {
      mqtt = new MqttClient("tcp://127.0.0.1:" + port, id, new MemoryPersistence());
      mqtt.setCallback(this);
      MqttConnectionOptions o = new MqttConnectionOptions();
      o.setCleanStart(true);
      mqtt.connect(o);
    }

    int port() {
      return Integer.parseInt(
          mqtt.getServerURI().substring(mqtt.getServerURI().lastIndexOf(':') + 1));
    }

    void unsubscribe(String topic) throws MqttException {
      mqtt.unsubscribe(topic);
    }

    void subscribe(String topic) throws MqttException {
      mqtt.subscribe(new MqttSubscription[] {new MqttSubscription(topic, 1)});
    }

    void publish(String topic, String payload) throws MqttException {
      MqttMessage m = new MqttMessage(payload.getBytes(StandardCharsets.UTF_8));
      m.setQos(1);
      while (true) {
        try {
          mqtt.publish(topic, m);
          return;
        } catch (MqttException e) {
          if (e.getReasonCode() != 32202) {
            throw e;
          }
          LockSupport.parkNanos(1_000_000); // too many in flight (32202): wait for acks
        }
      }
    }

    @Override
    public void messageArrived(String topic, MqttMessage message) {
      long sent = Long.parseLong(new String(message.getPayload(), StandardCharsets.UTF_8));
      latencies.add(System.nanoTime() - sent);
    }

    @Override
    public void close() {
      try {
        mqtt.disconnect(2000);
        mqtt.close(true);
      } catch (MqttException e) {
        // closing
      }
    }

    @Override
    public void disconnected(MqttDisconnectResponse r) {}

    @Override
    public void mqttErrorOccurred(MqttException e) {}

    @Override
    public void deliveryComplete(IMqttToken token) {}

    @Override
    public void connectComplete(boolean reconnect, String serverUri) {}

    @Override
    public void authPacketArrived(int reasonCode, MqttProperties properties) {}
  }
}
