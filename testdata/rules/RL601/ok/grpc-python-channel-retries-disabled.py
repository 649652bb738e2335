# The same service config, but the channel turns gRPC retries off with
# ("grpc.enable_retries", 0): the retry policy never runs, so no budget is
# needed.
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
    return grpc.insecure_channel(
        "inventory:50051",
        options=[
            ("grpc.service_config", json.dumps(SERVICE_CONFIG)),
            ("grpc.enable_retries", 0),
        ],
    )
