# maximum_retry_attempts = -1 and no record age: a failing batch holds its
# shard until the records leave the stream.
resource "aws_lambda_event_source_mapping" "orders_stream" {
  event_source_arn       = aws_dynamodb_table.orders.stream_arn
  function_name          = aws_lambda_function.indexer.arn
  starting_position      = "TRIM_HORIZON"
  maximum_retry_attempts = -1
}
