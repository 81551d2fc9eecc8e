package org.netpubsub.edge.overlay;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;

/**
 * What datagram authentication costs a routing broker's relay, as CPU per datagram
 * (docs/results/overlay-relay-auth.md, "Stop 42"): real routing brokers on an embedded ZooKeeper,
 * one insecure and one with a deployment key, each with one topic subscribed by one edge of another
 * site; this thread hands a broker's relay step ({@link RoutingBroker#receive}: the check, the
 * decode, the topic's look-up, the targets, the seal and the send to a loopback socket) the same
 * datagram over and over and reads its own CPU time, arms alternating round by round so that the
 * machine's load weighs on every arm alike. Arms: {@code plain} (no key) and {@code auth} (the
 * deployment keys: the default), the datagram copied into the receive buffer as a receive would;
 * {@code plain-rx} and {@code auth-rx}, the same with the socket's receive before each (batches of
 * {@link #BATCH} queued on a loopback socket, untimed, then received and relayed: a busy relay);
 * {@code own} (publisher and subscriber hold their own keys only: the broker checks the origin's
 * derived key after the deployment keys fail, and re-seals); {@code check}, the authenticated
 * broker's check alone ({@link OriginCheck#open} and {@link OriginCheck#sealFor}) in a tight loop;
 * {@code plaincheck}, the plain relay with that check beside it (the check's cost in context);
 * {@code plain16}, the plain relay of a datagram {@link DatagramAuth#TAG} bytes longer (what the
 * tag's bytes cost the receive, decode and send); {@code jdkmac}, the HMAC of the sealed datagram
 * by {@code javax.crypto.Mac} alone (the check's MAC before stop 43), in a tight loop, and {@code
 * plainjdk}, the plain relay with that HMAC beside it (as {@code plaincheck}: old and new in one
 * run). Not a test: run by hand (base42.jar or any nps jar supplies the dependencies),
 *
 * <pre>
 * java -cp nps-edge/target/classes:nps-edge/target/test-classes:NPS_JAR \
 *   org.netpubsub.edge.overlay.RelayCpu [ROUNDS [DATAGRAMS [PAYLOAD [ARMS]]]]</pre>
 *
 * ARMS (optional, comma-separated) runs only those arms. Prints each round's ns per datagram, the
 * medians, and the authenticated / plain ratios: of the medians, and the median of each round's
 * ratio (the arms of one round ran side by side).
 */
public final class RelayCpu {
  // long enough for a loaded machine (ZooKeeper allows 20 ticks of 1 s): an expired session
  // would take a broker's topics away mid-run
  private static final Duration SESSION = Duration.ofSeconds(20);

  private static long sink; // keeps the check arm's results alive

  private RelayCpu() {}

