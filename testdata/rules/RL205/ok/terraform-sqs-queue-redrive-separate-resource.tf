resource "aws_sqs_queue" "thumbnails" {
  name                       = "thumbnails"
  visibility_timeout_seconds = 60
}

resource "aws_sqs_queue" "thumbnails_parked" {
  name = "thumbnails-parked"
}

resource "aws_sqs_queue_redrive_policy" "thumbnails" {
  queue_url = aws_sqs_queue.thumbnails.id
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.thumbnails_parked.arn
    maxReceiveCount     = 4
  })
}
