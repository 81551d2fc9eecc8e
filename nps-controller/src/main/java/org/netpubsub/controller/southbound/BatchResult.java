package org.netpubsub.controller.southbound;

import java.time.Duration;

/**
 * An acknowledged batch: every message was processed without error (the barrier reply came and no
 * OFPT_ERROR before it). {@code latency} is from handing the batch to the connection to the reply.
 */
public record BatchResult(long dpid, int messages, Duration latency) {}