  /** One arm: a broker, the sealed datagram it is handed, and a packet as the receive fills it. */
  private record Arm(RoutingBroker rb, byte[] wire, byte[] buf, DatagramPacket packet) {
    void once() {
      System.arraycopy(
          wire, 0, buf, 0, wire.length); // what the receive does (and a re-seal undoes)
      packet.setLength(wire.length);
      rb.receive(packet);
    }
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int payload = args.length > 2 ? Integer.parseInt(args[2]) : 256;
    ZkAuth zkAuth = ZkAuth.random("nps-relay-cpu");
    DatagramAuth key = DatagramAuth.random();
    InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
    List<AutoCloseable> open = new ArrayList<>();
    try (EmbeddedZooKeeper zk =
            EmbeddedZooKeeper.start(any, Files.createTempDirectory("nps-zk-relay-cpu"), 1_000);
        CuratorFramework client = Zk.client(zk.connectString(), SESSION, zkAuth)) {
      RoutingBroker plainRb = broker(zk, zkAuth, "plain", DatagramAuth.insecure(), open);
      RoutingBroker authRb = broker(zk, zkAuth, "auth", key, open);
      Map<String, Arm> relays = new LinkedHashMap<>();
      relays.put(
          "plain", arm(client, plainRb, "plain", false, DatagramAuth.insecure(), payload, open));
      relays.put("auth", arm(client, authRb, "auth", false, key, payload, open));
      // the plain relay of a datagram as long as a sealed one: what the tag's bytes cost
      relays.put(
          "plain16",
          arm(
              client,
              plainRb,
              "plain16",
              false,
              DatagramAuth.insecure(),
              payload + DatagramAuth.TAG,
              open));
      DatagramAuth pubOwn = DatagramAuth.of(EdgeKeys.derive(key.keys(), "pub"));
      relays.put("own", arm(client, authRb, "own", true, pubOwn, payload, open));
      ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
      Map<String, Timed> arms = new LinkedHashMap<>();
      relays.forEach((k, arm) -> arms.put(k, timed(cpu, arm::once)));
      // the check alone as the auth arm's broker runs it (a twin: the broker's own is private)
      OriginCheck twin = new OriginCheck(key);
      byte[] sealed = relays.get("auth").wire();
      arms.put(
          "check",
          timed(
              cpu,
              () -> {
                int body = twin.open(sealed, 0, sealed.length);
                sink += twin.sealFor(sealed, 0, body, "sub", false);
              }));
      // the HMAC as javax.crypto.Mac computes it (the check's MAC before stop 43), tight loop
      javax.crypto.Mac jdk = javax.crypto.Mac.getInstance("HmacSHA256");
      jdk.init(new javax.crypto.spec.SecretKeySpec(key.keys().get(0), "HmacSHA256"));
      byte[] full = new byte[32];
      arms.put(
          "jdkmac",
          timed(
              cpu,
              () -> {
                jdk.update(sealed, 0, sealed.length - DatagramAuth.TAG);
                try {
                  jdk.doFinal(full, 0);
                } catch (javax.crypto.ShortBufferException e) {
                  throw new IllegalStateException(e);
                }
                sink += full[0];
              }));
      // the plain relay with the check's work beside it: does the check cost more in context?
      Arm plainArm = relays.get("plain");
      OriginCheck twin2 = new OriginCheck(key);
      arms.put(
          "plaincheck",
          timed(
              cpu,
              () -> {
                sink += twin2.open(sealed, 0, sealed.length);
                plainArm.once();
              }));
      // the plain relay with the JDK Mac's HMAC beside it: the MAC before stop 43, in context
      arms.put(
          "plainjdk",
          timed(
              cpu,
              () -> {
                jdk.update(sealed, 0, sealed.length - DatagramAuth.TAG);
                try {
                  jdk.doFinal(full, 0);
                } catch (javax.crypto.ShortBufferException e) {
                  throw new IllegalStateException(e);
                }
                sink += full[0];
                plainArm.once();
              }));
      // with the socket's receive, as the relay thread runs it on a busy socket
      arms.put("plain-rx", receiving(cpu, relays.get("plain"), open));
      arms.put("auth-rx", receiving(cpu, relays.get("auth"), open));
      if (args.length > 3) { // only these arms (the others are set up, never run)
        arms.keySet().retainAll(List.of(args[3].split(",")));
      }
      List<String> names = new ArrayList<>(arms.keySet());
      Map<String, List<Double>> ns = new LinkedHashMap<>();
      names.forEach(k -> ns.put(k, new ArrayList<>()));
      Map<String, Long> plainBefore = plainRb.counters();
      Map<String, Long> authBefore = authRb.counters();
      long gc0 = gcMillis();
      for (int r = -3; r < rounds; r++) { // three warm-up rounds: the JIT
        for (int i = 0; i < names.size(); i++) {
          String name =
              names.get(Math.floorMod(i + r, names.size())); // each round starts elsewhere
          double per = arms.get(name).cpuNs(n) / (double) n;
          if (r >= 0) {
            ns.get(name).add(per);
          }
        }
      }
      long calls = (long) (rounds + 3) * n;
      long plainCalls =
          calls
              * names.stream()
                  .filter(
                      List.of("plain", "plaincheck", "plainjdk", "plain-rx", "plain16")::contains)
                  .count();
      long authCalls =
          calls * names.stream().filter(List.of("auth", "own", "auth-rx")::contains).count();
      check(plainRb, plainBefore, plainCalls, "plain");
      check(authRb, authBefore, authCalls, "auth and own");
      System.out.printf(
          "payload %d B, datagram %d B plain / %d B sealed, %d datagrams a round, %d rounds,"
              + " GC %d ms in all, load %s (sink %d)%n",
          payload,
          relays.get("plain").wire().length,
          sealed.length,
          n,
          rounds,
          gcMillis() - gc0,
          Files.readString(java.nio.file.Path.of("/proc/loadavg")).strip(),
          sink % 10);
      Map<String, Double> median = new LinkedHashMap<>();
      for (String name : names) {
        List<Double> v = ns.get(name);
        median.put(name, median(v));
        System.out.printf(
            "%-6s median %7.0f ns  (%s)%n",
            name,
            median.get(name),
            String.join(" ", v.stream().map(x -> String.format("%.0f", x)).toList()));
      }
      for (List<String> pair :
          List.of(
              List.of("auth", "plain"),
              List.of("own", "plain"),
              List.of("plaincheck", "plain"),
              List.of("plainjdk", "plain"),
              List.of("plain16", "plain"),
              List.of("auth", "plain16"),
              List.of("auth-rx", "plain-rx"))) {
        String name = pair.get(0);
        String base = pair.get(1);
        if (!arms.containsKey(name) || !arms.containsKey(base)) {
          continue;
        }
        List<Double> ratios = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
          ratios.add(ns.get(name).get(r) / ns.get(base).get(r));
        }
        System.out.printf(
            "%s/%s: ratio of medians %.3f, per-round ratios median %.3f (%.3f-%.3f)%n",
            name,
            base,
            median.get(name) / median.get(base),
            median(ratios),
            ratios.stream().mapToDouble(x -> x).min().orElse(0),
            ratios.stream().mapToDouble(x -> x).max().orElse(0));
      }
      if (arms.containsKey("check") && arms.containsKey("jdkmac")) {
        System.out.printf(
            "jdkmac/check: the JDK Mac's HMAC against this build's whole check %.3f%n",
            median.get("jdkmac") / median.get("check"));
      }
      if (arms.containsKey("check") && arms.containsKey("auth")) {
        System.out.printf(
            "check/auth: the check's share of the authenticated relay %.3f%n",
            median.get("check") / median.get("auth"));
      }
    } finally {
      for (AutoCloseable c : open.reversed()) {
        c.close();
      }
    }
  }

  /** An arm: the CPU time this thread spends on {@code n} datagrams, in ns. */
  @FunctionalInterface
  private interface Timed {
    long cpuNs(int n) throws Exception;
  }

  private static Timed timed(ThreadMXBean cpu, Runnable once) {
    return n -> {
      long t0 = cpu.getCurrentThreadCpuTime();
      for (int k = 0; k < n; k++) {
        once.run();
      }
      return cpu.getCurrentThreadCpuTime() - t0;
    };
  }

  /** Datagrams queued on a loopback socket in one batch, then received and relayed (timed). */
  private static final int BATCH = 32;

  /**
   * {@code arm}'s relay with the receive the relay thread does before it: batches of {@link #BATCH}
   * datagrams sent (not timed) to a loopback socket, then each received and handed to the broker's
   * relay step as its receive loop does, so the socket never waits empty (a busy relay).
   */
  private static Timed receiving(ThreadMXBean cpu, Arm arm, List<AutoCloseable> open)
      throws Exception {
    DatagramSocket rx = new DatagramSocket(null);
    rx.setReceiveBufferSize(4 << 20);
    rx.bind(new InetSocketAddress("127.0.0.1", 0));
    rx.setSoTimeout(5_000); // a lost datagram fails the run rather than hanging it
    DatagramSocket tx = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
    open.add(rx);
    open.add(tx);
    DatagramPacket out =
        new DatagramPacket(arm.wire(), arm.wire().length, rx.getLocalSocketAddress());
    DatagramPacket p = arm.packet();
    byte[] buf = arm.buf();
    return n -> {
      long spent = 0;
      for (int done = 0; done < n; done += BATCH) {
        int k = Math.min(BATCH, n - done);
        for (int i = 0; i < k; i++) {
          tx.send(out);
        }
        long t0 = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < k; i++) {
          p.setLength(buf.length);
          rx.receive(p);
          arm.rb().receive(p);
        }
        spent += cpu.getCurrentThreadCpuTime() - t0;
      }
      return spent;
    };
  }

  private static RoutingBroker broker(
      EmbeddedZooKeeper zk, ZkAuth zkAuth, String name, DatagramAuth auth, List<AutoCloseable> open)
      throws Exception {
    RoutingBroker rb =
        RoutingBroker.start(
            "rb-cpu-" + name,
            Zk.client(zk.connectString(), SESSION, zkAuth),
            new InetSocketAddress("127.0.0.1", 0),
            AssignmentStrategy.TOPIC_COUNT,
            auth);
    open.add(rb);
    return rb;
  }

  /**
   * A topic with one subscribing edge ({@code ownKey}: holding its own key only) at a loopback
   * socket nobody reads (its buffer fills, and the kernel drops what comes after: the send's cost
   * is the same for every arm), published by edge "pub" sealing with {@code sealer}.
   */
  private static Arm arm(
      CuratorFramework client,
      RoutingBroker rb,
      String name,
      boolean ownKey,
      DatagramAuth sealer,
      int payload,
      List<AutoCloseable> open)
      throws Exception {
    DatagramSocket sink = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
    open.add(sink);
    String topic = "relay-cpu/" + name;
    client
        .create()
        .creatingParentContainersIfNeeded()
        .forPath(
            ZnodePaths.endpoint(topic, ZnodePaths.Role.SUBSCRIBER, "sub"),
            ZnodeData.endpoint(
                new Endpoint(
                    "b",
                    (InetSocketAddress) sink.getLocalSocketAddress(),
                    Optional.empty(),
                    ownKey)));
    byte[] d = DatagramCodec.encode(new EdgeMessage("pub", 1, topic, new byte[payload], 0, false));
    byte[] wire = Arrays.copyOf(d, d.length + sealer.overhead());
    int len = sealer.seal(wire, 0, d.length);
    byte[] buf = new byte[65_535];
    Arm arm = new Arm(rb, Arrays.copyOf(wire, len), buf, new DatagramPacket(buf, buf.length));
    // the leader may give the topic to the other broker: this one loads it when a datagram comes
    long until = System.nanoTime() + 60_000_000_000L;
    long relayed = rb.counters().getOrDefault("relayed", 0L);
    while (rb.counters().getOrDefault("relayed", 0L) == relayed) {
      if (System.nanoTime() > until) {
        throw new IllegalStateException(
            "routing broker " + rb.name() + " never relayed " + topic + ": " + rb.counters());
      }
      if (rb.index().topics().containsKey(topic)) {
        arm.once();
      }
      Thread.sleep(20); // a measurement's set-up, not a test
    }
    return arm;
  }

  /** Every datagram handed in the measured rounds was relayed, none dropped. */
  private static void check(RoutingBroker rb, Map<String, Long> before, long calls, String what) {
    Map<String, Long> c = rb.counters();
    boolean drops =
        c.entrySet().stream()
            .anyMatch(
                e ->
                    e.getKey().startsWith("dropped.")
                        && !e.getValue().equals(before.getOrDefault(e.getKey(), 0L)));
    if (c.getOrDefault("relayed", 0L) - before.getOrDefault("relayed", 0L) != calls || drops) {
      throw new IllegalStateException(what + ": " + calls + " handed, " + before + " -> " + c);
    }
  }

  private static double median(List<Double> v) {
    double[] s = v.stream().mapToDouble(x -> x).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static long gcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(b -> Math.max(0, b.getCollectionTime()))
        .sum();
  }
}
