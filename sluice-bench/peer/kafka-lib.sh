# Sourced by the peer scripts: fetch_kafka puts Apache Kafka $KAFKA_VERSION (broker, KRaft storage tool, kafka-tools,
# reload4j binding) from Maven Central into $KAFKA_LIB through a throwaway pom under $WORK_DIR.
# Needs KAFKA_VERSION, KAFKA_LIB, WORK_DIR and a log function.

# (a) Apache Kafka jars from Maven Central through a throwaway pom.
fetch_kafka() {
  if [[ -f "$KAFKA_LIB/.complete" ]]; then return; fi
  log "fetching Apache Kafka $KAFKA_VERSION jars into $KAFKA_LIB"
  local pom_dir="$WORK_DIR/kafka-fetch"
  mkdir -p "$pom_dir"
  cat > "$pom_dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.sluice.peer</groupId><artifactId>kafka-peer-fetch</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-server</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-metadata</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-raft</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-storage</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-group-coordinator</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-transaction-coordinator</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
    <dependency><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId><version>1.2.25</version></dependency>
  </dependencies>
</project>
POM
  rm -rf "$KAFKA_LIB"
  mvn -B -q -f "$pom_dir/pom.xml" dependency:copy-dependencies -DoutputDirectory="$KAFKA_LIB" -DincludeScope=runtime
  touch "$KAFKA_LIB/.complete"
}

