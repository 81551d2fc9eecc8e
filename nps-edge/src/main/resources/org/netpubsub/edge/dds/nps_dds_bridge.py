"""The DDS side of an overlay edge broker (docs/overlay-dds.md, "DDS sites"): one Cyclone DDS
participant in the site's domain, run as a child of the JVM edge broker and speaking frames on its
stdin/stdout. It discovers the site's DataWriters and DataReaders from the built-in topics, reads
what local writers publish and writes what other sites sent, always as the serialized CDR bytes
(the binding's sertype keeps them; nothing is decoded or re-encoded), on topics created from the
XTypes TypeObjects the local endpoints announce.

Frames: u32 big-endian length, then one kind byte and its body.
  to the JVM:   R {json}  ready       X text  cannot start (then exit 1)
                E {json}  an overlay topic gained/lost its local writers or readers, or the
                          shortest DEADLINE among them changed
                M sample  (u16 key length, key, u8 flags: 1 = reliable, payload: 0x01, the
                          writer's source timestamp as i64 big-endian ns, then the CDR bytes)
                D text    one sample or endpoint dropped, by reason (the JVM counts it)
  from the JVM: M sample  as above, to write into this domain (a payload of bare CDR, first
                          byte 0x00, is written with the time of writing)

Partitions (docs/overlay-dds.md, "Partitions"): an endpoint in one named partition P is on the key
dds/@P/<topic>/<type>/<hash> (P with %, /, + and # %-escaped), one in the default partition on
dds/<topic>/<type>/<hash>. A partition named after a participant's GUID (ddsperf's form,
8 hex digits _ 8 _ 8 _ 8) addresses that participant: a reader's in its own participant's GUID
partition and a writer's in the GUID partition of this child's participant (which stands for
every participant at other sites) are on dds/@*/<topic>/…; a writer's in another local
participant's GUID partition talks within the site and is not bridged.
"""

import argparse
import os
import re
import struct
import sys
import threading
import time
from collections import OrderedDict, deque

OUT = sys.stdout.buffer
OUT_LOCK = threading.Lock()
HISTORY = 1024  # the TRANSIENT_LOCAL history the child's writers keep, per instance
INSTANCES = 4096  # instances per key whose history the child keeps to seed a replaced writer
ADDRESSED = "*"  # the partition of a key addressed to a participant (no real name: a wildcard)
STAMPED = 1  # the first byte of a payload carrying the source timestamp (CDR's first is 0)


def frame(kind, body):
    with OUT_LOCK:
        OUT.write(struct.pack(">IB", len(body) + 1, kind) + body)
        OUT.flush()


def fail(message):
    frame(ord("X"), message.encode())
    sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--domain", type=int, required=True)
    p.add_argument("--interface")
    p.add_argument("--user-data", help="the participant's USER_DATA (e.g. ddsperf's DDSPerf:…)")
    a = p.parse_args()
    if a.interface:
        # the participant binds only this interface: multicast discovery stays on it
        os.environ["CYCLONEDDS_URI"] = (
            "<CycloneDDS><Domain Id='any'><General><Interfaces>"
            f"<NetworkInterface name='{a.interface}'/></Interfaces></General></Domain></CycloneDDS>"
        )
    try:
        from cyclonedds.core import Policy, Qos
        from cyclonedds.domain import DomainParticipant
    except ImportError as e:
        fail(f"the Python package 'cyclonedds' is missing: {e}")
    if not 0 <= a.domain <= 232:
        fail(f"cannot join DDS domain {a.domain}: domain ids are 0 to 232")
    try:
        qos = Qos(Policy.Userdata(a.user_data.encode())) if a.user_data else None
        dp = DomainParticipant(a.domain, qos=qos)
    except Exception as e:  # a bad interface, a port clash: Cyclone refuses the domain
        where = f" on interface '{a.interface}'" if a.interface else ""
        fail(f"cannot join DDS domain {a.domain}{where}: {e}")
    Bridge(dp).run()


