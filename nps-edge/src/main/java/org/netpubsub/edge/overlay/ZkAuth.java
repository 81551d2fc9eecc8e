package org.netpubsub.edge.overlay;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * ZooKeeper digest credentials ({@code user:password}, from {@code --zookeeper-auth FILE}). A
 * client built with them authenticates its session and creates every znode with {@link
 * ZooDefs.Ids#CREATOR_ALL_ACL}: all rights for that digest identity, none for anyone else, so a
 * client without the credentials can neither read nor write the tree (docs/security.md).
 */
public record ZkAuth(String user, String password) {
  public ZkAuth {
    if (user == null
        || user.isEmpty()
        || user.contains(":")
        || user.strip().length() != user.length()) {
      throw new IllegalArgumentException("ZooKeeper auth: the user must be non-empty, without ':'");
    }
    if (password == null || password.isEmpty()) {
      throw new IllegalArgumentException("ZooKeeper auth: the password must be non-empty");
    }
  }

  /** Parses a file's text: one line {@code user:password} (a final newline is allowed). */
  public static ZkAuth parse(String text, String what) {
    String t = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    t = t.endsWith("\r") ? t.substring(0, t.length() - 1) : t;
    int colon = t.indexOf(':');
    if (colon < 0 || t.contains("\n")) {
      throw new IllegalArgumentException(what + ": expected one line user:password");
    }
    try {
      return new ZkAuth(t.substring(0, colon), t.substring(colon + 1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage());
    }
  }

  /**
   * Fresh random credentials ({@code user}, 256 random bits as the password) for a ZooKeeper that
   * lives for one run in this process (the in-process benchmarks): nothing in the project runs
   * ZooKeeper world-writable, even on loopback for a minute.
   */
  public static ZkAuth random(String user) {
    byte[] p = new byte[32];
    new java.security.SecureRandom().nextBytes(p);
    return new ZkAuth(user, java.util.HexFormat.of().formatHex(p));
  }

  /**
   * {@code builder} with these credentials: its session authenticates, and every znode it creates
   * is this identity's only (for clients built outside {@link Zk}, e.g. with a namespace).
   */
  public org.apache.curator.framework.CuratorFrameworkFactory.Builder applyTo(
      org.apache.curator.framework.CuratorFrameworkFactory.Builder builder) {
    return builder.authorization("digest", digestAuth()).aclProvider(creatorOnly());
  }

  /** The bytes of the {@code digest} scheme's auth packet. */
  byte[] digestAuth() {
    return (user + ":" + password).getBytes(StandardCharsets.UTF_8);
  }

  /** Every znode this client creates: all rights for its own digest identity only. */
  static ACLProvider creatorOnly() {
    return new ACLProvider() {
      @Override
      public List<ACL> getDefaultAcl() {
        return ZooDefs.Ids.CREATOR_ALL_ACL;
      }

      @Override
      public List<ACL> getAclForPath(String path) {
        return ZooDefs.Ids.CREATOR_ALL_ACL;
      }
    };
  }

  @Override
  public String toString() {
    return "ZkAuth[" + user + ":***]";
  }
}
