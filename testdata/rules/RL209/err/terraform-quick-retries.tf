# A Cloud Tasks queue made with Terraform: 4 attempts (3 retries) from
# 0.5 s, at most 2 s apart, and `max_retry_duration` of 4 s; then the
# task is deleted.
resource "google_cloud_tasks_queue" "webhooks" {
  name     = "webhooks"
  location = "us-central1"

  retry_config {
    max_attempts       = 4
    max_retry_duration = "4s"
    min_backoff        = "0.5s"
    max_backoff        = "2s"
    max_doublings      = 2
  }
}
