package org.netpubsub.compiler.itch;

import java.util.Arrays;

/**
 * The message types of Nasdaq TotalView-ITCH 5.0 and their fixed lengths (type byte included), so
 * that every message but an Add Order is skipped by its length and a known type at another length
 * is recognised as malformed. A type byte outside this table is unknown (a newer feed): it is
 * skipped by its block length, never an error.
 */
public final class ItchMessageTypes {
  public static final byte SYSTEM_EVENT = 'S';
  public static final byte ADD_ORDER = 'A';
  public static final byte ADD_ORDER_MPID = 'F';
  public static final byte ORDER_EXECUTED = 'E';
  public static final byte ORDER_EXECUTED_WITH_PRICE = 'C';
  public static final byte ORDER_CANCEL = 'X';
  public static final byte ORDER_DELETE = 'D';
  public static final byte ORDER_REPLACE = 'U';
  public static final byte TRADE = 'P';

  /** 'A' Add Order, no attribution. */
  public static final int ADD_ORDER_LENGTH = 36;

  /** 'F' Add Order with MPID attribution. */
  public static final int ADD_ORDER_MPID_LENGTH = 40;

  /** The longest ITCH 5.0 message ('I', net order imbalance). */
  public static final int MAX_LENGTH = 50;

  private static final int[] LENGTH = new int[256];

  static {
    Arrays.fill(LENGTH, -1);
    // type, length (ITCH 5.0 specification, section 1.x, type byte included)
    Object[][] table = {
      {'S', 12}, // system event
      {'R', 39}, // stock directory
      {'H', 25}, // stock trading action
      {'Y', 20}, // Reg SHO restriction
      {'L', 26}, // market participant position
      {'V', 35}, // MWCB decline level
      {'W', 12}, // MWCB status
      {'K', 28}, // IPO quoting period update
      {'J', 35}, // LULD auction collar
      {'h', 21}, // operational halt
      {'A', ADD_ORDER_LENGTH},
      {'F', ADD_ORDER_MPID_LENGTH},
      {'E', 31}, // order executed
      {'C', 36}, // order executed with price
      {'X', 23}, // order cancel
      {'D', 19}, // order delete
      {'U', 35}, // order replace
      {'P', 44}, // trade (non-cross)
      {'Q', 40}, // cross trade
      {'B', 19}, // broken trade
      {'I', MAX_LENGTH}, // net order imbalance indicator
      {'N', 20}, // retail price improvement indicator
      {'O', 48}, // direct listing with capital raise price discovery
    };
    for (Object[] row : table) {
      LENGTH[(Character) row[0]] = (Integer) row[1];
    }
  }

  private ItchMessageTypes() {}

  /** The length of messages of this type byte, or −1 if the type is not in ITCH 5.0. */
  public static int length(byte type) {
    return LENGTH[type & 0xff];
  }

  public static boolean isKnown(byte type) {
    return LENGTH[type & 0xff] >= 0;
  }

  public static boolean isAddOrder(byte type) {
    return type == ADD_ORDER || type == ADD_ORDER_MPID;
  }
}
