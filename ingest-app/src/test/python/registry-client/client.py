#!/usr/bin/python3
"""A hive gateway and an analyst in Python with Debian's python3-confluent-kafka (1.7.0) and its
registry-aware Avro serializer (confluent_kafka.avro, on python3-avro): no code of this project,
only the topics' contracts.

  python3 client.py produce   sends telemetry readings and entrance counts (registry framing)
  python3 client.py consume   prints the hourly results as JSON lines, one per record

Settings come from the environment: BOOTSTRAP, REGISTRY_URL, TELEMETRY_TOPIC, COUNTS_TOPIC,
HOURLY_TOPIC, HIVES (how many hives), SAMPLES (per hive), EXPECT and TIMEOUT_MS (consume).

The pipeline's keys are the hive id as UTF-8 text. AvroProducer and AvroConsumer serialize keys
with Avro too (AvroConsumer decodes every key as registry-framed), so this client plugs the same
serializer, confluent_kafka.avro's MessageSerializer, into SerializingProducer and
DeserializingConsumer beside StringSerializer for the keys. (confluent_kafka.schema_registry.avro
needs fastavro, which Debian 12 does not package.)
"""
import datetime
import json
import os
import sys
import time

from confluent_kafka import DeserializingConsumer, KafkaException, SerializingProducer
from confluent_kafka.avro import CachedSchemaRegistryClient
from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
from confluent_kafka.serialization import StringDeserializer, StringSerializer


def env(name, fallback=None):
    value = os.environ.get(name, fallback)
    if value is None:
        raise SystemExit(f"{name} is not set")
    return value


HOUR = datetime.datetime(2021, 7, 15, 10, tzinfo=datetime.timezone.utc)
HIVES = int(env("HIVES", "3"))
SAMPLES = int(env("SAMPLES", "12"))


# The same formulas as RegistryClientChecks's expected sums (PythonRegistryClientIT).
def bees_in(hive, sample):
    return (hive * 7 + sample * 3) % 13


def bees_out(hive, sample):
    return (hive * 5 + sample * 2) % 11


def serializer():
    # REGISTRY_URL e.g. http://127.0.0.1:PORT/apis/ccompat/v7 (Apicurio's Confluent-compatible API)
    return MessageSerializer(CachedSchemaRegistryClient({"url": env("REGISTRY_URL")}))


def produce():
    avro = serializer()
    # The schema id of the subject the pipeline registered: nothing is registered on send.
    # (encode_record_with_schema, as AvroProducer does, would register python3-avro's rewrite of the
    # schema text, and Apicurio, matching by exact text, would add a version of the same schema.)
    ids = {}
    for topic in (env("TELEMETRY_TOPIC"), env("COUNTS_TOPIC")):
        schema_id, _, version = avro.registry_client.get_latest_schema(f"{topic}-value")
        if schema_id is None:
            raise SystemExit(f"subject {topic}-value is not registered: start the pipeline or run registry register")
        ids[topic] = schema_id
    producer = SerializingProducer({
        "bootstrap.servers": env("BOOTSTRAP"),
        "client.id": "python-gateway",
        "enable.idempotence": True,  # acks=all, retries without duplicates, order kept per hive
        "key.serializer": StringSerializer("utf_8"),
        "value.serializer": lambda record, ctx: avro.encode_record_with_schema_id(ids[ctx.topic], record),
    })
    failures = []

    def delivered(err, msg):
        if err is not None:
            failures.append(f"{msg.topic()} key {msg.key()}: {err}")

    sent = {"telemetry": 0, "counts": 0}
    for h in range(HIVES):
        hive_id = f"python-{h}"
        for s in range(SAMPLES):
            when = HOUR + datetime.timedelta(minutes=5 * s)  # timestamp-millis: an aware datetime
            producer.produce(env("TELEMETRY_TOPIC"), key=hive_id, on_delivery=delivered, value={
                "hive_id": hive_id, "gateway_id": "python-gw", "sensor_type": "TEMPERATURE",
                "sensor_id": "brood", "reading_time": when, "value": 30 + h + s / 10, "unit": "degC",
                "sequence_number": s})
            producer.produce(env("COUNTS_TOPIC"), key=hive_id, on_delivery=delivered, value={
                "hive_id": hive_id, "gateway_id": "python-gw", "event_time": when,
                "bees_in": bees_in(h, s), "bees_out": bees_out(h, s), "interval_seconds": 300})
            sent["telemetry"] += 1
            sent["counts"] += 1
            producer.poll(0)
    remaining = producer.flush(60)
    if remaining or failures:
        raise SystemExit(f"{remaining} records undelivered after 60 s; failed: {failures}")
    print(json.dumps({"produced": dict(sent, telemetryId=ids[env("TELEMETRY_TOPIC")],
                                       countsId=ids[env("COUNTS_TOPIC")])}), flush=True)


def millis(value):
    return int(value.timestamp() * 1000) if isinstance(value, datetime.datetime) else value


def consume():
    expect = int(env("EXPECT"))
    deadline = time.monotonic() + int(env("TIMEOUT_MS", "120000")) / 1000
    avro = serializer()
    consumer = DeserializingConsumer({
        "bootstrap.servers": env("BOOTSTRAP"),
        "group.id": f"python-analyst-{int(time.time() * 1000)}",
        "auto.offset.reset": "earliest",
        "isolation.level": "read_committed",  # only the topology's committed results
        "key.deserializer": StringDeserializer("utf_8"),
        "value.deserializer": lambda value, ctx: avro.decode_message(value),
    })
    consumer.subscribe([env("HOURLY_TOPIC")])
    seen = 0
    try:
        while seen < expect and time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                raise KafkaException(msg.error())
            hour = msg.value()  # a dict; timestamp-millis read as an aware datetime, date as a date
            print(json.dumps({"key": msg.key(), "hive_id": hour["hive_id"],
                              "window_start": millis(hour["window_start"]), "entries": hour["entries"],
                              "exits": hour["exits"], "samples": hour["samples"],
                              "timing": hour["timing"], "pane_index": hour["pane_index"]}), flush=True)
            seen += 1
    finally:
        consumer.close()
    if seen < expect:
        print(f"only {seen} of {expect} hourly results within {env('TIMEOUT_MS', '120000')} ms", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "produce":
        produce()
    elif mode == "consume":
        consume()
    else:
        raise SystemExit("mode: produce or consume")
