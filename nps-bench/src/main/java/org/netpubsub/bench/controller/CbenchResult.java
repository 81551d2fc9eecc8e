package org.netpubsub.bench.controller;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What one {@link Cbench} run measured. Counts and rates cover the measured rounds only (after the
 * warm-up rounds), except {@code packetIns}, which counts every packet-in sent over the whole run.
 *
 * @param mode latency (one packet-in outstanding per switch) or throughput (a window of them)
 * @param switches emulated switches, datapath ids 1..switches
 * @param window packet-ins each switch keeps outstanding (1 in latency mode)
 * @param warmupRounds rounds run but not measured
 * @param roundLength the length of a round
 * @param roundRates responses per second of each measured round, summed over the switches (the
 *     figure cbench prints per round)
 * @param responses packet-outs and flow-mods received in the measured rounds
 * @param measured how long the measured rounds took
 * @param responsesPerSecond {@code responses} over {@code measured}
 * @param minRoundRate the slowest measured round, responses/s
 * @param maxRoundRate the fastest measured round, responses/s
 * @param meanRoundRate the mean of the measured rounds' rates, responses/s
 * @param packetIns packet-ins sent over the whole run, warm-up included
 * @param disconnected switches whose connection was closed before the run ended
 * @param rtt in latency mode, from sending a packet-in to the response that answered it, over the
 *     measured rounds; empty in throughput mode
 */
public record CbenchResult(
    Cbench.Mode mode,
    int switches,
    int window,
    int warmupRounds,
    Duration roundLength,
    List<Double> roundRates,
    long responses,
    Duration measured,
    double responsesPerSecond,
    double minRoundRate,
    double maxRoundRate,
    double meanRoundRate,
    long packetIns,
    int disconnected,
    Optional<Rtt> rtt) {

  /** Round-trip times of a latency run: mean, median and 99th percentile, and the sample count. */
  public record Rtt(long samples, Duration mean, Duration p50, Duration p99) {}

  public CbenchResult {
    roundRates = List.copyOf(roundRates);
  }

  /** A result from the measured rounds; the rates are derived. */
  static CbenchResult of(
      Cbench.Mode mode,
      int switches,
      int window,
      int warmupRounds,
      Duration roundLength,
      List<Double> roundRates,
      long responses,
      Duration measured,
      long packetIns,
      int disconnected,
      Optional<Rtt> rtt) {
    double seconds = Math.max(1, measured.toNanos()) / 1e9;
    return new CbenchResult(
        mode,
        switches,
        window,
        warmupRounds,
        roundLength,
        roundRates,
        responses,
        measured,
        responses / seconds,
        roundRates.stream().mapToDouble(Double::doubleValue).min().orElse(0),
        roundRates.stream().mapToDouble(Double::doubleValue).max().orElse(0),
        roundRates.stream().mapToDouble(Double::doubleValue).average().orElse(0),
        packetIns,
        disconnected,
        rtt);
  }
}
