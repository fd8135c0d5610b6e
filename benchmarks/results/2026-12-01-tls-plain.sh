#!/usr/bin/env bash
# Plain runs of Kafka's own perf tools (no harness) over SSL: kaas (the distribution) then Kafka 4.1.1 (KRaft),
# the same PKCS12 key store, 500,000 1 KiB records at acks=all to 3 partitions, then ConsumerPerformance.
set -u
work=/work/bench/tls/run; rm -rf $work; mkdir -p $work; cd $work
cp=$(cat /tmp/cp.txt)
home=/work/main/distribution/target/kaas-0.1.0-SNAPSHOT
keytool -genkeypair -alias broker -keyalg RSA -keysize 2048 -dname CN=localhost -ext SAN=ip:127.0.0.1,dns:localhost \
  -validity 2 -storetype PKCS12 -keystore $work/broker.p12 -storepass secret123 -keypass secret123 >/dev/null 2>&1
keytool -exportcert -alias broker -keystore $work/broker.p12 -storepass secret123 -file $work/broker.crt >/dev/null 2>&1
keytool -importcert -noprompt -alias broker -file $work/broker.crt -storetype PKCS12 -keystore $work/trust.p12 -storepass secret123 >/dev/null 2>&1
cat > client.properties <<P
security.protocol=SSL
ssl.truststore.type=PKCS12
ssl.truststore.location=$work/trust.p12
ssl.truststore.password=secret123
P
ssl="ssl.keystore.type=PKCS12 ssl.keystore.location=$work/broker.p12 ssl.keystore.password=secret123"
wait_port() { for i in $(seq 1 300); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.2; done; return 1; }
cpu() { awk '{print ($14+$15)/100}' /proc/$1/stat; }
measure() { # $1 name, $2 broker pid
  local b=$2
  java -cp "$cp" org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:19092 --create --topic tls --partitions 3 --replication-factor 1 >/dev/null
  local c0=$(cpu $b)
  echo "$1 produce acks=all over SSL:"; java -cp "$cp" org.apache.kafka.tools.ProducerPerformance --topic tls --num-records 500000 \
    --record-size 1024 --throughput -1 --producer.config client.properties --producer-props bootstrap.servers=127.0.0.1:19093 acks=all | tail -1
  local c1=$(cpu $b)
  echo "$1 consume over SSL:"; java -cp "$cp" org.apache.kafka.tools.ConsumerPerformance --bootstrap-server 127.0.0.1:19093 \
    --consumer.config client.properties --topic tls --messages 500000 --timeout 60000 2>&1 | grep -v INFO | tail -3
  local c2=$(cpu $b)
  echo "$1 broker CPU s: produce $(echo "$c1 - $c0" | bc) consume $(echo "$c2 - $c1" | bc) (per ~0.51 GB)"
}
sync
$home/bin/kaas-server-start.sh --override log.dirs=$work/kaas-data \
  --override listeners=PLAINTEXT://127.0.0.1:19092,SSL://127.0.0.1:19093 \
  --override advertised.listeners=PLAINTEXT://127.0.0.1:19092,SSL://127.0.0.1:19093 \
  $(for k in $ssl; do echo --override $k; done) > kaas.log 2>&1 &
pid=$!; wait_port 19093; sleep 1
bpid=$(pgrep -P $pid java || echo $pid)
measure kaas $bpid
kill $pid; wait $pid 2>/dev/null
sync
cat > kafka.properties <<P
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:19094
listeners=PLAINTEXT://127.0.0.1:19092,SSL://127.0.0.1:19093,CONTROLLER://127.0.0.1:19094
advertised.listeners=PLAINTEXT://127.0.0.1:19092,SSL://127.0.0.1:19093
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SSL:SSL,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$work/kafka-data
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
$(for k in $ssl; do echo $k; done)
P
java -cp "$cp" kafka.tools.StorageTool format -t $(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1) -c kafka.properties >/dev/null
java -Xms1G -Xmx1G -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -cp "$cp" kafka.Kafka kafka.properties > kafka.log 2>&1 &
kpid=$!; wait_port 19093; sleep 3
measure kafka $kpid
kill $kpid; wait $kpid 2>/dev/null