class Bridge:
    def __init__(self, dp):
        from cyclonedds.builtin import (BuiltinDataReader, BuiltinTopicDcpsPublication,
                                        BuiltinTopicDcpsSubscription)
        self.dp = dp
        self.own = dp.guid
        self.own_partition = guid_partition(dp.guid)
        self.bases = {}  # dds/<topic>/<type>/<hash> -> (type, Topic): one per DDS topic
        self.types = {}  # key -> Python type built from the TypeObjects
        self.topics = {}  # key -> Topic
        self.endpoints = {"pub": {}, "sub": {}}  # role -> endpoint guid -> (key, qos info)
        self.readers = {}  # (key, reliable, durable) -> DataReader
        self.writers = {}  # key -> (DataWriter, the DEADLINE in ms it offers or None)
        self.written = {}  # key -> instance -> the last HISTORY (number, CDR) written on it
        self.numbered = 0  # numbers what was written, so seeds keep their order across instances
        self.lock = threading.Lock()  # guards types, topics, endpoints, readers, writers
        self.write_lock = threading.Lock()  # writes, and a writer's replacement, one at a time
        self.take_lock = threading.Lock()
        self.builtin = {"pub": BuiltinDataReader(dp, BuiltinTopicDcpsPublication),
                        "sub": BuiltinDataReader(dp, BuiltinTopicDcpsSubscription)}

    def run(self):
        threading.Thread(target=self.discover, daemon=True).start()
        frame(ord("R"), ('{"participant":"%s"}' % self.own).encode())
        inp = sys.stdin.buffer
        while True:
            head = inp.read(4)
            if len(head) < 4:
                os._exit(0)  # the JVM is gone
            n = struct.unpack(">I", head)[0]
            body = inp.read(n)
            if len(body) < n:
                os._exit(0)
            if body[:1] == b"M":
                self.write(body[1:])

    # ---- discovery (one thread: type look-ups may wait for the network) ----

    def discover(self):
        from cyclonedds.core import ReadCondition, WaitSet, SampleState, ViewState, InstanceState
        from cyclonedds.util import duration
        ws = WaitSet(self.dp)
        for r in self.builtin.values():
            ws.attach(ReadCondition(r, SampleState.Any | ViewState.Any | InstanceState.Any))
        while True:
            ws.wait(duration(milliseconds=200))
            for role, r in self.builtin.items():
                for s in r.take(64):
                    try:
                        self.endpoint(role, s)
                    except Exception as e:  # one bad endpoint must not stop discovery
                        frame(ord("D"), f"endpoint: {e}".encode())

    def endpoint(self, role, s):
        from cyclonedds.core import InstanceState
        guid = s.key
        if s.participant_key == self.own:
            return  # our own readers and writers are never local endpoints
        gone = s.sample_info.instance_state != InstanceState.Alive
        with self.lock:
            before = self.summary(role)
            if gone:
                self.endpoints[role].pop(guid, None)
            else:
                resolved = self.resolve(role, s)
                if resolved is None:
                    return
                key, partition = resolved
                self.endpoints[role][guid] = (key, dict(qos_info(s.qos), partition=partition))
                if role == "pub":
                    info = self.endpoints[role][guid][1]
                    self.reader(key, info["reliable"], info["durability"] != "volatile")
            after = self.summary(role)
        for key in after.keys() - before.keys():
            self.announce(role, key, True)
        for key in before.keys() - after.keys():
            self.announce(role, key, False)
        for key in after.keys() & before.keys():
            if after[key] != before[key]:  # the edge's run-time deadline follows the shortest
                self.announce(role, key, True)
        if role == "sub" and not gone:
            # the writer for other sites' samples exists (and offers a deadline the reader takes)
            # before they arrive: a VOLATILE reader would miss what a writer wrote before matching
            with self.write_lock:
                self.writer(key)

    def summary(self, role):
        """Each key of the role's endpoints -> the shortest DEADLINE among them (None: none)."""
        out = {}
        for k, q in self.endpoints[role].values():
            d = q["deadline_ms"]
            out[k] = d if out.get(k) is None else out[k] if d is None else min(out[k], d)
        return out

    def announce(self, role, key, present):
        import json
        infos = [q for k, q in self.endpoints[role].values() if k == key]
        o = {"role": role, "present": present, "key": key}
        if infos:
            o.update(infos[0])
            deadlines = [q["deadline_ms"] for q in infos if q["deadline_ms"] is not None]
            o["deadline_ms"] = min(deadlines) if deadlines else None
        frame(ord("E"), json.dumps(o).encode())

    def resolve(self, role, s):
        """The overlay key of an endpoint's topic and partition, and the endpoint's partition
        (None: the default one); the topic's type is built once from the TypeObjects. None for an
        endpoint that is not bridged."""
        from cyclonedds.dynamic import get_types_for_typeid
        from cyclonedds.topic import Topic
        if s.type_id is None or getattr(s.type_id, "discriminator", None) != 0xF2:
            frame(ord("D"), b"unknown_type")  # no complete XTypes type information announced
            return None
        names = partitions(s.qos)
        if len(names) > 1 or any("*" in n or "?" in n for n in names):
            frame(ord("D"), f"partition_unsupported: {s.topic_name}: {list(names)}".encode())
            return None
        partition = names[0] if names else None
        segment = "" if partition is None else "@%s/" % escape(partition)
        if partition is not None and GUID_PARTITION.fullmatch(partition):
            mine = guid_partition(s.participant_key) if role == "sub" else self.own_partition
            if partition != mine:
                return None  # a conversation between two participants of this site
            segment = "@%s/" % ADDRESSED
        base = "dds/%s/%s/%s" % (s.topic_name, s.type_name, bytes(s.type_id.value).hex())
        key = "dds/" + segment + base[4:]
        if base not in self.bases:
            try:
                t, _ = get_types_for_typeid(self.dp, s.type_id, 5_000_000_000)
                self.bases[base] = (t, Topic(self.dp, s.topic_name, t))
            except Exception as e:
                frame(ord("D"), f"unknown_type: {s.topic_name}: {e}".encode())
                return None
        self.types[key], self.topics[key] = self.bases[base]
        return key, partition

    def reader_partition(self, key):
        """The partition the child reads a key's local writers in: this participant's GUID
        partition for an addressed key (the writers address the participants it stands for)."""
        p = key_partition(key)
        return self.own_partition if p == ADDRESSED else p

    def writer_partitions(self, key, readers):
        """The partitions the child writes a key's samples from other sites in: those of the key's
        local readers (for an addressed key each reader's own GUID partition)."""
        p = key_partition(key)
        if p != ADDRESSED:
            return () if p is None else (p,)
        return tuple(sorted({q["partition"] for q in readers}))

    def reader(self, key, reliable, durable):
        """Reads what local writers publish on key (never what our own writer wrote); for a
        TRANSIENT_LOCAL writer a TRANSIENT_LOCAL reader, which receives the writer's history when
        it matches (a VOLATILE one would not match such a writer's history, and a TRANSIENT_LOCAL
        reader would not match a VOLATILE writer at all). A reliable writer's reader keeps all
        (KEEP_ALL): with KEEP_LAST 1024, a child starved of CPU for a second of a 1 000/s stream
        (or held up writing its frames to a busy JVM) would have Cyclone replace samples not yet
        taken, silently, before the edge numbers them, so no NACK could repair them; KEEP_ALL holds
        them until taken (the local writer's reliability sees them received). A best-effort
        writer's reader keeps the last 1024: such a writer promises nothing."""
        from cyclonedds.core import Listener, Policy, Qos
        from cyclonedds.sub import DataReader, Subscriber
        if (key, reliable, durable) in self.readers:
            return
        qos = Qos(Policy.Reliability.Reliable(0) if reliable else Policy.Reliability.BestEffort,
                  Policy.Durability.TransientLocal if durable else Policy.Durability.Volatile,
                  Policy.History.KeepAll if reliable else Policy.History.KeepLast(1024),
                  Policy.IgnoreLocal.Participant)
        head = struct.pack(">H", len(key.encode())) + key.encode() + bytes([1 if reliable else 0])
        made = []  # the listener may fire before the constructor returns
        part = self.reader_partition(key)
        sub = self.dp if part is None else Subscriber(self.dp, qos=Qos(Policy.Partition([part])))
        r = DataReader(sub, self.topics[key], qos=qos,
                       listener=Listener(on_data_available=lambda _: made and self.forward(made[0], head)))
        made.append(r)
        self.readers[(key, reliable, durable)] = r
        self.forward(r, head)  # what arrived before the listener could see the reader

    def forward(self, reader, head):
        with self.take_lock:  # one taker at a time keeps each reader's samples in order
            self.drain(reader, head)

    def drain(self, reader, head):
        from cyclonedds import _clayer as cl
        from cyclonedds.core import InstanceState, SampleState, ViewState
        while True:
            got = cl.ddspy_take(reader._ref, SampleState.Any | ViewState.Any | InstanceState.Any, 64)
            if isinstance(got, int) or not got:
                return
            for data, info in got:
                if info.valid_data:  # disposals and unregistrations are not bridged
                    # the source timestamp crosses too: readers order by it, and some read it
                    # (ddsperf's lowest bit says "answer as a ping", its value is the round trip)
                    stamp = struct.pack(">Bq", STAMPED, info.source_timestamp)
                    frame(ord("M"), head + stamp + data)

    # ---- samples from other sites (the main thread) ----

    def write(self, body):
        try:
            n = struct.unpack(">H", body[:2])[0]
            key = body[2:2 + n].decode()
            data = body[3 + n:]
        except Exception:
            frame(ord("D"), b"malformed")
            return
        with self.write_lock:
            w = self.writer(key)
            if w is None:  # no local endpoint told us this type
                frame(ord("D"), f"unknown_type: {key}".encode())
                return
            ts = None
            if data[:1] == bytes([STAMPED]) and len(data) >= 9:
                ts, data = struct.unpack(">q", data[1:9])[0], data[9:]
            if len(data) < 4 or written(w, data, ts) != 0:
                frame(ord("D"), f"malformed: {key}".encode())  # Cyclone checks it against the type
                return
            self.remember(key, data, ts)

    def remember(self, key, data, ts):
        """Keeps what the writer's TRANSIENT_LOCAL history holds (the last HISTORY per instance),
        to seed a writer that replaces it (see writer)."""
        t = self.types[key]
        try:  # the key fields name the instance (Cyclone already accepted the bytes)
            instance = None if t.__idl__.keyless else t.deserialize(data).serialize_key()
        except Exception:  # the binding cannot: one history for the key's instances together
            instance = None
        per = self.written.setdefault(key, OrderedDict())
        if instance not in per:
            per[instance] = deque(maxlen=HISTORY)
            if len(per) > INSTANCES:  # bounded: the least recently written instance goes
                per.popitem(last=False)
        per.move_to_end(instance)
        self.numbered += 1
        per[instance].append((self.numbered, data, ts))

    def seeds(self, key):
        """What the key's writer holds for late TRANSIENT_LOCAL readers, in the order written."""
        return [(d, ts) for _, d, ts in
                sorted(s for q in self.written.get(key, {}).values() for s in q)]

    def writer(self, key):
        """The writer of other sites' samples on key (with write_lock held). It offers the shortest
        DEADLINE its local readers request (DDS matches a reader only to a writer offering at most
        the reader's deadline; offering less than needed would be a promise the edge cannot keep,
        as it writes when samples arrive). Cyclone cannot change a writer's deadline, so a reader
        requesting a shorter one than the writer offers gets a new writer, make before break: it
        is created, matches the local readers, the old one's samples are acknowledged, and only
        then is the old one deleted (bounded: 2 s each, a reader in another partition never
        matches); meanwhile writes wait. A reader in a partition the writer does not write in gets a
        new writer the same way, writing in the partitions of all present readers."""
        from cyclonedds.core import Policy, Qos
        from cyclonedds.pub import DataWriter, Publisher
        from cyclonedds.util import duration
        with self.lock:
            if key not in self.topics:
                return None
            readers = [q for k, q in self.endpoints["sub"].values() if k == key]
            deadlines = [q["deadline_ms"] for q in readers if q["deadline_ms"] is not None]
            wanted = min(deadlines) if deadlines else None
            old, offered, parts = self.writers.get(key, (None, None, ()))
            wanted_parts = self.writer_partitions(key, readers)
            if old is not None and set(wanted_parts) <= set(parts) and (
                    wanted is None or offered is not None and offered <= wanted):
                return old
            # a reader in a partition the writer does not write in is a reason to replace it
            # too (Cyclone cannot change a publisher's partitions): the new one writes in the
            # partitions of the readers present
            # KEEP_ALL: a sample is kept until every reliable local reader acknowledged it (a
            # KEEP_LAST writer drops unacknowledged ones when a burst of repaired samples outruns
            # a slow reader; a full history blocks the write instead, up to 10 s: back-pressure).
            # TRANSIENT_LOCAL: a local TRANSIENT_LOCAL reader matches it (it would not match a
            # VOLATILE writer) and receives what was written before it matched, at most the
            # durability service's last 1024
            policies = [Policy.Reliability.Reliable(10_000_000_000), Policy.History.KeepAll,
                        Policy.Durability.TransientLocal,
                        Policy.DurabilityService(0, Policy.History.KeepLast(HISTORY), -1, -1, -1)]
            if wanted is not None:  # an offered deadline must not be longer than a requested one
                policies.append(Policy.Deadline(wanted * 1_000_000))
            pub = self.dp if not wanted_parts else Publisher(
                self.dp, qos=Qos(Policy.Partition(list(wanted_parts))))
            new = DataWriter(pub, self.topics[key], qos=Qos(*policies))
            # the new writer's TRANSIENT_LOCAL history starts empty: seed it with the old one's
            # (docs/overlay-dds.md, "Seeding a replaced writer") when that delivers no sample twice
            # and none to a VOLATILE reader: every reader the new writer will find takes what is
            # written after it discovered the writer, seeds included (a VOLATILE one too), so no
            # reader the old writer served may be present, and every present one must want the
            # history (TRANSIENT_LOCAL, reliable)
            seeded = old is not None and all(
                q["durability"] != "volatile" and q["reliable"]
                and q["deadline_ms"] is not None and (offered is None or q["deadline_ms"] < offered)
                for q in readers)
            if seeded:
                for data, ts in self.seeds(key):
                    written(new, data, ts)
        if old is not None:
            until = time.monotonic() + 2
            while len(new.matched_sub) < len(readers) and time.monotonic() < until:
                time.sleep(0.01)
            old.wait_for_acks(duration(seconds=2))
        with self.lock:
            self.writers[key] = (new, wanted, wanted_parts)
        if old is not None:
            old.__del__()  # dds_delete: its readers now match the new one
        return new


