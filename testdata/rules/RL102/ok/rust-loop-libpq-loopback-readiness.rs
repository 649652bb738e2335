// A wait for a connection pooler on this machine: the libpq key/value
// connection string names the host as `host=localhost` or as a directory
// (`host=/tmp`, which libpq and tokio-postgres read as the directory of a
// Unix-domain socket), so the peer is a process of this host that may not
// be listening yet; the loop retries no remote service (neondatabase/neon
// `compute_tools` tuning its own pgbouncer).
use std::time::Duration;

pub async fn tune_pooler(in_vm: bool) -> Result<(), anyhow::Error> {
    let connstr = if in_vm {
        "host=/tmp port=6432 dbname=pooler user=pooler".to_string()
    } else {
        "host=localhost port=6432 dbname=pooler user=admin sslmode=disable".to_string()
    };
    let mut retries = 3;
    let client = loop {
        match tokio_postgres::connect(&connstr, NoTls).await {
            Ok((client, connection)) => {
                tokio::spawn(connection);
                break client;
            }
            Err(e) => {
                if retries == 0 {
                    return Err(e.into());
                }
                retries -= 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    };
    client.simple_query("RELOAD").await?;
    Ok(())
}
