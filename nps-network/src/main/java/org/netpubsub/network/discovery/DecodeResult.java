package org.netpubsub.network.discovery;

import java.util.Optional;

/**
 * The outcome of decoding untrusted bytes: the value, or why the bytes are not one. Decoders return
 * it instead of throwing, whatever the bytes.
 */
public sealed interface DecodeResult<T> {

  /** The bytes decoded to {@code value}. */
  record Ok<T>(T value) implements DecodeResult<T> {}

  /** The bytes are not a valid frame of the kind; {@code reason} says what is wrong. */
  record Malformed<T>(String reason) implements DecodeResult<T> {}

  static <T> DecodeResult<T> ok(T value) {
    return new Ok<>(value);
  }

  static <T> DecodeResult<T> malformed(String reason) {
    return new Malformed<>(reason);
  }

  /** The value, or empty if malformed. */
  default Optional<T> toOptional() {
    return this instanceof Ok<T> ok ? Optional.of(ok.value()) : Optional.empty();
  }

  default boolean isOk() {
    return this instanceof Ok;
  }
}
