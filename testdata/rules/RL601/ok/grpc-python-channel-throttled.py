# The service config as a JSON string in the channel options, with
# retryThrottling: retries stop when more than half the recent calls fail.
import grpc

channel = grpc.insecure_channel(
    "inventory:50051",
    options=[
        (
            "grpc.service_config",
            '{"methodConfig": [{"name": [{"service": "inventory.Inventory"}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.2s", "maxBackoff": "2s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}], "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}',
        )
    ],
)
