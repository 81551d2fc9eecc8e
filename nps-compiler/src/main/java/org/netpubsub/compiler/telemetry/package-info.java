/**
 * In-band Network Telemetry reports (Telemetry Report Format v2.0; Camus §7.2): decoded into the
 * values of {@code BuiltinSpecs.intReports()} so that the compiled tables filter them, as in {@code
 * int.switch_id == 2 && int.hop_latency > 100}. Pure; decoders never throw on bytes.
 */
package org.netpubsub.compiler.telemetry;
