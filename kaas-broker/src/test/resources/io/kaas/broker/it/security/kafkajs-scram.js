// kafkajs over SASL/SCRAM against the broker given as argument: a wrong password first (prints "REFUSED <type>"),
// then the right one: produces three records, reads them back with a group consumer, prints "SEEN [...]".
const { Kafka, logLevel } = require('kafkajs');

const [broker, mechanism, username, password, topic, groupId] = process.argv.slice(2);

function kafka(pass) {
  return new Kafka({ clientId: 'kaas-kafkajs-scram', brokers: [broker], logLevel: logLevel.NOTHING,
    sasl: { mechanism, username, password: pass }, retry: { retries: 2, initialRetryTime: 100 } });
}

async function main() {
  const wrong = kafka(password + '-wrong').admin();
  try {
    await wrong.connect();
    console.log('ACCEPTED a wrong password');
  } catch (e) {
    console.log('REFUSED ' + e.name + ' ' + e.message);
  } finally {
    await wrong.disconnect().catch(() => {});
  }

  const client = kafka(password);
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();

  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: ['js-1', 'js-2', 'js-3'].map((value) => ({ value, partition: 0 })) });
  await producer.disconnect();

  const consumer = client.consumer({ groupId });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const seen = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out; seen ' + JSON.stringify(seen))), 30000);
    consumer.run({
      eachMessage: async ({ message }) => {
        seen.push(message.value.toString());
        if (seen.length === 3) {
          clearTimeout(timer);
          resolve();
        }
      },
    }).catch(reject);
  });
  await consumer.disconnect();
  console.log('SEEN ' + JSON.stringify(seen));
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
