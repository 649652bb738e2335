resource "aws_sqs_queue" "email" {
  name = "email-notification-queue"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.email_dead_letter.arn
    maxReceiveCount     = 3
  })
}

resource "aws_sqs_queue" "email_dead_letter" {
  name = "email-notification-dlq"
}

resource "aws_lambda_function" "email_notification" {
  function_name = "email-notification"
  handler       = "uk.gov.NotificationHandler::handleRequest"
  runtime       = "java17"
  timeout       = 30
}

resource "aws_lambda_event_source_mapping" "email" {
  event_source_arn = aws_sqs_queue.email.arn
  function_name    = aws_lambda_function.email_notification.arn
}
