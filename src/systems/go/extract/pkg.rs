//! The packages the Go reader knows, by import path, and the name a file
//! uses for one imported without a name.

/// A package this reader knows, by import path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pkg {
    RetryableHttp,
    /// cenkalti/backoff; `true` for v5.
    Backoff(bool),
    /// avast/retry-go; `true` for v5.
    RetryGo(bool),
    GoRetry,
    ClientGoRetry,
    Wait,
    Grpc,
    Http,
    Time,
    Fmt,
    Os,
    Rand,
    Uuid,
    Strconv,
    Math,
    /// aws-sdk-go-v2 `aws/retry`.
    AwsRetry,
    /// aws-sdk-go-v2 `config`.
    AwsConfig,
    /// aws-sdk-go-v2 `aws` (the retry mode constants).
    Aws,
    /// An aws-sdk-go-v2 service client package (`service/s3`): its
    /// `Options` hold the client's own retry settings.
    AwsService,
    /// IBM/sarama (formerly Shopify/sarama), the Kafka client.
    Sarama,
    /// segmentio/kafka-go, the other Kafka client.
    KafkaGo,
    /// spf13/viper, a configuration store: `viper.GetInt("k")` is the
    /// value `viper.SetDefault("k", v)` gives where nothing else does.
    Viper,
    /// jpillora/backoff, a delay counter a hand-written loop waits.
    Jpillora,
    /// An AMQP 0-9-1 client: streadway/amqp, or its successor
    /// rabbitmq/amqp091-go.
    Amqp,
    /// nats-io/nats.go, the NATS client.
    Nats,
}

pub(super) fn pkg_of_path(path: &str) -> Option<Pkg> {
    let major = |p: &str, base: &str| p.strip_prefix(base).map(|rest| rest == "/v5");
    Some(match path {
        p if p.starts_with("github.com/hashicorp/go-retryablehttp") => Pkg::RetryableHttp,
        // v6 and v7 keep v5's `Retry(ctx, op, opts...)` (cenkalti/backoff
        // `CHANGELOG.md` and `retry.go` as vendored by grafana/beyla,
        // commit 6d5950eb4e6e6a27645e93e4156d236c11ed7da7: 6.0.0 adds
        // `RetryError`, 7.0.0 changes `RetryAfter`); woodpecker imports v7.
        p if p.starts_with("github.com/cenkalti/backoff") => Pkg::Backoff(
            p.strip_prefix("github.com/cenkalti/backoff/v")
                .and_then(|v| v.parse::<u32>().ok())
                .is_some_and(|v| v >= 5),
        ),
        p if p.starts_with("github.com/avast/retry-go") => {
            Pkg::RetryGo(major(p, "github.com/avast/retry-go").unwrap_or(false))
        }
        p if p.starts_with("github.com/sethvargo/go-retry") => Pkg::GoRetry,
        "k8s.io/client-go/util/retry" => Pkg::ClientGoRetry,
        "k8s.io/apimachinery/pkg/util/wait" => Pkg::Wait,
        "google.golang.org/grpc" => Pkg::Grpc,
        "net/http" => Pkg::Http,
        "time" => Pkg::Time,
        "fmt" => Pkg::Fmt,
        "os" => Pkg::Os,
        "math/rand" | "math/rand/v2" | "crypto/rand" => Pkg::Rand,
        "github.com/google/uuid" | "github.com/gofrs/uuid" | "github.com/satori/go.uuid" => {
            Pkg::Uuid
        }
        "strconv" => Pkg::Strconv,
        "github.com/aws/aws-sdk-go-v2/aws/retry" => Pkg::AwsRetry,
        "github.com/aws/aws-sdk-go-v2/config" => Pkg::AwsConfig,
        "github.com/aws/aws-sdk-go-v2/aws" => Pkg::Aws,
        p if p.starts_with("github.com/aws/aws-sdk-go-v2/service/") => Pkg::AwsService,
        "math" => Pkg::Math,
        "github.com/IBM/sarama" | "github.com/Shopify/sarama" => Pkg::Sarama,
        "github.com/segmentio/kafka-go" => Pkg::KafkaGo,
        "github.com/spf13/viper" => Pkg::Viper,
        "github.com/jpillora/backoff" => Pkg::Jpillora,
        "github.com/streadway/amqp" | "github.com/rabbitmq/amqp091-go" => Pkg::Amqp,
        "github.com/nats-io/nats.go" => Pkg::Nats,
        _ => return None,
    })
}

/// The name a file uses for a package imported without one: its last
/// path segment (not a major version `v2`), without a `go-` prefix or a
/// `-go` suffix (`go-retryablehttp` is `retryablehttp`, `retry-go` is
/// `retry`) or a `.go` one (`nats.go` is `nats`).
pub(super) fn default_name(path: &str) -> &str {
    // A package whose clause names it otherwise than its path: rabbitmq/
    // amqp091-go's files say `package amqp`.
    if path == "github.com/rabbitmq/amqp091-go" {
        return "amqp";
    }
    let mut segs = path.rsplit('/');
    let mut last = segs.next().unwrap_or(path);
    if last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit()) {
        last = segs.next().unwrap_or(last);
    }
    let last = last.strip_prefix("go-").unwrap_or(last);
    let last = last.strip_suffix("-go").unwrap_or(last);
    let last = last.strip_suffix(".go").unwrap_or(last);
    last.strip_prefix("go.").unwrap_or(last)
}
