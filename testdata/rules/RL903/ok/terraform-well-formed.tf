# Well-formed: read, and nothing to say about its syntax.
resource "google_cloud_tasks_queue" "mail" {
  name     = "mail"
  location = "europe-west1"

  retry_config {
    max_attempts       = 10
    max_retry_duration = "86400s"
    min_backoff        = "10s"
  }
}
