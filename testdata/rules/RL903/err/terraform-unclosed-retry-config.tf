# A queue whose resource block is never closed: `terraform validate`
# rejects the file, and its retry_config is not checked.
resource "google_cloud_tasks_queue" "mail" {
  name     = "mail"
  location = "europe-west1"

  retry_config {
    max_attempts = 3
  }
