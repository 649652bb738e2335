# Received again until the message expires: no redrive_policy.
resource "aws_sqs_queue" "thumbnails" {
  name                       = "thumbnails"
  visibility_timeout_seconds = 60
}
