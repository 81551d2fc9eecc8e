package org.netpubsub.controller.southbound;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/** An acknowledged batch waiting for its barrier reply: its messages by xid, errors so far. */
final class PendingBatch {
  final Map<Long, SwitchMod> modsByXid;
  final long barrierXid;
  final CompletableFuture<BatchResult> future;
  final long startNanos;
  final List<BatchFailedException.ModError> errors = new ArrayList<>();
  ScheduledFuture<?> timeout;

  PendingBatch(
      Map<Long, SwitchMod> modsByXid,
      long barrierXid,
      CompletableFuture<BatchResult> future,
      long startNanos) {
    this.modsByXid = modsByXid;
    this.barrierXid = barrierXid;
    this.future = future;
    this.startNanos = startNanos;
  }
}
