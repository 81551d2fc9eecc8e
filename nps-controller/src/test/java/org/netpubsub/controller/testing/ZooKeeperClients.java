package org.netpubsub.controller.testing;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** The Curator client the cluster tests give each controller process. */
public final class ZooKeeperClients {
  private ZooKeeperClients() {}

  /** A started client of {@code connect}: 10 s sessions, retries from 50 ms. */
  public static CuratorFramework started(String connect) {
    return started(connect, 10_000);
  }

  /** As {@link #started(String)} with sessions of {@code sessionMs}. */
  public static CuratorFramework started(String connect, int sessionMs) {
    CuratorFramework c =
        CuratorFrameworkFactory.builder()
            .connectString(connect)
            .sessionTimeoutMs(sessionMs)
            .connectionTimeoutMs(5_000)
            .retryPolicy(new ExponentialBackoffRetry(50, 10))
            .build();
    c.start();
    return c;
  }
}
