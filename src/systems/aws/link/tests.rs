use super::*;
use std::path::Path;

fn file(path: &str, text: &str) -> ScannedFile {
    let p = Path::new(path);
    let syntax = crate::systems::classify(p, text.as_bytes()).expect("a file retrylint reads");
    ScannedFile {
        source: crate::source::SourceFile::new(path, text.to_string()),
        facts: crate::systems::extract(p, text, syntax),
        syntax: Some(syntax),
    }
}

/// The file with the build unit `unit` (what `link::unit_identities`
/// gives it).
fn in_unit(mut f: ScannedFile, unit: &str) -> ScannedFile {
    f.facts.services.push(ServiceDecl::new(
        unit,
        crate::source::Span::new(0, 0),
        IdentityKind::BuildUnit,
        "test",
        Vec::new(),
    ));
    f
}

const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  template:\n    spec:\n      containers:\n        - name: app\n          image: registry.example.com/shop/orders-api:1.2\n          env:\n            - name: AWS_MAX_ATTEMPTS\n              value: \"7\"\n            - name: AWS_PROFILE\n              value: batch\n";
const PROFILES: &str =
    "[default]\nmax_attempts = 2\n\n[profile batch]\nretry_mode = standard\nmax_attempts = 4\n";

/// The files after the link step that joins the shared configuration.
fn linked(mut files: Vec<ScannedFile>) -> Vec<ScannedFile> {
    shared_config(&mut files);
    files
}

fn client(files: &[ScannedFile], i: usize) -> &RetryPolicy {
    files[i]
        .facts
        .policies
        .iter()
        .find(|p| p.system == System::AwsSdk)
        .expect("the client's policy")
}

#[test]
fn the_environment_wins_over_the_profile_it_names_and_the_profile_gives_the_mode() {
    let files = linked(vec![
        in_unit(
            file(
                "orders-api/app.py",
                "import boto3\ns3 = boto3.client('s3')\n",
            ),
            "orders-api",
        ),
        file("k8s/orders.yaml", DEPLOYMENT),
        file(".aws/config", PROFILES),
    ]);
    let p = client(&files, 0);
    // AWS_MAX_ATTEMPTS=7 over the batch profile's 4; the mode from the
    // profile AWS_PROFILE names (standard: quota, 20 s cap).
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(7));
    assert_eq!(p.attempts.provenance, Provenance::Included);
    assert_eq!(p.budget.as_ref().map(|b| &b.value), Some(&Budget::Quota));
    assert!(matches!(
        p.delay.value,
        Delay::Exponential { cap: Some(c), .. } if c == STANDARD_MAX_BACKOFF
    ));
    let from: Vec<String> = p.settings_from.iter().map(|s| s.to_string()).collect();
    assert!(
        from.iter().any(|s| s.starts_with("k8s/orders.yaml")),
        "{from:?}"
    );
    assert!(
        from.iter().any(|s| s.starts_with(".aws/config")),
        "{from:?}"
    );
}

