package org.netpubsub.compiler.itch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Unsigned big-endian reads and writes on byte arrays, without allocation (network byte order). */
final class BigEndian {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  private BigEndian() {}

  static int u8(byte[] b, int off) {
    return b[off] & 0xff;
  }

  static int u16(byte[] b, int off) {
    return (short) SHORT.get(b, off) & 0xffff;
  }

  static long u32(byte[] b, int off) {
    return (int) INT.get(b, off) & 0xffff_ffffL;
  }

  static long u48(byte[] b, int off) {
    return (long) u16(b, off) << 32 | u32(b, off + 2);
  }

  static long u64(byte[] b, int off) {
    return (long) LONG.get(b, off);
  }

  static void put16(byte[] b, int off, int v) {
    SHORT.set(b, off, (short) v);
  }

  static void put32(byte[] b, int off, long v) {
    INT.set(b, off, (int) v);
  }

  static void put48(byte[] b, int off, long v) {
    put16(b, off, (int) (v >>> 32));
    put32(b, off + 2, v);
  }

  static void put64(byte[] b, int off, long v) {
    LONG.set(b, off, v);
  }
}
