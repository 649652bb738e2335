# A scheduler target's dead-letter queue: it only receives what failed.
resource "aws_sqs_queue" "reminders_undelivered" {
  name = "reminders-undelivered"
}

resource "aws_scheduler_schedule" "reminders" {
  name                = "reminders"
  schedule_expression = "rate(1 hour)"

  flexible_time_window {
    mode = "OFF"
  }

  target {
    arn      = aws_lambda_function.remind.arn
    role_arn = aws_iam_role.scheduler.arn

    dead_letter_config {
      arn = aws_sqs_queue.reminders_undelivered.arn
    }
  }
}
