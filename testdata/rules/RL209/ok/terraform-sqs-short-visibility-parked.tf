# A queue whose receives span seconds: a message past its last receive is
# parked in the dead-letter queue, not dropped, so RL209 does not apply.
resource "aws_sqs_queue" "fast" {
  name                       = "fast"
  visibility_timeout_seconds = 2
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.fast_parked.arn
    maxReceiveCount     = 3
  })
}
resource "aws_sqs_queue" "fast_parked" {
  name = "fast-parked"
}
