package org.netpubsub.controller.nbi;

/**
 * The bus's counters since it started. {@code deliveries} counts packet-ins queued to apps (one
 * packet-in for three apps is three; a packet-in published to a remote app counts as delivered);
 * {@code unclaimed} packet-ins matched no app's topic. {@code remoteAnswers} are packet-outs and
 * flow-mods remote apps sent that were decoded and handed to the checks (and then also counted as
 * packet-outs, duplicates, flow-mods, ...); {@code malformedAnswers} were dropped undecoded; {@code
 * refusedRequests} are control requests answered with {@code ERR}. With CURVE, {@code
 * remoteUnauthenticated} counts handshakes refused for want of an admitted key (such a peer sends
 * and receives nothing) and {@code remoteForbidden} requests and answers naming an app their client
 * may not act as (also in {@code refusedRequests} or dropped, never reaching a switch).
 */
public record BusMetrics(
    long packetIns,
    long deliveries,
    long unclaimed,
    long replies,
    long packetOuts,
    long duplicatePacketOuts,
    long deadPortPacketOuts,
    long flowMods,
    long refusedFlowMods,
    long appFailures,
    long remoteAnswers,
    long malformedAnswers,
    long refusedRequests,
    long remoteUnauthenticated,
    long remoteForbidden) {}
