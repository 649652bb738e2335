# No limit on attempts, but a retry duration of an hour ends them; and a
# queue with no retry_config gets Cloud Tasks' own choice, not known here.
resource "google_cloud_tasks_queue" "sync" {
  name     = "sync"
  location = "europe-west1"

  retry_config {
    max_attempts       = -1
    max_retry_duration = "3600s"
  }
}

resource "google_cloud_tasks_queue" "plain" {
  name     = "plain"
  location = "europe-west1"
}
