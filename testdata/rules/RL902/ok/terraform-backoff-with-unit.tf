# Cloud Tasks durations written as seconds with an `s`.
resource "google_cloud_tasks_queue" "mail" {
  name     = "mail"
  location = "us-central1"

  retry_config {
    max_attempts       = 10
    max_retry_duration = "3600s"
    min_backoff        = "5s"
    max_backoff        = "300.5s"
  }
}
