package org.netpubsub.edge.overlay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * {@code nps overlay keys rotate} (docs/security.md): writes a new key as the next one, waits until
 * every routing broker and edge broker registered in ZooKeeper accepts it (their {@code
 * /keys/accepted} entries), then promotes it, the old key becoming the previous one. No party ever
 * signs with a key another live party does not accept yet, so a rotation loses no datagram. Every
 * write is conditional on the version read, so two rotations at once cannot interleave.
 */
public final class KeyRotation {
  private static final Duration POLL = Duration.ofMillis(50);

  private KeyRotation() {}

  /**
   * Rotates (or, when there is no key yet, writes the first one) with {@code grace} for the
   * previous key; returns the id of the key that signs now. When a broker has not accepted the new
   * key within {@code settle}, nothing is promoted: {@link IOException} names the brokers, and a
   * second run picks the same next key up again.
   */
  public static long rotate(CuratorFramework client, Duration grace, Duration settle)
      throws Exception {
    Stat stat = new Stat();
    byte[] data;
    try {
      data = client.getData().storingStatIn(stat).forPath(ZnodePaths.DATAGRAM_KEYS);
    } catch (KeeperException.NoNodeException e) {
      client
          .create()
          .creatingParentContainersIfNeeded()
          .forPath(ZnodePaths.DATAGRAM_KEYS, DatagramKeys.first(newKey(), grace).toJson());
      return 1;
    }
    DatagramKeys keys = withGrace(DatagramKeys.parse(data), grace);
    if (keys.next() == null) {
      keys = keys.propose(newKey());
    }
    client
        .setData()
        .withVersion(stat.getVersion())
        .forPath(ZnodePaths.DATAGRAM_KEYS, keys.toJson());
    long id = keys.next().id();
    List<String> late = awaitAccepted(client, id, settle);
    if (!late.isEmpty()) {
      throw new IOException(
          "key "
              + id
              + " not promoted: "
              + String.join(", ", late)
              + " did not accept it within "
              + settle.toMillis()
              + " ms (it is accepted, not signing; run again to retry)");
    }
    data = client.getData().storingStatIn(stat).forPath(ZnodePaths.DATAGRAM_KEYS);
    DatagramKeys now = DatagramKeys.parse(data);
    if (now.next() == null || now.next().id() != id) {
      throw new IOException("the keys changed during the rotation: another rotation ran");
    }
    client
        .setData()
        .withVersion(stat.getVersion())
        .forPath(ZnodePaths.DATAGRAM_KEYS, now.promote().toJson());
    return id;
  }

  /** The brokers still not accepting key {@code id} after waiting up to {@code settle}. */
  private static List<String> awaitAccepted(CuratorFramework client, long id, Duration settle)
      throws Exception {
    long deadline = System.nanoTime() + settle.toNanos();
    while (true) {
      List<String> late = new ArrayList<>();
      late(client, ZnodePaths.BROKERS, "brokers", id, late);
      late(client, ZnodePaths.EDGES, "edges", id, late);
      if (late.isEmpty() || System.nanoTime() - deadline >= 0) {
        return late;
      }
      Thread.sleep(POLL.toMillis()); // a command waiting on other processes, not a test
    }
  }

  private static void late(
      CuratorFramework client, String members, String kind, long id, List<String> late)
      throws Exception {
    List<String> names;
    try {
      names = client.getChildren().forPath(members);
    } catch (KeeperException.NoNodeException e) {
      return;
    }
    for (String n : names) {
      String path = ZnodePaths.ACCEPTED_KEYS + "/" + kind + "/" + n;
      long acked;
      try {
        acked = Long.parseLong(new String(client.getData().forPath(path), StandardCharsets.UTF_8));
      } catch (KeeperException.NoNodeException | NumberFormatException e) {
        acked = 0;
      }
      if (acked < id) {
        late.add(kind + "/" + n);
      }
    }
  }

  private static DatagramKeys withGrace(DatagramKeys k, Duration grace) {
    return new DatagramKeys(k.current(), k.next(), k.previous(), grace);
  }

  private static byte[] newKey() {
    byte[] k = new byte[DatagramAuth.MIN_KEY];
    new SecureRandom().nextBytes(k);
    return k;
  }
}
