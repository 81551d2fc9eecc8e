package org.netpubsub.edge.overlay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;

/**
 * The paper's coordination-layer experiment (§3.3.2, Figures 6c and 6f): N subscribers join at
 * once, each one ephemeral entry {@code /topics/<t>/sub/<edge>-<i>} created by one of {@code edges}
 * clients that each watch the tree with a CuratorCache, as edge brokers do. Measures each create's
 * response time as the client sees it (queueing included), and the server's znode and watch counts
 * ({@code mntr}). Each round runs in its own namespace.
 */
public final class JoinBenchmark {
  /** One round's result; latencies in milliseconds. */
  public record Result(
      int subscribers,
      int edges,
      int topics,
      double p50,
      double p99,
      double max,
      long znodes, // added by this round
      long watches,
      double seconds,
      double serverUpdateP50,
      double serverUpdateP99,
      double serverReadP99,
      long serverReads) {}

  private JoinBenchmark() {}

  public static Result run(
      String connect, InetSocketAddress server, int subscribers, int edges, int topics)
      throws Exception {
    String ns = "joinbench-" + subscribers + "-" + System.nanoTime();
    List<CuratorFramework> clients = new ArrayList<>();
    List<CuratorCache> caches = new ArrayList<>();
    try {
      for (int e = 0; e < edges; e++) {
        CuratorFramework c =
            CuratorFrameworkFactory.builder()
                .connectString(connect)
                .namespace(ns)
                .sessionTimeoutMs(30_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 5))
                .build();
        c.start();
        c.blockUntilConnected(30, TimeUnit.SECONDS);
        c.create().creatingParentContainersIfNeeded().forPath(ZnodePaths.TOPICS + "/e" + e);
        c.delete().forPath(ZnodePaths.TOPICS + "/e" + e);
        CuratorCache cache = CuratorCache.build(c, ZnodePaths.TOPICS);
        cache.start();
        clients.add(c);
        caches.add(cache);
      }
      fourLetters(server, "srst"); // the server's latency summaries count this round only
      long before = Long.parseLong(mntr(server).getOrDefault("zk_znode_count", "0"));
      long[] latency = new long[subscribers];
      CountDownLatch done = new CountDownLatch(subscribers);
      AtomicInteger failed = new AtomicInteger();
      long start = System.nanoTime();
      for (int i = 0; i < subscribers; i++) {
        int edge = i % edges;
        String path =
            ZnodePaths.TOPICS
                + "/"
                + ZnodePaths.encodeTopic("t/" + (i % topics))
                + "/sub/edge"
                + edge
                + "-"
                + i;
        int index = i;
        long sent = System.nanoTime();
        clients
            .get(edge)
            .create()
            .creatingParentContainersIfNeeded()
            .withMode(CreateMode.EPHEMERAL)
            .inBackground(
                (client, event) -> {
                  latency[index] = System.nanoTime() - sent;
                  if (event.getResultCode() != 0) {
                    failed.incrementAndGet();
                  }
                  done.countDown();
                })
            .forPath(path);
      }
      if (!done.await(300, TimeUnit.SECONDS)) {
        throw new IOException("joins did not complete in 300 s");
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      if (failed.get() > 0) {
        throw new IOException(failed.get() + " joins failed");
      }
      Map<String, String> mntr = mntr(server);
      Arrays.sort(latency);
      return new Result(
          subscribers,
          edges,
          topics,
          latency[(int) (subscribers * 0.50)] / 1e6,
          latency[Math.min(subscribers - 1, (int) Math.ceil(subscribers * 0.99) - 1)] / 1e6,
          latency[subscribers - 1] / 1e6,
          Long.parseLong(mntr.getOrDefault("zk_znode_count", "-1")) - before,
          Long.parseLong(mntr.getOrDefault("zk_watch_count", "-1")),
          seconds,
          Double.parseDouble(mntr.getOrDefault("zk_p50_updatelatency", "-1")),
          Double.parseDouble(mntr.getOrDefault("zk_p99_updatelatency", "-1")),
          Double.parseDouble(mntr.getOrDefault("zk_p99_readlatency", "-1")),
          Long.parseLong(mntr.getOrDefault("zk_cnt_readlatency", "-1")));
    } finally {
      caches.forEach(CuratorCache::close);
      clients.forEach(CuratorFramework::close);
    }
  }

  /** ZooKeeper's {@code mntr} four-letter word as key → value. */
  public static Map<String, String> mntr(InetSocketAddress server) throws IOException {
    String text = fourLetters(server, "mntr");
    {
      Map<String, String> out = new HashMap<>();
      for (String line : text.split("\n")) {
        String[] kv = line.split("\t", 2);
        if (kv.length == 2) {
          out.put(kv[0].strip(), kv[1].strip());
        }
      }
      return out;
    }
  }

  private static String fourLetters(InetSocketAddress server, String word) throws IOException {
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
