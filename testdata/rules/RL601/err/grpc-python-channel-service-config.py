# A gRPC channel whose service config is a Python dict passed through
# json.dumps in the channel options: the client retries UNAVAILABLE up to
# four times, and with no retryThrottling nothing stops the retries when
# the server is down for every caller at once.
import json

import grpc

SERVICE_CONFIG = {
    "methodConfig": [
        {
            "name": [{"service": "inventory.Inventory"}],
            "retryPolicy": {
                "maxAttempts": 4,
                "initialBackoff": "0.2s",
                "maxBackoff": "2s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE"],
            },
        }
    ]
}


def stub():
    channel = grpc.insecure_channel(
        "inventory:50051",
        options=[("grpc.service_config", json.dumps(SERVICE_CONFIG))],
    )
    return channel
