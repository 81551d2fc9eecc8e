package org.netpubsub.controller.southbound;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import org.projectfloodlight.openflow.protocol.OFStatsReply;

/**
 * A multipart request waiting for its replies: the items of every part (REPLY_MORE) are collected
 * until the last part comes.
 */
final class PendingMultipart<T> {
  final long xid;
  final String what;
  final Function<OFStatsReply, List<T>> items;
  final CompletableFuture<List<T>> future;
  final List<T> collected = new ArrayList<>();
  ScheduledFuture<?> timeout;

  PendingMultipart(
      long xid,
      String what,
      Function<OFStatsReply, List<T>> items,
      CompletableFuture<List<T>> future) {
    this.xid = xid;
    this.what = what;
    this.items = items;
    this.future = future;
  }
}
