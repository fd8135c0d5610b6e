// kafkajs (a transactions V1 client) against the broker given as argument: three transactions (commit, abort,
// commit) from its transactional producer, then a read_committed group consumer; prints "SEEN [...]".
const { Kafka, logLevel } = require('kafkajs');

const [broker, topic, groupId, transactionalId] = process.argv.slice(2);
const kafka = new Kafka({ clientId: 'kaas-kafkajs', brokers: [broker], logLevel: logLevel.WARN,
  retry: { retries: 8, initialRetryTime: 100 } });

async function transaction(producer, values, commit) {
  const txn = await producer.transaction();
  await txn.send({ topic, messages: values.map((value) => ({ key: 'k', value, partition: 0 })) });
  if (commit) {
    await txn.commit();
  } else {
    await txn.abort();
  }
}

async function main() {
  const producer = kafka.producer({ transactionalId, maxInFlightRequests: 1, idempotent: true });
  await producer.connect();
  await transaction(producer, ['js-c1', 'js-c2'], true);
  await transaction(producer, ['js-a1'], false);
  await transaction(producer, ['js-c3'], true);
  await producer.disconnect();

  const consumer = kafka.consumer({ groupId, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const seen = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out, saw ' + JSON.stringify(seen))), 40000);
    consumer.run({
      eachMessage: async ({ message }) => {
        seen.push(message.value.toString());
        if (seen.length >= 3) {
          clearTimeout(timer);
          resolve();
        }
      },
    }).catch(reject);
  });
  await new Promise((r) => setTimeout(r, 1500)); // anything more (an aborted record) would arrive meanwhile
  await consumer.disconnect();
  console.log('SEEN ' + JSON.stringify(seen));
}

main().then(() => process.exit(0), (e) => {
  console.error('FAILED', e);
  process.exit(1);
});
