#!/usr/bin/env bash
# Makes the secrets of compose.yaml's SASL_SSL cluster in DIR (default deploy/compose/secrets, ignored by git):
# a CA, one key store for the three brokers (names broker1..3 and localhost), a trust store, random passwords for
# the stores and the SCRAM users admin, agent and processor, and the files the services read:
#   broker.properties (--broker-config), scram.txt (--scram-credentials), agent.properties, processor.properties
#   and admin.properties (--kafka-config), as docs/OPERATIONS.md "Security" describes them.
# keytool runs in the siteflow image (IMAGE, default localhost/siteflow:latest), so the host needs only podman.
# Every file is mode 600, owned by the image's user (uid 10001); an existing DIR with files is refused.
#   deploy/compose/secrets.sh [DIR] [IMAGE]
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DIR=${1:-$HERE/secrets}
IMAGE=${2:-localhost/siteflow:latest}
export CONTAINERS_CONF="${CONTAINERS_CONF:-$HERE/../image/containers.conf}"

command -v podman >/dev/null 2>&1 || { echo "secrets.sh: podman not found (Debian: apt-get install -y podman runc)" >&2; exit 1; }
mkdir -p "$DIR"
if [ -n "$(ls -A "$DIR")" ]; then
  echo "secrets.sh: $DIR is not empty: remove it to make new secrets" >&2
  exit 1
fi

podman run --rm --user 0:0 --network none --no-healthcheck --entrypoint /bin/bash -v "$(cd "$DIR" && pwd)":/out "$IMAGE" -c '
set -euo pipefail
cd /out
umask 077
secret() { head -c 24 /dev/urandom | base64 | tr -d "/+=" ; }
store=$(secret); admin=$(secret); agent=$(secret); processor=$(secret)
kt() { keytool "$@" >/dev/null 2>&1 || { echo "keytool $1 failed" >&2; keytool "$@"; exit 1; }; }
kt -genkeypair -alias ca -dname "CN=siteflow compose CA" -keyalg EC -groupname secp256r1 -ext bc:c \
   -validity 365 -keystore ca.p12 -storetype PKCS12 -storepass "$store"
kt -exportcert -alias ca -keystore ca.p12 -storepass "$store" -rfc -file ca.pem
kt -importcert -alias ca -file ca.pem -keystore truststore.p12 -storetype PKCS12 -storepass "$store" -noprompt
kt -genkeypair -alias broker -dname "CN=broker" -keyalg EC -groupname secp256r1 -validity 365 \
   -keystore broker.p12 -storetype PKCS12 -storepass "$store"
kt -certreq -alias broker -keystore broker.p12 -storepass "$store" -file broker.csr
kt -gencert -alias ca -keystore ca.p12 -storepass "$store" -infile broker.csr -outfile broker.pem -validity 365 \
   -rfc -ext SAN=DNS:broker1,DNS:broker2,DNS:broker3,DNS:localhost
kt -importcert -alias ca -file ca.pem -keystore broker.p12 -storepass "$store" -noprompt
kt -importcert -alias broker -file broker.pem -keystore broker.p12 -storepass "$store"
rm -f broker.csr broker.pem
jaas() { echo "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$1\" password=\"$2\";"; }
trust="ssl.truststore.location=/etc/siteflow/secrets/truststore.p12
ssl.truststore.type=PKCS12
ssl.truststore.password=$store"
cat > broker.properties <<PROPS
# made by deploy/compose/secrets.sh: the SASL_SSL client listener (SCRAM-SHA-512), as conf/broker-sasl_ssl.properties
listener.security.protocol.map=CLIENT:SASL_SSL,CONTROLLER:PLAINTEXT
sasl.enabled.mechanisms=SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.client.scram-sha-512.sasl.jaas.config=$(jaas admin "$admin")
ssl.keystore.location=/etc/siteflow/secrets/broker.p12
ssl.keystore.type=PKCS12
ssl.keystore.password=$store
$trust
PROPS
printf "SCRAM-SHA-512=[name=%s,password=%s]\n" admin "$admin" agent "$agent" processor "$processor" > scram.txt
for user in admin agent processor; do
  eval "password=\$$user"
  cat > "$user.properties" <<PROPS
# made by deploy/compose/secrets.sh: a SASL_SSL client (SCRAM-SHA-512) as User:$user
security.protocol=SASL_SSL
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=$(jaas "$user" "$password")
$trust
PROPS
done
chmod 600 ./*
chown 10001:10001 ./*
chown 10001:10001 /out
chmod 700 /out
'
echo "secrets.sh: secrets in $DIR" >&2
