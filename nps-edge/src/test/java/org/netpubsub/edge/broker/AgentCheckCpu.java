package org.netpubsub.edge.broker;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.DatagramLink;
import org.netpubsub.edge.link.EdgeKeys;

/**
 * What an edge agent's datagram check costs (docs/results/agent-keys.md): the thread's CPU per
 * datagram in one thread, in one JVM, arms alternating round by round, so that the machine's load
 * weighs on every arm alike. Arms: {@code old-open}, the bare {@link DatagramAuth#open} under the
 * deployment key that the agent's receive loop ran before per-agent keys; {@code new-open}, {@link
 * AgentKeys#open} of an agent holding the deployment keys on the same datagram (the default path);
 * {@code derived-open}, that agent opening an own-key sender's datagram (the deployment keys fail
 * first); {@code own-open}, an own-key agent opening a sender's datagram; and the seals: {@code
 * old-seal} ({@link DatagramAuth#seal}), {@code new-seal} (the default agent's sealer) and {@code
 * own-seal}. A message datagram of {@code PAYLOAD} bytes. Not a test: run by hand,
 *
 * <pre>java -cp nps-edge/target/classes:nps-edge/target/test-classes \
 *   org.netpubsub.edge.broker.AgentCheckCpu [ROUNDS [DATAGRAMS [PAYLOAD]]]</pre>
 *
 * Prints each round's ns per datagram and the medians.
 */
public final class AgentCheckCpu {
  private AgentCheckCpu() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    int payload = args.length > 2 ? Integer.parseInt(args[2]) : 256;
    byte[] master = HexFormat.of().parseHex("5a".repeat(32));
    DatagramAuth deployment = DatagramAuth.of(List.of(master));
    DatagramAuth rome = DatagramAuth.of(EdgeKeys.derive(List.of(master), "rome"));
    DatagramAuth paris = DatagramAuth.of(EdgeKeys.derive(List.of(master), "paris"));
    AgentKeys shared = AgentKeys.deployment("paris", deployment);
    AgentKeys own = AgentKeys.ownKey("paris", paris, Map.of("rome", rome));
    AgentKeys romeOwn = AgentKeys.ownKey("rome", rome, Map.of());
    byte[] body =
        DatagramCodec.encode(
            new EdgeMessage("rome", 42, "bench/topic/1", new byte[payload], 1, false));
    byte[] underDeployment = sealed(deployment, body);
    byte[] underRome = sealed(rome, body);
    int len = underDeployment.length;
    byte[] scratch = Arrays.copyOf(underDeployment, len);

    Map<String, IntSupplier> arms = new LinkedHashMap<>();
    arms.put("old-open", () -> deployment.open(underDeployment, 0, len));
    arms.put("new-open", () -> shared.open(underDeployment, 0, len, null));
    arms.put("derived-open", () -> shared.open(underRome, 0, len, null));
    arms.put("own-open", () -> own.open(underRome, 0, len, null));
    DatagramLink.Sealer newSeal = shared.sealer();
    arms.put("old-seal", () -> deployment.seal(scratch, 0, body.length));
    arms.put("new-seal", () -> newSeal.seal(scratch, 0, body.length, null));
    arms.put("own-seal", () -> romeOwn.seal(scratch, 0, body.length, null));
    for (IntSupplier a : arms.values()) {
      if (a.getAsInt() < 0) {
        throw new IllegalStateException("an arm refuses its datagram");
      }
    }

    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    List<String> names = new ArrayList<>(arms.keySet());
    Map<String, List<Double>> ns = new LinkedHashMap<>();
    names.forEach(k -> ns.put(k, new ArrayList<>()));
    long sink = 0;
    for (int r = -3; r < rounds; r++) { // three warm-up rounds
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(Math.floorMod(i + r, names.size())); // each round starts elsewhere
        IntSupplier arm = arms.get(name);
        long t0 = cpu.getCurrentThreadCpuTime();
        for (int k = 0; k < n; k++) {
          sink += arm.getAsInt();
        }
        double per = (cpu.getCurrentThreadCpuTime() - t0) / (double) n;
        if (r >= 0) {
          ns.get(name).add(per);
        }
      }
    }
    System.out.printf(
        "payload %d B, datagram %d B sealed, %d datagrams a round, %d rounds (sink %d)%n",
        payload, len, n, rounds, sink % 10);
    for (String name : names) {
      List<Double> v = ns.get(name);
      List<Double> sorted = v.stream().sorted().toList();
      System.out.printf(
          "%-13s median %6.0f ns  (%s)%n",
          name,
          sorted.get(sorted.size() / 2),
          String.join(" ", v.stream().map(x -> String.format("%.0f", x)).toList()));
    }
  }

  private static byte[] sealed(DatagramAuth auth, byte[] body) {
    byte[] out = Arrays.copyOf(body, body.length + DatagramAuth.TAG);
    auth.seal(out, 0, body.length);
    return out;
  }
}