GUID_PARTITION = re.compile(r"[0-9a-f]{8}(?:_[0-9a-f]{8}){3}")  # ddsperf's form of a GUID


def guid_partition(guid):
    """A participant GUID (a uuid.UUID from the binding) as ddsperf names its partition."""
    h = guid.hex
    return "_".join(h[i:i + 8] for i in range(0, 32, 8))


def partitions(qos):
    """The partition names of an endpoint's discovered QoS; () for the default partition."""
    for p in qos:
        if type(p).__name__ == "Partition":
            return tuple(n for n in p.partitions if n != "") if p.partitions != ("",) else ()
    return ()


def escape(name):
    return "".join("%%%02X" % ord(c) if c in "%/+#" else c for c in name)


def key_partition(key):
    """A key's partition: None (default), ADDRESSED, or the partition's name."""
    if not key.startswith("dds/@"):
        return None
    seg = key[5:key.index("/", 5)]
    if seg == ADDRESSED:
        return ADDRESSED
    from urllib.parse import unquote
    return unquote(seg)


def written(w, data, ts):
    """Writes CDR bytes with the origin's source timestamp (None: now)."""
    from cyclonedds import _clayer as cl
    return cl.ddspy_write(w._ref, data) if ts is None else cl.ddspy_write_ts(w._ref, data, ts)


def qos_info(qos):
    """The QoS that matters to the overlay, from an endpoint's discovered QoS."""
    info = {"reliable": False, "durability": "volatile", "deadline_ms": None, "depth": 1}
    for p in qos:
        name = type(p).__name__  # the binding's policies are instances of per-policy classes
        if name == "Reliability.Reliable":
            info["reliable"] = True
        elif name == "Durability.TransientLocal":
            info["durability"] = "transient_local"
        elif name in ("Durability.Transient", "Durability.Persistent"):
            info["durability"] = "transient"
        elif name == "Deadline" and p.deadline < 2**63 - 1:
            info["deadline_ms"] = max(1, p.deadline // 1_000_000)
        elif name == "History.KeepLast":
            info["depth"] = p.depth
        elif name == "History.KeepAll":
            info["depth"] = -1
    return info


if __name__ == "__main__":
    main()
