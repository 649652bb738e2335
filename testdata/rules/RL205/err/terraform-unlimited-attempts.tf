# `max_attempts = -1` with no `max_retry_duration`: Cloud Tasks retries
# the task until the task retention limit.
resource "google_cloud_tasks_queue" "sync" {
  name     = "sync"
  location = "europe-west1"

  retry_config {
    max_attempts = -1
    min_backoff  = "1s"
    max_backoff  = "60s"
  }
}
