// A library's test helper: the template of the test databases connects to
// the database named by `TEST_DATABASE_URL`, 20 times 200 ms apart, on any
// error. A method of a type named for tests (`impl TestTemplate`) is test
// support, not the service's code, as a test-utilities crate is
// (matter-labs/zksync-era `TestTemplate::connect_to`, twenty-sixth pass).
use std::time::Duration;

pub struct TestTemplate(String);

impl TestTemplate {
    async fn connect_to(db_url: &str) -> sqlx::Result<sqlx::PgConnection> {
        use sqlx::Connection as _;
        let mut attempts = 20;
        loop {
            match sqlx::PgConnection::connect(db_url).await {
                Ok(conn) => return Ok(conn),
                Err(err) => {
                    attempts -= 1;
                    if attempts == 0 {
                        return Err(err);
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}