#[test]
fn a_count_written_in_code_stays_and_only_the_mode_is_taken() {
    let code = "import boto3\nfrom botocore.config import Config\ncfg = Config(retries={'max_attempts': 1})\ns3 = boto3.client('s3', config=cfg)\n";
    let files = linked(vec![
        in_unit(file("orders-api/app.py", code), "orders-api"),
        file("k8s/orders.yaml", DEPLOYMENT),
        file(".aws/config", PROFILES),
    ]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(p.attempts.provenance, Provenance::Written);
    assert_eq!(p.budget.as_ref().map(|b| &b.value), Some(&Budget::Quota));
}

#[test]
fn another_workloads_environment_and_two_disagreeing_ones_set_nothing() {
    let code = "import boto3\ns3 = boto3.client('s3')\n";
    let other = DEPLOYMENT.replace("orders", "billing");
    let files = linked(vec![
        in_unit(file("orders-api/app.py", code), "orders-api"),
        file("k8s/billing.yaml", &other),
    ]);
    assert_eq!(client(&files, 0).attempts.provenance, Provenance::Default);
    // Two overlays of `orders` with different counts.
    let files = linked(vec![
        in_unit(file("orders-api/app.py", code), "orders-api"),
        file("k8s/dev/orders.yaml", DEPLOYMENT),
        file(
            "k8s/prod/orders.yaml",
            &DEPLOYMENT.replace("\"7\"", "\"3\""),
        ),
    ]);
    assert_eq!(client(&files, 0).attempts.provenance, Provenance::Default);
}

#[test]
fn a_profile_applies_below_its_home_only_and_botocore_stays_legacy_without_a_mode() {
    let code = "import boto3\ns3 = boto3.client('s3')\n";
    let files = linked(vec![
        file("tools/app.py", code),
        file("infra/.aws/config", "[default]\nmax_attempts = 8\n"),
    ]);
    assert_eq!(client(&files, 0).attempts.provenance, Provenance::Default);
    let files = linked(vec![
        file("tools/app.py", code),
        file(".aws/config", "[default]\nmax_attempts = 8\n"),
    ]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(8));
    // No mode anywhere: botocore's legacy mode, no quota, no cap.
    assert!(p.budget.is_none());
    assert!(matches!(
        p.delay.value,
        Delay::Exponential { cap: None, .. }
    ));
}

#[test]
fn go_clients_take_the_profile_with_shared_config_profile() {
    let code = "package s\n\nimport (\n\t\"context\"\n\t\"github.com/aws/aws-sdk-go-v2/config\"\n)\n\nfunc f(ctx context.Context) {\n\tcfg, _ := config.LoadDefaultConfig(ctx, config.WithSharedConfigProfile(\"batch\"))\n\t_ = cfg\n}\n";
    let files = linked(vec![file("svc/s.go", code), file(".aws/config", PROFILES)]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(p.attempts.provenance, Provenance::Included);
    // `WithRetryMaxAttempts` in code keeps its count.
    let written = code.replace(
        "config.WithSharedConfigProfile(\"batch\"))",
        "config.WithSharedConfigProfile(\"batch\"), config.WithRetryMaxAttempts(9))",
    );
    let files = linked(vec![
        file("svc/s.go", &written),
        file(".aws/config", PROFILES),
    ]);
    assert_eq!(
        client(&files, 0).attempts.value.count,
        AttemptCount::Finite(9)
    );
}

#[test]
fn a_dockerfile_env_applies_below_its_folder_under_the_workloads() {
    let code = "import boto3\ns3 = boto3.client('s3')\n";
    let docker = "FROM python:3.12 AS build\nENV AWS_MAX_ATTEMPTS=9\nFROM python:3.12-slim\nENV AWS_RETRY_MODE=standard \\\n    AWS_MAX_ATTEMPTS=6\nCMD [\"python\", \"app.py\"]\n";
    let files = linked(vec![
        in_unit(file("orders-api/app.py", code), "orders-api"),
        file("orders-api/Dockerfile", docker),
    ]);
    let p = client(&files, 0);
    // The final stage's ENV, not the build stage's.
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(p.budget.as_ref().map(|b| &b.value), Some(&Budget::Quota));
    // A workload's env wins over the image's.
    let files = linked(vec![
        in_unit(file("orders-api/app.py", code), "orders-api"),
        file("orders-api/Dockerfile", docker),
        file("k8s/orders.yaml", DEPLOYMENT),
    ]);
    assert_eq!(
        client(&files, 0).attempts.value.count,
        AttemptCount::Finite(7)
    );
    // A Dockerfile of another folder does not.
    let files = linked(vec![
        in_unit(file("orders-api/app.py", code), "orders-api"),
        file("billing/Dockerfile", docker),
    ]);
    assert_eq!(client(&files, 0).attempts.provenance, Provenance::Default);
}

#[test]
fn a_stage_built_from_another_keeps_its_env() {
    let code = "import boto3\ns3 = boto3.client('s3')\n";
    let docker =
        "FROM python:3.12 AS base\nENV AWS_RETRY_MODE adaptive\nFROM base\nRUN pip install boto3\n";
    let files = linked(vec![file("app.py", code), file("Dockerfile", docker)]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert!(p.why.iter().any(|w| w.contains("adaptive")), "{:?}", p.why);
}

#[test]
fn a_dotenv_applies_only_where_the_program_loads_it() {
    let code = "import boto3\ns3 = boto3.client('s3')\n";
    let loads = "from dotenv import load_dotenv\nimport requests\nload_dotenv()\n";
    let env = "# settings\nAWS_MAX_ATTEMPTS=2\nexport AWS_RETRY_MODE=\"standard\"\n";
    let files = linked(vec![
        in_unit(file("worker/app.py", code), "worker"),
        file("worker/.env", env),
    ]);
    assert_eq!(client(&files, 0).attempts.provenance, Provenance::Default);
    let files = linked(vec![
        in_unit(file("worker/app.py", code), "worker"),
        in_unit(file("worker/main.py", loads), "worker"),
        file("worker/.env", env),
    ]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(p.budget.as_ref().map(|b| &b.value), Some(&Budget::Quota));
    // Below the image's ENV: python-dotenv does not override.
    let files = linked(vec![
        in_unit(file("worker/app.py", code), "worker"),
        in_unit(file("worker/main.py", loads), "worker"),
        file("worker/.env", env),
        file("worker/Dockerfile", "FROM python\nENV AWS_MAX_ATTEMPTS=5\n"),
    ]);
    assert_eq!(
        client(&files, 0).attempts.value.count,
        AttemptCount::Finite(5)
    );
}

#[test]
fn a_variable_passed_through_without_a_value_is_unknown_not_the_profiles() {
    let code = "import boto3\ns3 = boto3.client('s3')\n";
    let compose = "services:\n  worker:\n    build: ./worker\n    environment:\n      - AWS_PROFILE\n      - AWS_MAX_ATTEMPTS\n";
    let files = linked(vec![
        in_unit(file("worker/app.py", code), "worker"),
        file("docker-compose.yml", compose),
        file(".aws/config", PROFILES),
    ]);
    let p = client(&files, 0);
    // Not the default profile's `max_attempts = 2`: the shell's value.
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(p.attempts.provenance, Provenance::Included);
    assert!(
        p.why
            .iter()
            .any(|w| w.contains("`AWS_PROFILE` is set where the program runs")),
        "{:?}",
        p.why
    );
    // `AWS_PROFILE` alone passed through: the profile is unknown, and so
    // are the mode and count it may set.
    let compose =
        "services:\n  worker:\n    build: ./worker\n    environment:\n      AWS_PROFILE:\n";
    let files = linked(vec![
        in_unit(file("worker/app.py", code), "worker"),
        file("docker-compose.yml", compose),
        file(".aws/config", PROFILES),
    ]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(p.budget_site, BudgetSite::Unseen);
}

#[test]
fn java_clients_default_to_legacy_and_read_no_profile_count() {
    let code = "import software.amazon.awssdk.services.s3.S3Client;\n\nclass A {\n  S3Client s3 = S3Client.builder().build();\n}\n";
    let files = linked(vec![
        file("svc/A.java", code),
        file(".aws/config", PROFILES),
    ]);
    let p = client(&files, 0);
    // `[default] max_attempts = 2` is not read by the Java SDK.
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(p.attempts.provenance, Provenance::Default);
    let env = DEPLOYMENT
        .replace("AWS_PROFILE", "AWS_RETRY_MODE")
        .replace("value: batch", "value: standard");
    let files = linked(vec![
        in_unit(file("orders-api/A.java", code), "orders-api"),
        file("k8s/orders.yaml", &env),
    ]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(7));
    assert_eq!(p.attempts.provenance, Provenance::Included);
}

#[test]
fn rust_sdk_configs_take_the_environment() {
    let code = "async fn c() -> aws_sdk_s3::Client {\n    let config = aws_config::load_defaults(BehaviorVersion::latest()).await;\n    aws_sdk_s3::Client::new(&config)\n}\n";
    let files = linked(vec![
        in_unit(file("orders-api/src/main.rs", code), "orders-api"),
        file("k8s/orders.yaml", DEPLOYMENT),
    ]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(7));
}

#[test]
fn dynamodb_clients_keep_nine_attempts_in_every_mode() {
    let code = "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;\n\nclass A {\n  DynamoDbClient db = DynamoDbClient.builder().build();\n}\n";
    let files = linked(vec![file("svc/A.java", code)]);
    let p = client(&files, 0);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(9));
    assert!(matches!(
        p.delay.value,
        Delay::Exponential { base, .. } if base == std::time::Duration::from_millis(25)
    ));
    // `AWS_RETRY_MODE=standard` changes the mode, not DynamoDB's count
    // (an S3 client under it gets the mode's 3).
    let env = DEPLOYMENT
        .replace("AWS_PROFILE", "AWS_RETRY_MODE")
        .replace("value: batch", "value: standard")
        .replace("AWS_MAX_ATTEMPTS", "OTHER");
    let s3 = "import software.amazon.awssdk.services.s3.S3Client;\n\nclass B {\n  S3Client s3 = S3Client.builder().build();\n}\n";
    let files = linked(vec![
        in_unit(file("orders-api/A.java", code), "orders-api"),
        in_unit(file("orders-api/B.java", s3), "orders-api"),
        file("k8s/orders.yaml", &env),
    ]);
    assert_eq!(
        client(&files, 0).attempts.value.count,
        AttemptCount::Finite(9)
    );
    assert_eq!(
        client(&files, 1).attempts.value.count,
        AttemptCount::Finite(3)
    );
    // A retry strategy written on the client: the SDK's, not DynamoDB's.
    let written = code.replace(
        ".build();\n}",
        ".overrideConfiguration(o -> o.retryStrategy(b -> b.maxAttempts(2))).build();\n}",
    );
    let files = linked(vec![file("svc/A.java", &written)]);
    assert_eq!(
        client(&files, 0).attempts.value.count,
        AttemptCount::Finite(2)
    );
}

/// `AWS_MAX_ATTEMPTS` does not reach a DynamoDB client given no retry
/// strategy: aws-sdk-java-v2 `DynamoDbRetryPolicy.resolveRetryStrategy`
/// (07c0c616) builds `AwsRetryStrategy.forRetryMode(mode)` (whose count
/// `SdkDefaultRetrySetting.maxAttempts` takes from `AWS_MAX_ATTEMPTS`)
/// and then sets `.maxAttempts(MAX_ATTEMPTS_V20)`, 9, over it; adaptive
/// mode's `numRetries(MAX_ERROR_RETRY_V20)` is 9 attempts too.
#[test]
fn aws_max_attempts_does_not_reach_a_dynamodb_client() {
    let code = "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;\n\nclass A {\n  DynamoDbClient db = DynamoDbClient.builder().build();\n}\n";
    let s3 = "import software.amazon.awssdk.services.s3.S3Client;\n\nclass B {\n  S3Client s3 = S3Client.builder().build();\n}\n";
    let env = DEPLOYMENT.replace("AWS_PROFILE", "OTHER");
    let files = linked(vec![
        in_unit(file("orders-api/A.java", code), "orders-api"),
        in_unit(file("orders-api/B.java", s3), "orders-api"),
        file("k8s/orders.yaml", &env),
    ]);
    let db = client(&files, 0);
    assert_eq!(db.attempts.value.count, AttemptCount::Finite(9));
    assert!(
        db.why.iter().any(|w| w.contains("AWS_MAX_ATTEMPTS")),
        "{:?}",
        db.why
    );
    // The S3 client takes it.
    assert_eq!(
        client(&files, 1).attempts.value.count,
        AttemptCount::Finite(7)
    );
}
