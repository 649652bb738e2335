#!/usr/bin/env bash
# Generate a monorepo of 60 services as Kubernetes manifests, for the audit
# layout tests (tests/suite/audit_summary.rs, tests/screenshot.rs) and to look at
# the report of a graph of that size:
#
#   scripts/gen-monorepo.sh OUT_DIR
#
# Shape: a gateway calls 5 fronts; each front calls 6 of 20 services; each
# service calls one of 10 cores (and every fourth one another service, so
# calls skip layers and one cycle forms); each core calls two or three of
# 24 stores (PostgreSQL, Redis, RabbitMQ) in namespace `data`, leaves,
# drawn grouped per caller. The namespace asks for Istio injection and five
# VirtualServices retry, so the worst paths multiply.
set -euo pipefail
out=${1:?usage: scripts/gen-monorepo.sh OUT_DIR}
mkdir -p "$out/k8s"
m="$out/k8s/deployments.yaml"
v="$out/k8s/virtual-services.yaml"
cat >"$m" <<'YAML'
apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    istio-injection: enabled
YAML
deployment() { # name callee...  (NS: the namespace, shop unless set)
  local name=$1
  shift
  printf -- '---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  namespace: '"${NS:-shop}"'\nspec:\n  template:\n    spec:\n      containers:\n      - name: %s\n        image: example/%s:1.0\n' "$name" "$name" "$name" >>"$m"
  if [ $# -gt 0 ]; then
    printf '        env:\n' >>"$m"
    local i=0
    for c in "$@"; do
      case $c in
      *://*) url=$c ;;
      *) url="http://$c:8080" ;;
      esac
      printf '        - name: DEP%d_URL\n          value: %s\n' "$i" "$url" >>"$m"
      i=$((i + 1))
    done
  fi
}
name() { printf '%s-%02d\n' "$1" "$2"; }
deployment gateway $(for i in 0 1 2 3 4; do name front "$i"; done)
for i in 0 1 2 3 4; do
  deployment "$(name front "$i")" $(for k in 0 1 2 3 4 5; do name service $(((i * 4 + k) % 20)); done)
done
for j in $(seq 0 19); do
  calls=("$(name core $((j % 10)))")
  if [ $((j % 4)) -eq 0 ]; then calls+=("$(name service $(((j + 7) % 20)))"); fi
  deployment "$(name service "$j")" "${calls[@]}"
done
for k in $(seq 0 9); do
  calls=("postgres://$(name store $((2 * k % 24))).data:5432/app" "redis://$(name store $(((2 * k + 1) % 24))).data:6379")
  if [ $((k % 3)) -eq 0 ]; then calls+=("amqp://$(name store $(((k + 20) % 24))).data:5672"); fi
  deployment "$(name core "$k")" "${calls[@]}"
done
for s in $(seq 0 23); do NS=data deployment "$(name store "$s")"; done
: >"$v"
for h in front-00 service-00 service-07 core-00 core-07; do
  printf -- '---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: %s\n  namespace: shop\nspec:\n  hosts: [%s]\n  http:\n    - route:\n        - destination:\n            host: %s\n      timeout: 10s\n      retries:\n        attempts: 3\n        perTryTimeout: 2s\n        retryOn: connect-failure,refused-stream\n' "$h" "$h" "$h" >>"$v"
done
