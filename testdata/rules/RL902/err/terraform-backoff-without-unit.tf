# Cloud Tasks durations are seconds with an `s`: `min_backoff = "5"` is
# refused by the API.
resource "google_cloud_tasks_queue" "mail" {
  name     = "mail"
  location = "us-central1"

  retry_config {
    max_attempts = 10
    min_backoff  = "5"
  }
}
