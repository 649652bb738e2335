# Five attempts, but the task is retried until a day has passed, from 10 s
# up to an hour apart.
resource "google_cloud_tasks_queue" "webhooks" {
  name     = "webhooks"
  location = "us-central1"

  retry_config {
    max_attempts       = 5
    max_retry_duration = "86400s"
    min_backoff        = "10s"
    max_backoff        = "3600s"
  }
}

# The settings come from variables: not known here, not judged.
resource "google_cloud_tasks_queue" "configured" {
  name     = var.queue_name
  location = "us-central1"

  retry_config {
    max_attempts = var.attempts
  }
}
