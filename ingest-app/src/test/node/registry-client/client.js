// A hive gateway and an analyst written in Node.js with kafkajs and
// @kafkajs/confluent-schema-registry: no code of this project, only the topics' contracts.
//
//   node client.js produce   sends telemetry readings and entrance counts (registry framing)
//   node client.js consume   prints the hourly results as JSON lines, one per record
//
// Settings come from the environment: BOOTSTRAP, REGISTRY_URL, TELEMETRY_TOPIC, COUNTS_TOPIC,
// HOURLY_TOPIC, HIVES (how many hives), SAMPLES (per hive), EXPECT and TIMEOUT_MS (consume).
'use strict';
const { Kafka, logLevel, CompressionTypes, CompressionCodecs } = require('kafkajs');
const { SchemaRegistry } = require('@kafkajs/confluent-schema-registry');
const lz4 = require('lz4js');

// The topology's producers compress with LZ4, which kafkajs reads only with a codec plugged in
// (its core has gzip alone). lz4js is pure JavaScript: nothing to compile.
CompressionCodecs[CompressionTypes.LZ4] = () => ({
  async compress(encoder) { return Buffer.from(lz4.compress(encoder.buffer)); },
  async decompress(buffer) { return Buffer.from(lz4.decompress(buffer)); },
});

const env = (name, fallback) => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const kafka = new Kafka({ clientId: 'node-gateway', brokers: env('BOOTSTRAP').split(','), logLevel: logLevel.WARN });
const registry = new SchemaRegistry({ host: env('REGISTRY_URL') });
const HOUR = Date.parse('2021-07-15T10:00:00Z');
const hives = Number(env('HIVES', '3'));
const samples = Number(env('SAMPLES', '12'));

// The same formulas as RegistryClientChecks's expected sums (NodeRegistryClientIT).
const beesIn = (hive, sample) => (hive * 7 + sample * 3) % 13;
const beesOut = (hive, sample) => (hive * 5 + sample * 2) % 11;

async function produce() {
  const telemetryId = await registry.getLatestSchemaId(`${env('TELEMETRY_TOPIC')}-value`);
  const countsId = await registry.getLatestSchemaId(`${env('COUNTS_TOPIC')}-value`);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const telemetry = [];
  const counts = [];
  for (let h = 0; h < hives; h++) {
    const hiveId = `node-${h}`;
    for (let s = 0; s < samples; s++) {
      const time = HOUR + s * 5 * 60 * 1000;
      telemetry.push({ key: hiveId, value: await registry.encode(telemetryId, {
        hive_id: hiveId, gateway_id: 'node-gw', sensor_type: 'TEMPERATURE', sensor_id: 'brood',
        reading_time: time, value: 30 + h + s / 10, unit: 'degC', sequence_number: s,
      }) });
      counts.push({ key: hiveId, value: await registry.encode(countsId, {
        hive_id: hiveId, gateway_id: 'node-gw', event_time: time, bees_in: beesIn(h, s),
        bees_out: beesOut(h, s), interval_seconds: 300,
      }) });
    }
  }
  await producer.send({ topic: env('TELEMETRY_TOPIC'), acks: -1, compression: CompressionTypes.None, messages: telemetry });
  await producer.send({ topic: env('COUNTS_TOPIC'), acks: -1, compression: CompressionTypes.None, messages: counts });
  await producer.disconnect();
  console.log(JSON.stringify({ produced: { telemetry: telemetry.length, counts: counts.length, telemetryId, countsId } }));
}

async function consume() {
  const expect = Number(env('EXPECT'));
  const timeout = Number(env('TIMEOUT_MS', '120000'));
  const consumer = kafka.consumer({ groupId: `node-analyst-${Date.now()}`, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic: env('HOURLY_TOPIC'), fromBeginning: true });
  let seen = 0;
  let finish;
  const done = new Promise((resolve) => { finish = resolve; });
  const timer = setTimeout(() => finish('timeout'), timeout);
  await consumer.run({
    eachMessage: async ({ message }) => {
      const hour = await registry.decode(message.value);
      console.log(JSON.stringify({ key: message.key.toString(), hive_id: hour.hive_id, window_start: hour.window_start,
        entries: hour.entries, exits: hour.exits, samples: hour.samples }));
      if (++seen >= expect) finish('complete');
    },
  });
  const outcome = await done;
  clearTimeout(timer);
  await consumer.disconnect();
  if (outcome !== 'complete') {
    console.error(`only ${seen} of ${expect} hourly results within ${timeout} ms`);
    process.exit(3);
  }
}

const mode = process.argv[2];
(mode === 'produce' ? produce() : mode === 'consume' ? consume() : Promise.reject(new Error('mode: produce or consume')))
  .catch((e) => { console.error(e && e.stack ? e.stack : String(e)); process.exit(2); });
