package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.netpubsub.network.nbi.Classification;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.nbi.TopicClassifier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * EMD's packet-in pre-classifier (Algorithm 1) per packet-in: the indexed {@link TopicClassifier},
 * the linear scan it replaces (every app, every topic), and the Ryu/ONOS broadcast that matches
 * nothing. Each app subscribes to one UDP destination port on IPv6, written with match fields
 * ({@code eth_type=0x86dd,ip_proto=17,udp_dst=P}) or as EMD §4.2's protocol-independent byte
 * windows over the same bytes of an untagged Ethernet + IPv6 + UDP frame ({@code
 * bytes@12/2=86dd,bytes@20/1=11,bytes@56/2=PPPP}). Half of the packet-ins hit one app, the rest
 * none, in a fixed shuffled order; each call builds a fresh {@link PacketInView}, as the bus does,
 * so lazy header parsing is part of the cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class NbiClassifierBenchmark {
  /** Subscribed apps get ports {@code HIT_BASE + i}; ports from {@code MISS_BASE} hit nobody. */
  private static final int HIT_BASE = 10_000;

  private static final int MISS_BASE = 40_000;

  /** Pre-built frames, cycled through; a power of two. */
  private static final int FRAMES = 1024;

  @Param({"4", "64", "1024"})
  public int apps;

  /** {@code fields}: OpenFlow match fields; {@code bytes}: offset/length byte windows. */
  @Param({"fields", "bytes"})
  public String kind;

  private TopicClassifier classifier;
  private String[] appIds;
  private NbiTopic[][] topicsByApp;
  private byte[][] frames;
  private int next;

  @Setup
  public void setUp() {
    classifier = new TopicClassifier();
    appIds = new String[apps];
    topicsByApp = new NbiTopic[apps][];
    for (int i = 0; i < apps; i++) {
      appIds[i] = String.format("app-%04d", i);
      NbiTopic topic = NbiTopic.parse(topic(kind, HIT_BASE + i));
      classifier.subscribe(appIds[i], topic);
      topicsByApp[i] = classifier.topics(appIds[i]).toArray(NbiTopic[]::new);
    }
    Random random = new Random(7);
    List<byte[]> list = new ArrayList<>();
    for (int i = 0; i < FRAMES; i++) {
      int port = i % 2 == 0 ? HIT_BASE + random.nextInt(apps) : MISS_BASE + random.nextInt(apps);
      list.add(ipv6Udp(port, random));
    }
    Collections.shuffle(list, random);
    frames = list.toArray(byte[][]::new);
    // the index and the scan agree, and exactly half of the packet-ins reach one app each
    int hits = 0;
    for (int i = 0; i < FRAMES; i++) {
      Set<String> indexed = classifier.classify(view(i)).apps();
      if (!indexed.equals(scan(view(i)).apps()) || indexed.size() > 1) {
        throw new IllegalStateException("frame " + i + ": index " + indexed + " vs scan");
      }
      hits += indexed.size();
    }
    if (hits != FRAMES / 2) {
      throw new IllegalStateException(hits + " of " + FRAMES + " frames reach an app");
    }
  }

  /** The indexed classifier (Algorithm 1 with a {@code TopicIndex}). */
  @Benchmark
  public Classification classify() {
    return classifier.classify(view(next++));
  }

  /** Every app, every topic: the linear scan the index replaces. */
  @Benchmark
  public Classification naive() {
    return scan(view(next++));
  }

  /** The Ryu/ONOS baseline: every registered app gets the packet-in, nothing is matched. */
  @Benchmark
  public Classification broadcast() {
    return classifier.broadcast(view(next++));
  }

  private PacketInView view(int i) {
    return new PacketInView(1, 1, i & 0xffffffffL, frames[i & (FRAMES - 1)]);
  }

  private Classification scan(PacketInView msg) {
    Set<String> matched = new TreeSet<>();
    List<NbiTopic> topics = new ArrayList<>(2);
    for (int a = 0; a < appIds.length; a++) {
      for (NbiTopic t : topicsByApp[a]) {
        if (t.matches(msg)) {
          matched.add(appIds[a]);
          topics.add(t);
        }
      }
    }
    return Classification.topic(matched, topics);
  }

  static String topic(String kind, int port) {
    return switch (kind) {
      case "fields" -> "eth_type=0x86dd,ip_proto=17,udp_dst=" + port;
      // EtherType at 12, IPv6 next header at 14 + 6, UDP destination port at 14 + 40 + 2
      case "bytes" -> String.format("bytes@12/2=86dd,bytes@20/1=11,bytes@56/2=%04x", port);
      default -> throw new IllegalArgumentException("kind is fields or bytes: " + kind);
    };
  }

  /** An untagged Ethernet + IPv6 + UDP frame to {@code port}, with 16 bytes of payload. */
  static byte[] ipv6Udp(int port, Random random) {
    byte[] f = new byte[14 + 40 + 8 + 16];
    byte[] macs = new byte[12];
    random.nextBytes(macs);
    System.arraycopy(macs, 0, f, 0, 12);
    f[12] = (byte) 0x86;
    f[13] = (byte) 0xdd;
    int ip = 14;
    f[ip] = 0x60; // version 6
    int payload = 8 + 16;
    f[ip + 4] = (byte) (payload >>> 8);
    f[ip + 5] = (byte) payload;
    f[ip + 6] = 17; // next header: UDP
    f[ip + 7] = 64; // hop limit
    f[ip + 8] = 0x20; // source 2001:db8::/64
    f[ip + 9] = 0x01;
    f[ip + 10] = 0x0d;
    f[ip + 11] = (byte) 0xb8;
    f[ip + 23] = (byte) (1 + random.nextInt(250));
    f[ip + 24] = (byte) 0xff; // destination ff0e::/16, a content address
    f[ip + 25] = 0x0e;
    byte[] dz = new byte[14];
    random.nextBytes(dz);
    System.arraycopy(dz, 0, f, ip + 26, 14);
    int udp = ip + 40;
    int src = 49_152 + random.nextInt(16_384);
    f[udp] = (byte) (src >>> 8);
    f[udp + 1] = (byte) src;
    f[udp + 2] = (byte) (port >>> 8);
    f[udp + 3] = (byte) port;
    f[udp + 4] = (byte) (payload >>> 8);
    f[udp + 5] = (byte) payload;
    for (int i = udp + 8; i < f.length; i++) {
      f[i] = (byte) random.nextInt(256);
    }
    return f;
  }
}
